package gen

// A time generator as its lease Keeper sees it (lease.Issuer): how far its
// clock is from a record, moving above a predecessor's record, its next
// fence; and the rollback eras of a running generator whose wall clock
// stepped back.

import (
	"math"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
)

// rollback is what the Keeper does with a record ahead of the clock.
func (g *timeGen) rollback() lease.Rollback {
	rb := lease.Rollback{MaxWait: g.cfg.MaxWait, Eras: int64(g.cbMask), Switch: g.back.Has(config.Switch), Policy: g.back.String()}
	for _, s := range g.back {
		if s.Mode == config.Wait {
			rb.Waits = append(rb.Waits, s.Limit)
		}
	}
	return rb
}

// Until is how long the clock needs to pass tick v.
func (g *timeGen) Until(v int64) time.Duration {
	now := g.clock.Now()
	if v >= (math.MaxInt64-g.epochNs)/g.unitNs-1 {
		return time.Duration(math.MaxInt64)
	}
	end := g.epochNs + (v+1)*g.unitNs // the first instant past tick v
	if now >= end {
		return 0
	}
	return time.Duration(end - now)
}

// LostFloor: a holder whose record was lost issued at most up to its
// fence, at most one max_outage (plus max_drift) from now.
func (g *timeGen) LostFloor() (int64, bool) { return g.NextFence(), true }

// LostFloorFor is LostFloor for a lost holder whose fences ran up to
// reach ahead of its clock (the pool's largest: another holder's
// max_outage + max_drift may exceed this generator's).
func (g *timeGen) LostFloorFor(reach time.Duration) int64 {
	return max(g.NextFence(), g.toTick(g.clock.Now()+int64(reach)))
}

// Adopt moves the generator above floor (to sequence seq of tick floor
// when seq > 0: a clean release's record) and everything issued so far,
// on lease l, in rollback era era.
func (g *timeGen) Adopt(l *lease.Lease, floor, seq, era int64, newEra bool) error {
	lay := &g.cfg.Layout
	h := &holding{l: l, fixed: lay.Put(layout.FieldDatacenter, l.Pair.DC) | lay.Put(layout.FieldWorker, l.Pair.Worker)}
	floor = min(floor, g.maxTick) // a record past the time field: every call overflows, the state word keeps its flags
	err := g.jump(func(old uint64) (uint64, error) {
		last := int64(old >> g.tickShift)
		if newEra {
			last = max(g.tick()-1, 0) // the new era has no ids yet
		}
		if seq > 0 && uint64(seq) <= g.seqMask && floor > last && floor < g.maxTick {
			return uint64(floor)<<g.tickShift | uint64(era)<<g.seqBits | uint64(seq-1), nil // as if seq-1 was issued
		}
		return uint64(max(floor, last))<<g.tickShift | uint64(era)<<g.seqBits | g.seqMask, nil
	})
	if err == nil {
		g.lm.hold.Store(h)
	}
	return err
}

// NextFence is the fence a renewal writes: now + max_outage (+ max_drift
// when borrowing), in ticks.
func (g *timeGen) NextFence() int64 {
	return g.toTick(g.clock.Now() + int64(g.cfg.MaxOutage) + g.borrow*g.unitNs)
}

// Last is the last tick issued (a ring's ids not yet handed out are not)
// and the first sequence of it not issued (0 when none is left, or for a
// ring, which does not say).
func (g *timeGen) Last() (int64, int64) {
	if g.handedOut != nil {
		return g.handedOut(), 0
	}
	st := g.state.Load() &^ closedBit
	if seq := st & g.seqMask; seq < g.seqMask {
		return int64(st >> g.tickShift), int64(seq) + 1
	}
	return g.LastValue(), 0
}

// startEra moves a running generator whose wall clock stepped back to a new
// era at tick now: the backwards counter goes up by one, in the lease
// record first (with a fence from now, so the record tells the truth about
// the new era), then in the state.
func (g *timeGen) startEra(seen uint64, now int64) error {
	g.eraMu.Lock()
	defer g.eraMu.Unlock()
	era := seen >> g.seqBits & g.cbMask
	if cur := g.state.Load(); cur&closedBit != 0 {
		return errClosed
	} else if cur>>g.seqBits&g.cbMask != era {
		return nil // another caller started it
	}
	if g.lm != nil {
		if err := g.lm.k.NewEra(int64(era+1), g.NextFence()); err != nil {
			return err
		}
	}
	return g.jump(func(uint64) (uint64, error) {
		return uint64(max(now-1, 0))<<g.tickShift | (era+1)<<g.seqBits | g.seqMask, nil
	})
}
