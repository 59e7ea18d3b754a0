package lease

// The Keeper: the one implementation of taking a pair (preferring pairs
// whose record is behind the clock, waiting for a predecessor, rollback
// eras, switch), holding it (renewals off the hot path, the fence),
// riding out store outages and leasing again after a loss. Generators
// give it only an Issuer.

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idgen/idgen/internal/clock"
)

// Issuer is what a generator tells its Keeper, in the generator's own
// terms (a tick, a session counter, a zxid epoch).
type Issuer interface {
	// Until is how long the generator's clock needs to pass v; 0 once it
	// has. A counter, which starts above any value at once, says 0.
	Until(v int64) time.Duration
	// LostFloor is the floor to assume for a pair whose record was lost:
	// above everything a holder of the pool may have issued (a time
	// generator: its next fence, which it then waits for). A clockless
	// counter has none (false): no wait can pass a lost record.
	LostFloor() (int64, bool)
	// Adopt makes every later id of the generator lie above floor (or, when
	// seq > 0, at sequence seq or above in value floor) and above every id
	// it issued, on lease l, in rollback era era (newEra: the era starts
	// now, below the record). It fails once closed.
	Adopt(l *Lease, floor, seq, era int64, newEra bool) error
	// NextFence is the fence a renewal writes now: the generator's "now +
	// max_outage" (plus its max_drift when it borrows).
	NextFence() int64
	// Last is the real last value issued, written by a clean release, and
	// the first sequence of it not issued (0: none left, or no sequence).
	Last() (v, seq int64)
	// UnixMs is the time of value v in ms since 1970; -1 if it has none.
	UnixMs(v int64) int64
	// Now is the generator's clock in ms since 1970 (messages).
	Now() int64
}

// Rollback is what a taker does with a record ahead of its clock.
type Rollback struct {
	// MaxWait is how long a taker waits for its clock to pass a record.
	MaxWait time.Duration
	// Waits are the on_clock_back wait:<d> steps: a record up to d ahead
	// is waited for, even past MaxWait.
	Waits []time.Duration
	// Eras is the largest rollback counter of the layout; 0 without one.
	Eras int64
	// Switch takes another pair rather than fail (on_clock_back=switch).
	Switch bool
	// Policy is on_clock_back as written, for messages.
	Policy string
}

// Config is what a Keeper needs besides its store and generator.
type Config struct {
	Pool Pool
	// DC fixes the datacenter; -1 leases it with the worker.
	DC int64
	// TTL is how long the store keeps the pair of a silent holder;
	// MaxOutage is how far ahead the fence runs.
	TTL, MaxOutage time.Duration
	Rollback       Rollback
	// Env is the Keeper's time; nil is the real one.
	Env Env
	// MaxSkew, when positive, refuses to take anything from a store whose
	// clock is further from the generator's (max_skew); the skew is
	// measured (a store that is Clocked) at Take and after each renewal.
	MaxSkew time.Duration
	// OnDrop, when set, is called each time a fence drops (the lease lost,
	// taken away, replaced or closed), after the drop: a host that hands
	// out ids of runs reserved under the fence stops at once. It runs
	// under the Keeper's lock: it must not call back into the generator.
	OnDrop func()
}

// Env is the time a Keeper lives in: the real one in production, a
// simulated one under the simulator, which also calls Step itself.
type Env interface {
	// Now is a monotonic reading (deadlines, the renewal time).
	Now() time.Time
	// Sleep waits d.
	Sleep(d time.Duration)
	// Manual says the Keeper runs no goroutine: its owner calls Step.
	Manual() bool
}

type realEnv struct{}

func (realEnv) Now() time.Time        { return time.Now() }
func (realEnv) Sleep(d time.Duration) { time.Sleep(d) }
func (realEnv) Manual() bool          { return false }

// TakeContexter is an Env that can also stop a take's round trip to the
// store (an open a context stops): TakeContext is the context the
// Keeper's Acquire runs under (nil: none). Only the claim's acquiring
// uses it; what gives a claim back runs to its own deadline.
type TakeContexter interface {
	TakeContext() context.Context
}

// RealEnv is the production Env.
var RealEnv Env = realEnv{}

// States of a lease, as idgen_stats reports them.
const (
	StateNone   = 0 // no lease
	StateHeld   = 1 // the last renewal was acknowledged
	StateRiding = 2 // the store does not answer: issuing up to the fence
	StateLost   = 3 // past the fence or taken away: nothing is issued
)

