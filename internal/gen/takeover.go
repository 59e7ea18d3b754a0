package gen

// A time generator taking a pair over: waiting for the predecessor's
// record, starting a new rollback era when the clock was set back,
// switching to another pair (on_clock_back=switch), and the fence its
// renewals write.

import (
	"context"
	"errors"
	"math"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
)

// take takes a claim over: it waits for the clock to pass the
// predecessor's record (or applies on_clock_back), writes the first fence,
// and moves the state above the record. It serves Open and leasing again.
func (g *timeGen) take(c lease.Claim) (*holding, error) {
	rec, state := c.Predecessor()
	floor := int64(-1)
	era := uint64(max(rec.Backwards, 0))
	newEra := false
	switch state {
	case lease.Present:
		floor = rec.IssuedUpTo
		if err := g.waitPast(c, floor, rec.Backwards); err != nil {
			if !errors.Is(err, errNewEra) {
				return nil, err
			}
			// The clock was set back: a new era starts at once.
			era, newEra, floor = era+1, true, -1
		}
	case lease.Missing:
		// The record is gone though a holder may live on until it notices
		// at its next renewal: wait one lease_ttl, once.
		floor = g.toTick(g.clock.Now() + int64(g.cfg.LeaseTTL))
		if err := waitUntil(g.cfg.LeaseTTL+2*time.Duration(g.unitNs), func() bool { return g.tick() > floor }); err != nil {
			return nil, errs.New(errs.ErrClockBackwards, "%s has no record; waited %s for the clock to pass %s", c.Where(), g.cfg.LeaseTTL, g.tickTime(floor))
		}
	}
	h, err := lease.Hold(c, g.cfg.LeaseTTL, lease.Record{IssuedUpTo: max(floor, g.nextFence()), Backwards: int64(era)})
	if err != nil {
		return nil, err
	}
	p := c.Pair()
	l := &g.cfg.Layout
	nh := &holding{h: h, pair: p, fixed: l.Put(layout.FieldDatacenter, p.DC) | l.Put(layout.FieldWorker, p.Worker)}
	// Every later id is above the record and above every id issued so far
	// (a generator that leases again keeps increasing).
	for {
		old := g.state.Load()
		if old&closedBit != 0 {
			_ = h.Release(max(floor, 0))
			return nil, errClosed
		}
		last := int64(old &^ closedBit >> g.tickShift)
		if newEra {
			last = g.tick() - 1 // the new era has no ids yet
		}
		next := uint64(max(floor, last))<<g.tickShift | era<<g.seqBits | g.seqMask
		if g.state.CompareAndSwap(old, next) {
			break
		}
	}
	h.Start(g.nextFence)
	return nh, nil
}

// errNewEra is waitPast's answer when the record is too far ahead to
// wait for and the layout's backwards counter has room: start a new era.
var errNewEra = errors.New("new era")

// errSwitch is waitPast's answer when on_clock_back=switch would rather
// take another pair than wait.
var errSwitch = errors.New("switch")

// waitPast waits for the clock to pass a predecessor's record: up to
// max_wait (or a longer wait step of on_clock_back that covers it); beyond
// that a layout with a backwards counter starts a new era while the
// counter has room, and then on_clock_back decides (switch: take another
// pair).
func (g *timeGen) waitPast(c lease.Claim, rec, backwards int64) error {
	now := g.tick()
	if now > rec {
		return nil
	}
	ahead := time.Duration(math.MaxInt64) // a record centuries ahead does not overflow
	if rec-now < math.MaxInt64/g.unitNs {
		ahead = time.Duration(rec-now) * time.Duration(g.unitNs)
	}
	limit := g.cfg.MaxWait
	for _, s := range g.back {
		if s.Mode == config.Wait && ahead <= s.Limit {
			limit = max(limit, s.Limit)
		}
	}
	if ahead > limit {
		if g.cbMask > 0 && uint64(max(backwards, 0)) < g.cbMask {
			return errNewEra
		}
		if g.back.Has(config.Switch) {
			return errSwitch
		}
	}
	// Wait even when the record is far ahead: the clock may be stepped
	// forward meanwhile (NTP catching up after a restart).
	wait := limit
	if ahead <= limit {
		// Covered: wait until the clock has passed the record's tick (up
		// to one unit more than the distance to its start).
		wait = ahead + time.Duration(g.unitNs) + time.Millisecond
	}
	if waitUntil(wait, func() bool { return g.tick() > rec }) == nil {
		return nil
	}
	return errs.New(errs.ErrClockBackwards,
		"%s: the previous holder issued up to %s but the clock reads %s, %s behind; waited up to %s (max_wait); on_clock_back=%s",
		c.Where(), g.tickTime(rec), g.tickTime(g.tick()), ahead, limit, g.back)
}

// switchPair gives up the first claim, whose record is too far ahead of
// the clock, and takes a free pair whose record is behind it
// (on_clock_back=switch).
func (g *timeGen) switchPair(lm *leaser) (*holding, error) {
	gave := lm.first.Pair()
	ctx, cancel := context.WithTimeout(context.Background(), lm.ttl)
	_ = lm.first.Abandon(ctx)
	cancel()
	lm.first = nil
	req := lm.req
	req.Skip = g.skipPair
	c, err := lm.acquire(req)
	if err != nil {
		return nil, errs.New(errs.ErrClockBackwards, "on_clock_back=switch: the record of pair %s is ahead of the clock by more than max_wait, and no free pair's record is behind the clock: %v", gave, err)
	}
	lm.first = c
	lm.setPair(c.Pair())
	g.cfg.Switched = gave.String()
	h, err := g.take(c)
	if errors.Is(err, errSwitch) {
		err = errs.New(errs.ErrClockBackwards, "on_clock_back=switch: pair %s, taken instead of %s, was also ahead of the clock", c.Pair(), gave)
	}
	return h, err
}

// skipPair rejects, when leasing again, pairs whose record is ahead of the
// clock (they would make the generator wait).
func (g *timeGen) skipPair(_ lease.Pair, r lease.Record) bool { return r.IssuedUpTo >= g.tick() }

// nextFence is the fence a renewal writes: now + lease_ttl (+ max_drift
// when borrowing), in ticks.
func (g *timeGen) nextFence() int64 {
	return g.toTick(g.clock.Now() + int64(g.cfg.LeaseTTL) + int64(g.borrow)*g.unitNs)
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
	if h, _ := g.lm.current(0); h != nil {
		if err := h.h.NewEra(int64(era+1), g.nextFence()); err != nil {
			return err
		}
	}
	for {
		old := g.state.Load()
		if old&closedBit != 0 {
			return errClosed
		}
		if g.state.CompareAndSwap(old, uint64(now-1)<<g.tickShift|(era+1)<<g.seqBits|g.seqMask) {
			return nil
		}
	}
}
