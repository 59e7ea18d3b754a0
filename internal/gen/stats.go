package gen

import (
	"math"
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
type tally struct{ base atomic.Int64 }

// moved accounts for a move of the state from v(old) to v(new) that
// issued k ids.
func (t *tally) moved(vOld, vNew, k int64) {
	if d := k - (vNew - vOld); d != 0 {
		t.base.Add(d)
	}
}

// total is the ids issued, given v of the state now.
func (t *tally) total(v int64) int64 { return t.base.Load() + v }

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
