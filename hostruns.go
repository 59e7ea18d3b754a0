package idgen

import "github.com/idgen/idgen/internal/gen"

// Runs for a host that serves Next below Go: the C library hands out
// idgen_next's ids from runs it reserves here, calling into Go once per
// run. Other hosts need none of this.

// HostRun is N ids: First, First+Step, ..., First+(N-1)*Step.
type HostRun = gen.HostRun

// RunKind says whether and how a host may serve a generator's Next from
// runs.
type RunKind int

const (
	RunsNone    RunKind = gen.RunsNone    // Next is not served from runs
	RunsTimed   RunKind = gen.RunsTimed   // runs=N: a run's ids are handed out at most 1 ms after its reservation
	RunsUntimed RunKind = gen.RunsUntimed // segments: a run's ids may be handed out at any time
)

// HostRunKind says whether a host may serve g's Next from runs.
func (g *Generator) HostRunKind() RunKind {
	if h, ok := g.g.(gen.HostRunner); ok && !g.closed.Load() {
		return RunKind(h.HostRunKind())
	}
	return RunsNone
}

// hostRunner is g's HostRunner; nil when it has none or is closed.
func (g *Generator) hostRunner() gen.HostRunner {
	if g.HostRunKind() == RunsNone {
		return nil
	}
	return g.g.(gen.HostRunner)
}

// ReserveHost gives back tail, the unused end of the host's last run (N
// 0: none), and reserves the next run of at most room ids, after every id
// g handed out through any method. A host that holds a run must give its
// tail back (here, or ReturnHost) before any other call that issues ids,
// so that every id follows those handed out before.
func (g *Generator) ReserveHost(tail HostRun, room int) (HostRun, error) {
	h := g.hostRunner()
	if h == nil {
		return HostRun{}, errClosed
	}
	return h.ReserveHost(tail, room)
}

// ReturnHost gives back tail: a segment's values are handed out next, a
// time run's ids are dropped.
func (g *Generator) ReturnHost(tail HostRun) {
	if h, ok := g.g.(gen.HostRunner); ok && tail.N > 0 {
		h.ReturnHost(tail)
	}
}

// SetHostHeld installs f, the number of ids the host reserved and has not
// handed out (held or dropped): Stats and the metrics count only ids
// handed out.
func (g *Generator) SetHostHeld(f func() int64) {
	if h, ok := g.g.(gen.HostRunner); ok {
		h.SetHostHeld(f)
	}
}

// SetOnDrop installs f, called when g's lease fence drops (lost, taken
// away, closed): the host stops handing out ids of its runs at once. f
// runs under the lease's lock and must not call g.
func (g *Generator) SetOnDrop(f func()) {
	if h, ok := g.g.(gen.HostRunner); ok {
		h.SetOnDrop(f)
	}
}

// The default generator's runs, for a host that serves NextID itself the
// same way. Configure replaces the default: a host gives its tail back
// before it calls Configure, and asks DefaultRuns again after.

// DefaultRuns builds the default generator if it is not built yet, says
// whether a host may serve NextID from runs, and installs held and drop
// on it as SetHostHeld and SetOnDrop do.
func DefaultRuns(held func() int64, drop func()) (RunKind, error) {
	h, err := defaultRunner()
	if h == nil {
		return RunsNone, err
	}
	h.SetHostHeld(held)
	h.SetOnDrop(drop)
	return RunKind(h.HostRunKind()), nil
}

// ReserveDefaultHost is ReserveHost on the default generator.
func ReserveDefaultHost(tail HostRun, room int) (HostRun, error) {
	h, err := defaultRunner()
	if h == nil {
		if err == nil {
			err = errClosed // replaced by one without runs: the host asks DefaultRuns again
		}
		return HostRun{}, err
	}
	return h.ReserveHost(tail, room)
}

// defaultRunner is the default generator (built if need be) when a host
// may serve it from runs; nil otherwise, with the error of a failed build.
func defaultRunner() (gen.HostRunner, error) {
	g, err := gen.Default()
	if err != nil {
		return nil, err
	}
	if h, ok := g.(gen.HostRunner); ok && h.HostRunKind() != gen.RunsNone {
		return h, nil
	}
	return nil, nil
}

// ReturnDefaultHost is ReturnHost on the default generator (building
// none: a tail was reserved from one that exists).
func ReturnDefaultHost(tail HostRun) {
	if g, ok := gen.Built(); ok && tail.N > 0 {
		if h, ok := g.(gen.HostRunner); ok {
			h.ReturnHost(tail)
		}
	}
}
