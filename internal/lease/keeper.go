package lease

// The Keeper: the one implementation of taking a pair (preferring pairs
// whose record is behind the clock, waiting for a predecessor, rollback
// eras, switch), holding it (renewals off the hot path, the fence),
// riding out store outages and leasing again after a loss. Generators
// give it only an Issuer.

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idgen/idgen/internal/errs"
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
}

// Fence is the highest value the generator may issue under this lease.
func (l *Lease) Fence() int64 {
	if mutant == "past-fence" {
		return math.MaxInt64
	}
	return l.fence.Load()
}

// Claim is the store's claim under the lease (the simulator's checker
// reads its token).
func (l *Lease) Claim() Claim { return l.claim }

// Where names the lease for messages.
func (l *Lease) Where() string { return l.claim.Where() }

// Extend makes the fence reach v, renewing at once when the Keeper holds
// and its store answers (the background renewal is late); while the store
// is out of reach or the lease was taken away, it fails at once with
// errs.ErrWorker, the Keeper retrying in the background.
func (l *Lease) Extend(v int64) error {
	if v <= l.fence.Load() {
		return nil
	}
	return l.k.extend(l, v)
}

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

// Take acquires a pair for iss and takes it over: waiting for the
// predecessor's record (or applying the rollback policy), writing the
// first fence before any id, and adopting it. Everything taken is given
// back on failure; the store stays open (the caller owns it).
func Take(store Store, cfg Config, iss Issuer) (*Keeper, error) {
	if cfg.Env == nil {
		cfg.Env = RealEnv
	}
	k := &Keeper{cfg: cfg, env: cfg.Env, store: store, iss: iss, holder: rand.Int64N(math.MaxInt64) + 1}
	k.st.RenewedUnixMs = -1
	k.skew.Store(skewUnknown)
	if err := k.checkSkew(); err != nil {
		return nil, err
	}
	k.mu.Lock()
	err := k.leaseLocked(nil)
	k.publishLocked()
	k.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if !k.env.Manual() {
		k.stop, k.done = make(chan struct{}), make(chan struct{})
		go k.loop()
	}
	return k, nil
}

// Current is the lease the generator issues under now.
func (k *Keeper) Current() *Lease { return k.cur.Load() }

// Switched is the pair on_clock_back=switch gave up, if any.
func (k *Keeper) Switched() (Pair, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.switched == nil {
		return Pair{}, false
	}
	return *k.switched, true
}

func (k *Keeper) loop() {
	defer close(k.done)
	t := time.NewTimer(k.cfg.TTL / 3)
	defer t.Stop()
	for {
		select {
		case <-k.stop:
			return
		case <-t.C:
		}
		t.Reset(k.Step())
	}
}

// Step does what is due: renew the held pair, or lease again after a
// loss. It returns how long until the next step. The Keeper's goroutine
// calls it in production; the simulator calls it directly.
func (k *Keeper) Step() time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		return time.Hour
	}
	retry := max(k.cfg.TTL/10, time.Millisecond)
	if k.gone != nil {
		if err := k.leaseLocked(k.cur.Load()); err != nil {
			return retry
		}
		return k.cfg.TTL / 3
	}
	if err := k.renewLocked(k.cur.Load(), k.nextFence()); err != nil {
		return retry
	}
	_, _, _, _ = k.measureSkew(k.cfg.TTL / 3) // reported only: an error leaves the last estimate
	return k.cfg.TTL / 3
}

// extend is Lease.Extend's slow lane.
func (k *Keeper) extend(l *Lease, v int64) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if v <= l.fence.Load() {
		return nil
	}
	if k.failing != nil && k.env.Now().Sub(k.tried) < max(k.cfg.TTL/10, time.Millisecond) {
		return k.unusableLocked(l) // the store was tried a moment ago
	}
	if k.closed || k.gone != nil || l != k.cur.Load() {
		return k.unusableLocked(l)
	}
	if err := k.renewLocked(l, max(v, k.nextFence())); err != nil {
		if u := k.unusableLocked(l); u != nil {
			return u
		}
		return err
	}
	if v > l.fence.Load() {
		return errs.New(errs.ErrWorker, "lease %s: the fence did not move", l.Where())
	}
	return nil
}

// unusableLocked says why l cannot be extended now, or nil.
func (k *Keeper) unusableLocked(l *Lease) error {
	switch {
	case k.closed:
		return errs.New(errs.ErrClosed, "the generator is closed")
	case l != k.cur.Load() || k.gone != nil:
		return errs.New(errs.ErrWorker, "lease lost: %s: %v (since %s); leasing again", l.Where(), k.gone, k.ackedAt.UTC().Format(time.RFC3339))
	case k.failing != nil:
		return errs.New(errs.ErrWorker, "lease lost for now: %s: the store has not answered since %s, so nothing is issued past the fence at %s: %v",
			l.Where(), k.ackedAt.UTC().Format(time.RFC3339), fmtMs(k.iss.UnixMs(l.fence.Load())), k.failing)
	}
	return nil
}

