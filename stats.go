package idgen

import (
	"strconv"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/gen"
)

// Stats is what idgen_get_stats reports of a generator, field for field.
type Stats struct {
	Issued          int64      // ids (numbers or text) handed out
	TickWaits       int64      // calls that waited for the next tick
	ClockBacks      int64      // steps back of the clock handled
	DriftMs         int64      // how far the newest id's time runs ahead of the clock (borrowing)
	LeaseState      LeaseState // LeaseNone, LeaseHeld, LeaseRiding or LeaseLost
	Datacenter      int64      // the pair held now, or the fixed one; -1 where none
	Worker          int64
	FenceUnixMs     int64 // the highest time it may issue; -1 without a lease
	RenewedUnixMs   int64 // the last acknowledged fence write (a renewal, or a take's first fence); -1 if none
	Renewals        int64
	RenewalFailures int64
	LeasesTaken     int64 // 1 at open, +1 for each re-lease or switch
	SkewMs          int64 // this host's clock minus the store's; math.MinInt64 if unknown
	SegmentLeft     int64 // segment: values in hand; -1 otherwise
}

// LeaseState is the state of a generator's lease, as IDGEN_LEASE_* numbers
// it (idgen_stats.lease_state, the idgen_lease_state gauge).
type LeaseState int64

// The lease states of Stats.LeaseState (IDGEN_LEASE_*).
const (
	LeaseNone   LeaseState = 0 // no lease: a fixed worker, a text preset, ...
	LeaseHeld   LeaseState = 1 // held, the last renewal acknowledged
	LeaseRiding LeaseState = 2 // the store does not answer: issuing up to the fence
	LeaseLost   LeaseState = 3 // past the fence or taken away: ErrWorker until leased again
)

// String is the state's name as the stats and metrics word it: none,
// held, riding or lost; another number prints as LeaseState(N).
func (s LeaseState) String() string {
	switch s {
	case LeaseNone:
		return "none"
	case LeaseHeld:
		return "held"
	case LeaseRiding:
		return "riding"
	case LeaseLost:
		return "lost"
	}
	return "LeaseState(" + strconv.FormatInt(int64(s), 10) + ")"
}

// statsOf is the public form of a generator's stats.
func statsOf(s gen.Stats) Stats {
	return Stats{
		Issued: s.Issued, TickWaits: s.TickWaits, ClockBacks: s.ClockBacks, DriftMs: s.DriftMs,
		LeaseState: LeaseState(s.LeaseState), Datacenter: s.Datacenter, Worker: s.Worker,
		FenceUnixMs: s.FenceUnixMs, RenewedUnixMs: s.RenewedUnixMs, Renewals: s.Renewals,
		RenewalFailures: s.RenewalFailures, LeasesTaken: s.LeasesTaken, SkewMs: s.SkewMs,
		SegmentLeft: s.SegmentLeft,
	}
}

// The bounds of a segment configuration's step=auto: each segment is
// sized to last about a second at the rate of use, from SegmentMinAutoStep
// to SegmentMaxAutoStep values.
const (
	SegmentMinAutoStep = config.MinAutoStep
	SegmentMaxAutoStep = config.MaxAutoStep
)
