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

// lostFloor is the Issuer's LostFloor, raised to the pool's largest reach
// where the Issuer can say it.
func (k *Keeper) lostFloor() (int64, bool) {
	lost, ok := k.iss.LostFloor()
	if rf, is := k.iss.(ReachFloor); is && ok && k.poolReach > 0 {
		lost = max(lost, rf.LostFloorFor(k.poolReach))
	}
	return lost, ok
}