// renewLocked writes fence v (never below the acknowledged one) for l and
// publishes it once acknowledged. A failure leaves the fence standing
// (riding out the outage); a claim the store no longer grants makes the
// Keeper lease again at its next step.
func (k *Keeper) renewLocked(l *Lease, v int64) error {
	rec := Record{IssuedUpTo: max(v, k.acked.IssuedUpTo), Backwards: k.acked.Backwards, Holder: k.holder}
	if err := k.writeLocked(l, rec); err != nil {
		return err
	}
	return nil
}

// writeLocked sends rec for l and publishes it once acknowledged.
func (k *Keeper) writeLocked(l *Lease, rec Record) error {
	sent := k.env.Now()
	k.tried = sent
	if len(k.pending) < 16 { // the first writes after the last answer are the ones a client may have queued
		k.pending = append(k.pending, rec)
	}
	ctx, cancel := context.WithTimeout(context.Background(), k.cfg.TTL/3)
	err := l.claim.Renew(ctx, rec)
	cancel()
	defer k.publishLocked()
	switch {
	case err == nil:
		k.acked, k.ackedAt, k.failing, k.pending = rec, sent, nil, k.pending[:0]
		k.st.Renewals++
		k.st.RenewedUnixMs = time.Now().UnixMilli()
		l.fence.Store(rec.IssuedUpTo)
		return nil
	case errors.Is(err, ErrGone):
		if mutant != "own-by-value" {
			k.pending = k.pending[:max(len(k.pending)-1, 0)] // answered: it did not land
		}
		// Lease again at the next step. Meanwhile the last acknowledged
		// fence still bounds this holder: any taker of the pair issues
		// above the record, which is at or above it. A record that was
		// removed bounds nothing: stop at once.
		k.st.RenewalFailures++
		k.gone = err
		if errors.Is(err, ErrRemoved) {
			l.fence.Store(math.MinInt64)
		}
		return errs.New(errs.ErrWorker, "lease lost: %s: %v", l.Where(), err)
	}
	k.st.RenewalFailures++
	k.failing = err
	return errs.New(errs.ErrWorker, "lease %s: cannot renew, riding out to the fence: %v", l.Where(), err)
}

// nextFence is the fence a renewal writes.
func (k *Keeper) nextFence() int64 {
	if mutant == "fence-ttl" {
		return k.iss.NextFence() - int64(k.cfg.MaxOutage-k.cfg.TTL) // wrong units on purpose: a fence short of max_outage
	}
	return k.iss.NextFence()
}

// NewEra writes a record with rollback counter era and fence v at once, v
// below the last fence if need be (the wall clock stepped back in a
// running generator); it returns once the store acknowledged it.
func (k *Keeper) NewEra(era, v int64) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	l := k.cur.Load()
	if err := k.unusableLocked(l); err != nil {
		return err
	}
	if err := k.writeLocked(l, Record{IssuedUpTo: v, Backwards: era, Holder: k.holder}); err != nil {
		return errs.New(errs.ErrWorker, "lease %s: cannot record the new rollback counter %d, so the generator stays in its era: %v", l.Where(), era, err)
	}
	return nil
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

// Close stops renewing and releases the pair, writing the real last value
// (so a clean restart need not wait). Closing twice is harmless.
func (k *Keeper) Close() error {
	k.mu.Lock()
	if k.closed {
		k.mu.Unlock()
		return nil
	}
	k.closed = true
	k.publishLocked()
	k.mu.Unlock()
	if k.stop != nil {
		close(k.stop)
		<-k.done
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	l := k.cur.Load()
	l.fence.Store(-1 << 63)
	ctx, cancel := context.WithTimeout(context.Background(), k.cfg.TTL)
	defer cancel()
	rec := Record{Backwards: k.acked.Backwards, Holder: k.holder}
	rec.IssuedUpTo, rec.Seq = k.iss.Last()
	if !after(rec.IssuedUpTo, rec.Seq, k.floor, k.floorSeq) {
		rec.IssuedUpTo, rec.Seq = k.floor, k.floorSeq
	}
	if k.gone != nil {
		_ = l.claim.Abandon(ctx)
		return nil
	}
	if err := l.claim.Release(ctx, rec); err != nil && k.failing == nil {
		return errs.New(errs.ErrWorker, "lease %s: cannot release: %v", l.Where(), err)
	}
	return nil
}
