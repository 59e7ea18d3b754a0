package idgen

// Stats is what idgen_get_stats reports of a generator, field for field.
type Stats struct {
	Issued          int64 // ids (numbers or text) handed out
	TickWaits       int64 // calls that waited for the next tick
	ClockBacks      int64 // steps back of the clock handled
	DriftMs         int64 // how far the newest id's time runs ahead of the clock (borrowing)
	LeaseState      int64 // LeaseNone, LeaseHeld, LeaseRiding or LeaseLost
	Datacenter      int64 // the pair held now, or the fixed one; -1 where none
	Worker          int64
	FenceUnixMs     int64 // the highest time it may issue; -1 without a lease
	RenewedUnixMs   int64 // the last acknowledged fence write (a renewal, or a take's first fence); -1 if none
	Renewals        int64
	RenewalFailures int64
	LeasesTaken     int64 // 1 at open, +1 for each re-lease or switch
	SkewMs          int64 // this host's clock minus the store's; math.MinInt64 if unknown
	SegmentLeft     int64 // segment: values in hand; -1 otherwise
}

// The lease states of Stats.LeaseState (IDGEN_LEASE_*).
const (
	LeaseNone   = 0 // no lease: a fixed worker, a text preset, ...
	LeaseHeld   = 1 // held, the last renewal acknowledged
	LeaseRiding = 2 // the store does not answer: issuing up to the fence
	LeaseLost   = 3 // past the fence or taken away: ErrWorker until leased again
)
