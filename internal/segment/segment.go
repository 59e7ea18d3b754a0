// Package segment hands out the values of a named counter kept in a store
// in segments, the way Meituan Leaf's segment mode, Didi tinyid and
// CosId's segment chain do, without their failures (DESIGN "Segments:
// dense counters from a store").
//
// A Counter takes a segment of values from its Store in one atomic step
// (the store records it before any of its values is handed out) and hands
// them out in increasing order from a lock-free hot path: one atomic add.
// When fewer than padding percent of the current segment are left, the
// next one is fetched in the background (a double buffer); a caller waits
// for the store only when it outruns that prefetch, for at most max_wait.
//
//   - Exhaustion: past INT64_MAX the counter ends: errs.ErrTimeOverflow
//     (IDGEN_EOVERFLOW) once the values in hand are used up; never a wrap.
//   - Outage: the values in hand keep issuing; then each call waits up to
//     max_wait and fails with errs.ErrWorker naming the store, while the
//     Counter goes on trying in the background.
//   - Close gives back the unused tail when the store's counter still
//     stands at the end of the last segment taken; a crash loses at most
//     the current and the prefetched segment.
//
// step=auto sizes each segment from the rate the previous one was used
// at: the values it would take to last AutoTarget (1 s) at that rate,
// between MinAutoStep and MaxAutoStep (1,000 and 10,000,000); it grows at
// once and shrinks at most by half per segment. Leaf doubles its step when
// a segment lasted less than 15 minutes and halves it past 30; idgen
// aims at one second, far beyond a store round trip, so that a prefetch
// started with padding percent left lands long before it is needed.
//
// At the MaxAutoStep cap that second cannot be kept (over 10 M values/s a
// segment lasts less): a segment taken at the cap starts the next fetch
// as soon as it becomes current, whatever padding says, so the prefetch
// has the whole segment's time to land rather than its last part (a
// fetch goroutine on a host whose cores all draw ids can wait tens of
// milliseconds to run). The step of that fetch comes from the rate of the
// whole segment before. A crash still loses at most the current and the
// prefetched segment.
package segment

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/numbers"
)

// Store keeps counters. A counter holds the last value taken (start-1
// when new); each store changes it atomically, with no duplicate under
// any concurrency: a locked file, a versioned znode write, an UPDATE …
// RETURNING. Every store implements it in its package's counter.go:
// dirstore, zkstore, pgstore, mysqlstore (UPDATE with LAST_INSERT_ID),
// redisstore (INCRBY in a script) and etcdstore (a transaction comparing
// the key's mod revision).
//
// A counter must never go back under a generator that holds its values
// (its file, row, key or node deleted, a store that lost or rolled back
// what it acknowledged): each Take carries the caller's high-water mark,
// and the store refuses, in the same atomic step and without creating or
// moving the counter, one that is missing while the mark is above 0 or
// that stands below the mark (WentBack's errs.ErrWorker).
type Store interface {
	// Take moves counter name up by n (creating it at start-1 if it is
	// missing and mark is 0) and returns the values taken: prev+1 .. last,
	// at most n, fewer only where INT64_MAX cuts the segment short. A
	// counter that stands at INT64_MAX is errs.ErrTimeOverflow. mark is
	// the highest value the caller may have handed out (0: none yet): a
	// counter missing while mark > 0, or standing below mark, is refused
	// with WentBack's error and left as it is.
	Take(ctx context.Context, name string, start, n, mark int64) (prev, last int64, err error)
	// GiveBack sets counter name from last down to to, only if it still
	// stands at last (nobody took a segment since); it reports whether it
	// did.
	GiveBack(ctx context.Context, name string, last, to int64) (bool, error)
	// Read returns the last value taken from counter name, moving
	// nothing; found is false when the store holds no such counter
	// (idgen leases).
	Read(ctx context.Context, name string) (last int64, found bool, err error)
	// Where names the store for messages, never with a password.
	Where() string
	// Close closes the store's connection.
	Close() error
}

// AutoTarget is how long step=auto sizes a segment to last.
const AutoTarget = time.Second

