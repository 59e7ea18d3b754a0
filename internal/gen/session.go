package gen

import (
	"sync/atomic"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
)

// session is ZooKeeper's session-id generator (preset zk-session):
// worker<<56 | (time at opening in ms, low 40 bits)<<16, then +1 per id,
// the sequence carrying into the time bits.
//
//   - Sequence exhaustion: none; the counter carries into the time bits,
//     as ZooKeeper's does, so ids may run ahead of the clock.
//   - Clock regression: the time is read once, at opening; a lease makes a
//     restarted holder start above everything its predecessor issued.
//   - Overflow: when the counter would carry into the worker bits, every
//     call fails with ErrTimeOverflow.
type session struct {
	*shape
	state     atomic.Uint64 // the next counter value to issue; closedBit when closed
	high      int64         // the worker bits without a lease
	max       uint64        // the largest counter value
	seqBits   uint
	lm        *leaser
	cfgString string
}

func newSession(sh *shape, lm *leaser) (*session, error) {
	c := sh.cfg
	tf, _ := c.Layout.Field(layout.FieldTime)
	sf, _ := c.Layout.Field(layout.FieldSeq)
	g := &session{
		shape:   sh,
		high:    c.Layout.Put(layout.FieldWorker, c.Worker),
		max:     uint64(1)<<(tf.Width+sf.Width) - 1,
		seqBits: sf.Width,
		lm:      lm,
	}
	if sh.clock.Now()/int64(time.Millisecond) < c.EpochMs {
		return nil, errs.Key("epoch", "%s is in the future", fmtTime(c.EpochMs))
	}
	g.state.Store(g.counterAt(sh.clock.Now()))
	if lm != nil {
		h, err := g.take(lm.first)
		if err != nil {
			return nil, err
		}
		lm.start(h, g.take, func(p lease.Pair, _ lease.Record) bool { return p.Worker < g.lm.hold.Load().pair.Worker })
	}
	g.cfgString = c.String()
	return g, nil
}

// counterAt is the counter of a session opened at ns: its time in the
// layout's unit, low bits only, followed by a zero sequence.
func (g *session) counterAt(ns int64) uint64 {
	tf, _ := g.cfg.Layout.Field(layout.FieldTime)
	tick := uint64((ns/int64(time.Millisecond)-g.cfg.EpochMs)/g.unitMs()) & uint64(tf.Max())
	return tick << g.seqBits
}

// maxHigh caps the counter so that worker bits plus counter stay below
// bit 63.
func (g *session) limit(high int64) uint64 {
	if high != 0 && uint64(high)+g.max > uint64(1)<<63-1 {
		return uint64(1)<<63 - 1 - uint64(high)
	}
	return g.max
}

// take takes a claim over: the counter starts above the predecessor's
// record (and above everything issued so far), then the first fence is
// written.
func (g *session) take(c lease.Claim) (*holding, error) {
	rec, state := c.Predecessor()
	start := g.counterAt(g.clock.Now())
	switch state {
	case lease.Present:
		if rec.IssuedUpTo >= 0 && uint64(rec.IssuedUpTo) >= start {
			start = uint64(rec.IssuedUpTo) + 1
		}
	case lease.Missing:
		// A holder whose file was removed may live on until its next
		// renewal: wait one lease_ttl, once, and start above that time.
		time.Sleep(g.cfg.LeaseTTL)
		start = max(start, g.counterAt(g.clock.Now()))
	}
	p := c.Pair()
	for {
		old := g.state.Load()
		if old&closedBit != 0 {
			return nil, errClosed
		}
		if g.lm != nil && g.lm.hold.Load() != nil && p.Worker == g.lm.hold.Load().pair.Worker {
			start = max(start, old) // the same pair again: keep counting up
		}
		h, err := lease.Hold(c, g.cfg.LeaseTTL, lease.Record{IssuedUpTo: int64(start) + g.ahead(), Backwards: rec.Backwards})
		if err != nil {
			return nil, err
		}
		if g.state.CompareAndSwap(old, start) {
			h.Start(func() int64 { return int64(g.state.Load()&^closedBit) + g.ahead() })
			return &holding{h: h, pair: p, fixed: g.cfg.Layout.Put(layout.FieldWorker, p.Worker)}, nil
		}
		_ = h.Release(int64(start) + g.ahead())
		return nil, errs.New(errs.ErrWorker, "lease %s: the generator moved while it was taken over", c.Where())
	}
}

// ahead is how far the fence runs in front of the counter: one lease_ttl
// of ids at the layout's nominal rate.
func (g *session) ahead() int64 {
	return config.CeilTicks(g.cfg.LeaseTTL, g.cfg.Unit) << g.seqBits
}

func (g *session) reserve(n uint64) (uint64, uint64, int64, error) {
	for {
		h, high := g.lm.current(g.high)
		old := g.state.Load()
		if old&closedBit != 0 {
			return 0, 0, 0, errClosed
		}
		limit := g.limit(high)
		if old > limit {
			return 0, 0, 0, errs.New(errs.ErrTimeOverflow, "session ids of this worker are used up: the counter would carry into the worker bits")
		}
		got := min(n, limit-old+1)
		if err := fence(h, int64(old+got-1), &g.state); err != nil {
			return 0, 0, 0, err
		}
		if g.state.CompareAndSwap(old, old+got) {
			return old, got, high, nil
		}
	}
}

// Next returns the next session id.
func (g *session) Next() (int64, error) {
	c, _, high, err := g.reserve(1)
	if err != nil {
		return -1, err
	}
	return high | int64(c), nil
}

// NextBatch fills out with consecutive session ids.
func (g *session) NextBatch(out []int64) error {
	return fillRuns(out, func(n uint64) (int64, uint64, error) {
		c, got, high, err := g.reserve(n)
		return high | int64(c), got, err
	})
}

// Config is the resolved configuration.
func (g *session) Config() string {
	if g.lm != nil {
		return g.lm.config()
	}
	return g.cfgString
}

// LastValue is the last counter value issued.
func (g *session) LastValue() int64 { return int64(g.state.Load()&^closedBit) - 1 }

// Close marks the generator closed and records the last counter value.
func (g *session) Close() error {
	if !closeState(&g.state) {
		return nil
	}
	g.stopClock()
	if g.lm != nil {
		return g.lm.close(g.LastValue())
	}
	return nil
}

// fillRuns fills out with runs of consecutive ids, each run reserved in
// one step by reserve (its first id and length).
func fillRuns(out []int64, reserve func(n uint64) (int64, uint64, error)) error {
	for i := 0; i < len(out); {
		first, got, err := reserve(uint64(len(out) - i))
		if err != nil {
			return err
		}
		run := out[i : i+int(got)]
		for k := range run {
			run[k] = first + int64(k)
		}
		i += int(got)
	}
	return nil
}

// closeState sets the closed bit; it reports whether this call did.
func closeState(s *atomic.Uint64) bool {
	for {
		old := s.Load()
		if old&closedBit != 0 {
			return false
		}
		if s.CompareAndSwap(old, old|closedBit) {
			return true
		}
	}
}
