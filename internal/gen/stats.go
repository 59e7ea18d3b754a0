package gen

import (
	"math"
	"sync"
	"sync/atomic"

	"github.com/idgen/idgen/internal/lease"
)

// Stats is what idgen_stats reports of a generator: its lease's state and
// pair, the fence, renewals, and its counters.
type Stats struct {
	Issued          int64 // ids handed out
	TickWaits       int64 // calls that waited for the next tick
	ClockBacks      int64 // steps back of the clock handled
	DriftMs         int64 // how far the newest id's time runs ahead of the clock
	LeaseState      int64 // lease.State*
	Datacenter      int64 // the pair held now, or the fixed one; -1 where none
	Worker          int64
	FenceUnixMs     int64 // -1 without a lease (or without a time)
	RenewedUnixMs   int64 // -1 if none
	Renewals        int64
	RenewalFailures int64
	LeasesTaken     int64
	SkewMs          int64 // this host's clock minus the store's; math.MinInt64 if unknown
	SegmentLeft     int64 // -1: not a segment generator
}

// tally counts the ids a generator issued from the moves of its state
// word, without an atomic add on the hot path: issued = base + v(state),
// where v is what the state says about its own ids (the sequence number
// + 1 in a tick; the counter itself), and a move that issues k ids
// changes base only when v does not move by k (a new tick, a jump over a
// predecessor's record, an epoch rolled over) — once a tick, not once an
// id.
//
// The count is a Prometheus counter: it must never go down. A reader that
// saw a new tick's word with the old base (or the other way round) would
// see it drop by up to a tick's sequence, so a move that changes base
// holds mu shared around its compare-and-swap and its add (moves do not
// wait for each other), and a reader holds mu alone while it reads both.
type tally struct {
	base atomic.Int64
	mu   sync.RWMutex
}

// from starts the count at 0 with the state word's v at v0 (before the
// generator is shared).
func (t *tally) from(v0 int64) { t.base.Store(-v0) }

// swap moves w from old to next by compare-and-swap, a move that issued k
// ids and moved v from vOld to vNew; it reports whether it moved w.
func (t *tally) swap(w *atomic.Uint64, old, next uint64, vOld, vNew, k int64) bool {
	if d := k - (vNew - vOld); d != 0 {
		return t.swapCounted(w, old, next, d)
	}
	return w.CompareAndSwap(old, next) // (inlined: the common case costs no call)
}

// swapCounted is swap of a move that changes base by d.
func (t *tally) swapCounted(w *atomic.Uint64, old, next uint64, d int64) bool {
	t.mu.RLock()
	ok := w.CompareAndSwap(old, next)
	if ok {
		t.base.Add(d)
	}
	t.mu.RUnlock()
	return ok
}

// total is the ids issued: base + v of w now, read together.
func (t *tally) total(w *atomic.Uint64, v func(state uint64) int64) int64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.base.Load() + v(w.Load())
}

// statser is a generator that reports more than the defaults.
type statser interface{ stats(*Stats) }

// StatsOf reports g's stats.
func StatsOf(g Generator) Stats {
	s := Stats{LeaseState: lease.StateNone, Datacenter: -1, Worker: -1, FenceUnixMs: -1, RenewedUnixMs: -1,
		SkewMs: math.MinInt64, SegmentLeft: -1}
	if st, ok := g.(statser); ok {
		st.stats(&s)
	}
	return s
}
