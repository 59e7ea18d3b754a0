package gen

// Runs for a host that serves Next itself (the C library's idgen_next):
// the host asks for a run of ids in one step, hands them out without
// calling in, and gives back the tail it did not hand out. A run here is
// arithmetic (First, First+Step, ...), so a host keeps three numbers,
// never a list.

import "sync/atomic"

// HostRun is N ids: First, First+Step, ..., First+(N-1)*Step.
type HostRun struct {
	First, Step int64
	N           int
}

// Run kinds of a HostRunner.
const (
	RunsNone    = 0 // Next is not served from host runs
	RunsTimed   = 1 // a run's ids are handed out at most RunFreshNs after its reservation
	RunsUntimed = 2 // a run's ids may be handed out at any time (segments)
)

// HostRunner is a generator whose Next a host may serve from runs.
type HostRunner interface {
	// HostRunKind is RunsTimed, RunsUntimed, or RunsNone.
	HostRunKind() int
	// ReserveHost gives back tail (the unused end of the host's last run;
	// N 0: none) and reserves the next run of at most room ids, after
	// every id the generator handed out through any method.
	ReserveHost(tail HostRun, room int) (HostRun, error)
	// ReturnHost gives back tail before a call that reserves in Go (a
	// batch, a text id, a close): its ids are handed out next (segments)
	// or dropped (time).
	ReturnHost(tail HostRun)
	// SetHostHeld installs how many reserved ids the host holds or
	// dropped without handing out (stats count only ids handed out).
	SetHostHeld(f func() int64)
	// SetOnDrop installs what runs when the lease's fence drops (the
	// host stops handing out at once).
	SetOnDrop(f func())
}

// hostHeld is a generator's count of host-held ids (SetHostHeld).
type hostHeld struct{ f atomic.Pointer[func() int64] }

func (h *hostHeld) SetHostHeld(f func() int64) { h.f.Store(&f) }

func (h *hostHeld) held() int64 {
	if f := h.f.Load(); f != nil {
		return (*f)()
	}
	return 0
}
