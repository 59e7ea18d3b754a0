package gen

// runs=N: Next hands out ids from runs reserved ahead in one step each,
// the same for a C, Java, Python or Go caller of the same configuration.
// A caller that pays a lot per call (a Python one) takes a whole run at
// once (NextRun) and hands its ids out itself until the run goes stale.

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
	r, err := g.reserveRun(now, rc.max)
	if err != nil {
		return err
	}
	rc.cur.Store(r)
	return nil
}

// reserveRun drops the held run and reserves the next (holding mu): twice
// as long as the last if the caller came back for it while the last was
// fresh (it used the run up in time), half as long otherwise; never more
// than room ids (a caller's buffer: what it cannot take is not reserved).
func (g *timeGen) reserveRun(now int64, room int) (*heldRun, error) {
	rc := g.runs
	rc.drop()
	rc.resize(now)
	ids := make([]int64, min(rc.k, room))
	if err := g.nextBatch(ids); err != nil {
		return nil, err
	}
	r := &heldRun{ids: ids, filled: g.clock.Now()}
	rc.last = r.filled
	return r, nil
}

// NextRun hands a whole run to a caller that hands its ids out itself: it
// writes the run's ids to out (at most len(out)) and returns how many, and
// for how many more ns they may be handed out (then the rest must be
// dropped). Only for a generator with runs (Longest > 1).
func (g *timeGen) NextRun(out []int64) (int, int64, error) {
	if len(out) == 0 {
		return 0, 0, nil
	}
	rc := g.runs
	rc.mu.Lock()
	defer rc.mu.Unlock()
	r, err := g.reserveRun(g.clock.Now(), len(out))
	if err != nil {
		return 0, 0, err
	}
	n := copy(out, r.ids)
	// At least 1 ns: 0 says the generator has no runs.
	return n, max(r.filled+RunFreshNs-g.clock.Now(), 1), nil
}

// Longest is the longest run g hands out: N of runs=N, 1 without runs.
func (g *timeGen) Longest() int {
	if g.runs == nil {
		return 1
	}
	return g.runs.max
}

// RunNexter is a generator that may hand whole runs out (NextRun), when
// its Longest is more than 1.
type RunNexter interface {
	Longest() int
	NextRun(out []int64) (n int, freshNs int64, err error)
}