// Lease is one held pair as a generator uses it: its fence on the hot
// path (one atomic load), and Extend on the slow lane.
type Lease struct {
	Pair  Pair
	claim Claim
	k     *Keeper
	fence atomic.Int64 // the last acknowledged fence of this claim
	// lostFloor: the floor adopted with the pair was the Issuer's
	// LostFloor (the record was missing), not a value a record held.
	lostFloor bool
	// lossy: the store may lose the record without a trace (Lossy).
	lossy bool
}

// CapFromRecord says whether a generator whose ids may run ahead of its
// clock (a session counter) may run its fence cap from the record it
// started above, when that record is ahead of the clock: not above a floor
// assumed for a lost record, and not on a store that may lose the record
// without a trace (Lossy), where a taker finding it gone assumes no more
// than the holder's clock + max_outage.
func (l *Lease) CapFromRecord() bool { return !l.lostFloor && !l.lossy }

// Fence is the highest value the generator may issue under this lease.
func (l *Lease) Fence() int64 {
	if mutant == "past-fence" {
		return math.MaxInt64
	}
	return l.fence.Load()
}

// drop stops the lease at once: nothing is issued under it any more.
func (l *Lease) drop() {
	l.fence.Store(math.MinInt64)
	if f := l.k.cfg.OnDrop; f != nil {
		f()
	}
}

// Claim is the store's claim under the lease (the simulator's checker
// reads its token).
func (l *Lease) Claim() Claim { return l.claim }

// Where names the lease for messages.
func (l *Lease) Where() string { return l.claim.Where() }

// Keeper holds one pair of a pool for one generator.
type Keeper struct {
	cfg   Config
	env   Env
	store Store
	iss   Issuer

	mu       sync.Mutex // serialises store calls and the fields below
	cur      atomic.Pointer[Lease]
	acked    Record    // the last record the store acknowledged for cur
	pending  []Record  // records sent since, unacknowledged: one may have landed
	floor    int64     // cur's predecessor's record: a release never writes below it
	floorSeq int64     // and its Seq
	holder   int64     // this Keeper's Record.Holder: random, never 0
	ackedAt  time.Time // when the renewal acknowledged last was sent
	failing  error     // the last renewal's error while riding; nil when held
	tried    time.Time // when a renewal was last sent
	gone     error     // cur was taken away: the Keeper leases again
	switched *Pair     // the pair on_clock_back=switch gave up
	closed   bool
	st       Stats                 // counters, changed under mu
	snap     atomic.Pointer[Stats] // st and the state as of the last change: Stats never waits for a store call
	skew     atomic.Int64          // the generator's clock minus the store's, ms; skewUnknown if unknown
	stop     chan struct{}
	done     chan struct{}

	// poolReach is the pool's largest reach, as its store last said
	// (reach.go), under mu.
	poolReach time.Duration
}

// Stats are the Keeper's counters and state for idgen_stats.
type Stats struct {
	State           int
	Pair            Pair
	FenceUnixMs     int64
	RenewedUnixMs   int64
	Renewals        int64
	RenewalFailures int64
	LeasesTaken     int64
	SkewMs          int64 // the generator's clock minus the store's (ms); math.MinInt64 if unknown
}

// Current is the lease the generator issues under now.
func (k *Keeper) Current() *Lease { return k.cur.Load() }

// nextFence is the fence a renewal writes.
func (k *Keeper) nextFence() int64 {
	if mutant == "fence-ttl" {
		return k.iss.NextFence() - int64(k.cfg.MaxOutage-k.cfg.TTL) // wrong units on purpose: a fence short of max_outage
	}
	return k.iss.NextFence()
}

// publishLocked makes the counters and the state readable without the
// lock, which a store call may hold for a renewal's whole timeout.
func (k *Keeper) publishLocked() {
	s := k.st
	switch {
	case k.closed:
		s.State = StateNone
	case k.failing != nil || k.gone != nil:
		s.State = StateRiding // LOST once the clock passes the fence: see Stats
	default:
		s.State = StateHeld
	}
	k.snap.Store(&s)
}

// Stats reports the state and counters; it takes no lock, so a scrape
// during a store outage answers at once.
func (k *Keeper) Stats() Stats {
	s := *k.snap.Load()
	s.SkewMs = k.skew.Load()
	l := k.cur.Load()
	s.Pair = l.Pair
	f := l.fence.Load()
	s.FenceUnixMs = k.iss.UnixMs(f)
	if s.State == StateRiding && k.iss.Until(f) == 0 {
		s.State = StateLost
	}
	return s
}

// fmtMs prints a value's time for a message; a value without one (-1)
// says so.
func fmtMs(ms int64) string {
	if ms == -1 {
		return "(no time)"
	}
	return clock.FormatMs(ms)
}
