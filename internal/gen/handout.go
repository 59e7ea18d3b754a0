package gen

// runs=N: Next hands out ids from runs reserved ahead in one step each,
// the same for a C, Java, Python or Go caller of the same configuration.
// A caller that pays a lot per call (a Python one) takes a whole run at
// once (NextRun) and hands its ids out itself until the run goes stale.

import (
	"sync"
	"sync/atomic"
	"time"
)

// RunFreshNs is how long after its reservation an id of a run may be
// handed out; ids of a run not handed out by then are dropped (never
// issued: a gap in the sequence).
const RunFreshNs = int64(time.Millisecond)

// heldRun is one reserved run: ids[next...] are still to be handed out,
// until the generator's clock leaves [filled, filled+RunFreshNs).
type heldRun struct {
	ids    []int64
	next   atomic.Int64
	filled int64
}

// fresh reports whether the run's ids may still be handed out at now (a
// clock that stepped back before filled counts as stale).
func (r *heldRun) fresh(now int64) bool {
	d := now - r.filled
	return d >= 0 && d < RunFreshNs
}

// runCache is a time generator's runs. Every reservation of the generator
// (a run, a batch) is made under mu, so that no run reserved before a
// batch is handed out after it: ids stay increasing for every caller,
// whatever method it used last.
type runCache struct {
	max     int
	cur     atomic.Pointer[heldRun] // nil: none held
	mu      sync.Mutex
	k       int   // the next run's length
	last    int64 // when the last run was reserved (its filled)
	dropped atomic.Int64
}

// nextFromRun is Next with runs: an id of the held run while it is fresh,
// else a new run.
func (g *timeGen) nextFromRun() (int64, error) {
	for {
		if r := g.runs.cur.Load(); r != nil && r.fresh(g.clock.Now()) {
			if i := r.next.Add(1) - 1; i < int64(len(r.ids)) {
				if g.state.Load()&closedBit != 0 {
					return -1, errClosed
				}
				return r.ids[i], nil
			}
		}
		if err := g.refill(); err != nil {
			return -1, err
		}
	}
}

// refill reserves a new run for Next unless another caller just did.
func (g *timeGen) refill() error {
	rc := g.runs
	rc.mu.Lock()
	defer rc.mu.Unlock()
	now := g.clock.Now()
	if r := rc.cur.Load(); r != nil && r.fresh(now) && r.next.Load() < int64(len(r.ids)) {
		return nil
	}
	r, err := g.reserveRun(now)
	if err != nil {
		return err
	}
	rc.cur.Store(r)
	return nil
}

// reserveRun drops the held run and reserves the next (holding mu): twice
// as long as the last if the caller came back for it while the last was
// fresh (it used the run up in time), half as long otherwise.
func (g *timeGen) reserveRun(now int64) (*heldRun, error) {
	rc := g.runs
	rc.drop()
	if d := now - rc.last; d >= 0 && d < RunFreshNs {
		rc.k = min(rc.k*2, rc.max)
	} else {
		rc.k = max(rc.k/2, 1)
	}
	ids := make([]int64, rc.k)
	if err := g.nextBatch(ids); err != nil {
		return nil, err
	}
	r := &heldRun{ids: ids, filled: g.clock.Now()}
	rc.last = r.filled
	return r, nil
}

// drop forgets the held run (holding mu), counting the ids it leaves
// unissued.
func (rc *runCache) drop() {
	if r := rc.cur.Swap(nil); r != nil {
		if left := int64(len(r.ids)) - r.next.Load(); left > 0 {
			rc.dropped.Add(left)
		}
	}
}

// unissued is how many reserved ids were not handed out: those dropped
// and those the held run still has.
func (rc *runCache) unissued() int64 {
	n := rc.dropped.Load()
	if r := rc.cur.Load(); r != nil {
		n += max(int64(len(r.ids))-r.next.Load(), 0)
	}
	return n
}

// NextRun hands a whole run to a caller that hands its ids out itself: it
// writes the run's ids to out (at most len(out)) and returns how many, and
// for how many more ns they may be handed out (then the rest must be
// dropped). Only for a generator with runs (HasRuns).
func (g *timeGen) NextRun(out []int64) (int, int64, error) {
	if len(out) == 0 {
		return 0, 0, nil
	}
	rc := g.runs
	rc.mu.Lock()
	defer rc.mu.Unlock()
	r, err := g.reserveRun(g.clock.Now())
	if err != nil {
		return 0, 0, err
	}
	n := copy(out, r.ids)
	rc.dropped.Add(int64(len(r.ids) - n))
	// At least 1 ns: 0 says the generator has no runs.
	return n, max(r.filled+RunFreshNs-g.clock.Now(), 1), nil
}

// HasRuns reports whether g was configured with runs=N (N > 1).
func (g *timeGen) HasRuns() bool { return g.runs != nil }

// Longest is the longest run g hands out (N of runs=N).
func (g *timeGen) Longest() int { return g.runs.max }

// RunNexter is a generator that may hand whole runs out (NextRun), when
// HasRuns says so.
type RunNexter interface {
	HasRuns() bool
	Longest() int
	NextRun(out []int64) (n int, freshNs int64, err error)
}
