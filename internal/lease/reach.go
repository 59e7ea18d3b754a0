package lease

// Reach: how far ahead of its clock a holder's fences may run (max_outage,
// plus max_drift when it borrows). A taker of a pair whose record was lost
// must assume its last holder ran as far ahead as any holder of the pool
// may have: a store that keeps pool-wide facts (the host directory's pool
// marker) records the largest reach before a holder issues, and a taker
// waits for it.

import (
	"context"
	"time"
)

// PoolReacher is a Store that records, per pool, the largest Request.Reach
// of any holder before that holder's first record is written, and tells it.
type PoolReacher interface {
	PoolReach(ctx context.Context, pool Pool) time.Duration
}

// FloorReacher is an Issuer whose fences may run further ahead of its
// clock once it starts above a floor (a session counter above a record
// ahead of its clock: its fence cap runs one max_outage past that record):
// how far, when it starts above floor (lost: a floor it assumed for a lost
// record, which raises no cap).
type FloorReacher interface {
	ReachAbove(floor int64, lost bool) time.Duration
}

// UntilAnnouncer is a Claim whose store keeps the pool's reach
// (PoolReacher): its first write announces that this holder's fences may
// run up to d past now, a bound that passes with time (a PoolReacher
// reports at least what is left of it). Not a standing reach: a session's
// cap past a record ahead of its clock shrinks as the clock moves.
type UntilAnnouncer interface {
	AnnounceUntil(d time.Duration)
}

// announceReach has c's first write announce how far the Issuer's fences
// may run once it starts above floor, where both can say it.
func (k *Keeper) announceReach(c Claim, floor int64, lost bool) {
	fr, ok1 := k.iss.(FloorReacher)
	ua, ok2 := c.(UntilAnnouncer)
	if ok1 && ok2 {
		ua.AnnounceUntil(fr.ReachAbove(floor, lost))
	}
}

// ReachFloor is an Issuer that can say LostFloor for a lost holder whose
// fences ran up to reach ahead of its clock (a time generator).
type ReachFloor interface {
	LostFloorFor(reach time.Duration) int64
}

// reach is how far ahead of the clock this Keeper's fences run (to the end
// of the fence's tick); 0 for an Issuer without time.
func (k *Keeper) reach() time.Duration {
	f := k.nextFence()
	ms := k.iss.UnixMs(f + 1)
	if ms == -1 || k.iss.UnixMs(f) == -1 {
		return 0
	}
	return max(time.Duration(ms-k.iss.Now())*time.Millisecond, 0)
}

// readPoolReach asks the store for the pool's largest reach (0: unknown).
func (k *Keeper) readPoolReach() {
	r, ok := k.store.(PoolReacher)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), k.cfg.TTL)
	defer cancel()
	k.poolReach = r.PoolReach(ctx, k.cfg.Pool)
}

// Lossy is a Store that may lose a pair's record without a trace a taker
// can read (Redis restarting empty, failing over, flushed): a taker of such
// a pair knows only the Issuer's LostFloor, which assumes the holder issued
// nothing past its clock + max_outage (plus the other hosts' skew). Its
// holders therefore never run their fence cap from a record ahead of their
// clock (Lease.CapFromRecord): they wait for the clock instead.
type Lossy interface {
	MayLoseRecords() bool
}

// mayLose reports whether the store may lose a record without a trace.
func (k *Keeper) mayLose() bool {
	l, ok := k.store.(Lossy)
	return ok && l.MayLoseRecords() && mutant != "lossy-record-cap"
}

// OneClock is a Store whose holders all read one clock (the host
// directory: one host). On any other store a lost record's holder ran on
// another host's clock, which may be ahead of the taker's.
type OneClock interface {
	OneClock() bool
}

// LostSkew is the most a taker allows for another host's clock being
// ahead of its own when it assumes a floor for a record that was lost (a
// Redis restart). The allowance comes out of max_wait's slack, so that the
// wait stays within max_wait: max_wait - max_outage - max_drift - one
// unit, at most LostSkew (999 ms with the defaults and a 1 ms unit; a
// coarse unit leaves less unless max_wait is raised). max_skew, when set,
// widens it to 2·max_skew (each host within max_skew of the store's
// clock), even past max_wait: the first taker then refuses once and
// records the bound.
const LostSkew = time.Second

// skewAllowance is what a lost floor adds for the clocks of other hosts,
// given reach, how far this Keeper's fences run ahead of its clock.
func (k *Keeper) skewAllowance(reach time.Duration) time.Duration {
	if oc, ok := k.store.(OneClock); ok && oc.OneClock() || mutant == "lost-skew" {
		return 0
	}
	f := k.nextFence()
	unit := time.Duration(k.iss.UnixMs(f+1)-k.iss.UnixMs(f)) * time.Millisecond
	slack := min(k.cfg.Rollback.MaxWait-reach-max(unit, time.Millisecond), LostSkew)
	return max(slack, 2*k.cfg.MaxSkew, 0)
}

// lostFloor is the Issuer's LostFloor, raised to the pool's largest reach
// and to the clocks of other hosts where the Issuer can say it.
func (k *Keeper) lostFloor() (int64, bool) {
	lost, ok := k.iss.LostFloor()
	rf, is := k.iss.(ReachFloor)
	if !is || !ok {
		return lost, ok
	}
	if k.poolReach > 0 {
		lost = max(lost, rf.LostFloorFor(k.poolReach))
	}
	reach := max(k.poolReach, k.reach())
	if skew := k.skewAllowance(reach); skew > 0 {
		lost = max(lost, rf.LostFloorFor(reach+skew))
	}
	return lost, ok
}
