package gen

// A time generator's runs for a host (host_runs.go): with runs=N only.

// HostRunKind: a time generator serves runs with runs=N only.
func (g *timeGen) HostRunKind() int {
	if g.runs == nil {
		return RunsNone
	}
	return RunsTimed
}

// ReserveHost is reserveRun for a host: one reservation (one tick), its
// length grown and shrunk as reserveRun's.
func (g *timeGen) ReserveHost(tail HostRun, room int) (HostRun, error) {
	rc := g.runs
	rc.mu.Lock()
	defer rc.mu.Unlock()
	rc.dropped.Add(int64(tail.N))
	rc.drop()
	rc.resize(g.clock.Now())
	r, err := g.reserve(uint64(max(min(rc.k, room), 1)))
	if err != nil {
		return HostRun{}, err
	}
	rc.last = g.clock.Now()
	return HostRun{First: g.compose(r.tick, r.first, r.fixed), Step: 1 << g.seqShift, N: int(r.n)}, nil
}

// ReturnHost: a time run's tail is dropped (a gap, as with Next's runs).
func (g *timeGen) ReturnHost(tail HostRun) { g.runs.dropped.Add(int64(tail.N)) }

// SetOnDrop: the lease's fence drops.
func (g *timeGen) SetOnDrop(f func()) {
	if g.lm != nil {
		g.lm.onDrop.Store(&f)
	}
}