// Config is what a Counter takes besides its store.
type Config struct {
	Name    string
	Start   int64 // where a new counter begins (>= 1)
	Step    int64 // values per segment; with Auto, the first one's
	Auto    bool  // step=auto
	Min     int64 // step=auto bounds (defaults 1,000 and 10,000,000)
	Max     int64
	Padding int64         // percent: prefetch when fewer are left (1..99)
	MaxWait time.Duration // how long a caller waits for a segment
	// TakeTimeout bounds each store call (default 5 s).
	TakeTimeout time.Duration
	// Env replaces the Counter's time (nil: the real one). With a manual
	// Env (the simulator) the Counter runs no goroutine: a prefetch waits
	// for its owner's FetchStep, and a caller that outruns it takes the
	// next segment itself, sleeping on Env between tries.
	Env lease.Env
	// Periods, when set, makes the counter restart each period of the
	// store's clock (business numbers, period.go): each take is from
	// <Name>@<label>. The store must be a Clock.
	Periods numbers.Periods
	// Clock is the generator's clock in ns (nil: a MonoClock); business
	// numbers measure the store's clock against it.
	Clock clock.Clock
}

// seg is one segment: values lo .. lo+size-1; used is the offset of the
// next value, moved by one atomic add per call (it runs past size when
// callers overshoot; sealed marks a closed counter).
type seg struct {
	lo      int64
	size    int64
	trigger int64 // the offset whose taker starts the prefetch
	early   bool  // step=auto at the cap: trigger 0, whatever padding says
	used    atomic.Int64
	born    time.Time // when it became current (step=auto's rate)
	// business numbers (period.go): the counter taken from, its period,
	// and the time on Config.Clock from which no value is handed out.
	name  string
	per   *numbers.Period
	until int64
}

// sealed is set into used at close: every later add lands past size.
const sealed = int64(1) << 62

func newSeg(lo, size, padding int64) *seg {
	left := size * padding / 100
	return &seg{lo: lo, size: size, trigger: max(0, min(size-1, size-left))}
}

// Counter hands out the values of one counter. It is safe for concurrent
// use.
type Counter struct {
	cfg    Config
	store  Store
	env    lease.Env
	manual bool
	cur    atomic.Pointer[seg]
	done   atomic.Int64 // values of retired segments (stats)
	lost   atomic.Int64 // values reserved by a batch that failed: never handed out, never reissued
	takes  atomic.Int64 // segments taken from the store
	// mark is the high-water mark: the end of the last segment taken, or
	// after a give-back the value given back to. Every take carries it,
	// and the store refuses a counter below it (Store).
	mark atomic.Int64

	hand sync.Mutex // business numbers: a value's period check and its draw (NextIn)

	mu       sync.Mutex
	pre      *seg          // the prefetched segment, nil if none
	fetching bool          // a fetch goroutine runs
	ready    chan struct{} // closed (and replaced) when a fetch ends
	ended    error         // the counter is used up (sticky)
	lastErr  error         // the last store failure
	closed   bool
	step     int64 // the size of the next take
	// the last segment used up: its size and how long it was current
	// (step=auto's rate when a fetch starts before one can be read)
	lastSize int64
	lastLife time.Duration
	stop     chan struct{}
	periods  periodState                                      // business numbers (period.go)
	takeIn   func(ctx context.Context, n int64) (*seg, error) // business numbers' take, nil for a plain counter
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
}

// take runs one Take and makes its segment. A refusal is not sticky: a
// counter below the mark is refused at every take, and takes go on once
// an operator has restored it to at least the mark.
func (c *Counter) take(ctx context.Context, n int64) (*seg, error) {
	if c.takeIn != nil {
		return c.takeIn(ctx, n) // business numbers: period.go
	}
	mark := c.mark.Load()
	prev, last, err := c.store.Take(ctx, c.cfg.Name, c.cfg.Start, n, mark)
	if err == nil && prev < mark && lease.Mutant() != "segment-no-mark" { // a store that did not check: the backstop
		err = WentBack(c.store.Where(), c.cfg.Name, mark, prev, true, "")
	}
	if err != nil {
		return nil, c.takeFailed(c.cfg.Name, err)
	}
	c.takes.Add(1)
	c.mark.Store(max(mark, last))
	s := newSeg(prev+1, last-prev, c.cfg.Padding)
	if c.cfg.Auto && n >= c.cfg.Max {
		s.trigger, s.early = 0, true // at the cap: the next fetch starts at once
	}
	return s, nil
}

// takeFailed is the error of a take of counter name that failed.
func (c *Counter) takeFailed(name string, err error) error {
	if k := errs.KindOf(err); k == errs.ErrTimeOverflow || k == errs.ErrWorker || k == errs.ErrClockBackwards {
		return errs.Wrap(err, "segment counter %s", name)
	}
	return errs.New(errs.ErrWorker, "segment counter %s on %s: %v", name, c.store.Where(), err)
}
