package gen

// A segment counter's runs for a host (host_runs.go): a run is values of
// the current segment, with no age limit.

// HostRunKind: a segment counter's runs have no age limit.
func (g *segGen) HostRunKind() int {
	if g.c == nil {
		return RunsNone
	}
	return RunsUntimed
}

// ReserveHost takes the tail back (Unreserve) and reserves the next run:
// at most room values of the current segment.
func (g *segGen) ReserveHost(tail HostRun, room int) (HostRun, error) {
	g.ReturnHost(tail)
	first, got, err := g.c.Reserve(int64(max(room, 1)))
	if err != nil {
		return HostRun{}, err
	}
	return HostRun{First: first, Step: 1, N: int(got)}, nil
}

// ReturnHost puts tail back for the next calls; a tail that cannot go
// back (a value above it was drawn) is forfeited: a gap, never a repeat.
func (g *segGen) ReturnHost(tail HostRun) {
	if !g.c.Unreserve(tail.First, int64(tail.N)) {
		g.c.Forfeit(int64(tail.N))
	}
}

// SetOnDrop: a counter has no lease.
func (g *segGen) SetOnDrop(func()) {}
