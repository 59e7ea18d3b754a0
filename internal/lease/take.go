package lease

// Taking a pair over: which pair, what its record means, how long to wait
// for it, and the first fence.

import (
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// preferScan is how many pairs the preference pass looks at before it
// settles for any free pair: a pool of 2^40 pairs opens as fast as one of 4.
const preferScan = 64

// errSwitch: on_clock_back=switch would rather take another pair than wait.
var errSwitch = errors.New("switch")

// leaseLocked acquires a pair and takes it over; old is the lease lost
// (nil at opening), tried first and kept without waiting when its record
// is still the one this Keeper wrote.
func (k *Keeper) leaseLocked(old *Lease) error {
	// The pair is still its own when its record is the last one this
	// Keeper had acknowledged, or one it sent unanswered that landed (a
	// write queued in a client across a session's expiry) — told by the
	// Keeper's random Holder, not by the value alone: a successor may
	// write the very fence this Keeper wrote or sent.
	mine := func(rec Record) func(Record) bool {
		return func(r Record) bool {
			if mutant == "own-by-value" {
				r.Holder = rec.Holder
			}
			return r == rec // Holder included
		}
	}
	own := func(p Pair, rec Record, st State) bool {
		if old != nil && p == old.Pair && st == Missing && k.ownLost(old) {
			return true
		}
		return old != nil && p == old.Pair && st == Present && (mine(rec)(k.acked) || slices.ContainsFunc(k.pending, mine(rec)))
	}
	req := Request{Pool: k.cfg.Pool, DC: k.cfg.DC, TTL: k.cfg.TTL, Reach: k.reach()}
	k.readPoolReach()
	if old != nil {
		p := old.Pair
		req.First = &p
	}
	c, err := k.acquire(req, own)
	if err != nil {
		return err
	}
	f, era, newEra := floorAt{v: -1}, k.acked.Backwards, false
	if rec, st := c.Predecessor(); !own(c.Pair(), rec, st) {
		f, era, newEra, err = k.floorOf(c)
		if errors.Is(err, errSwitch) {
			c, err = k.switchLocked(c, req)
			if err == nil {
				f, era, newEra, err = k.floorOf(c)
			}
		}
		if err != nil {
			if c != nil {
				k.abandon(c)
			}
			return err
		}
	}
	return k.adoptLocked(c, old, f, era, newEra)
}

// acquire asks the store twice: first for a pair among the lowest that
// needs no wait (its record behind the clock, or still this Keeper's own),
// then for any free pair whose record can be passed at all (a counter
// layout never takes a pair whose record is missing).
func (k *Keeper) acquire(req Request, own func(Pair, Record, State) bool) (Claim, error) {
	prefer := req
	prefer.Limit = preferScan
	prefer.Skip = func(p Pair, rec Record, st State) bool {
		return !own(p, rec, st) && k.waitFor(p, rec, st) > 0
	}
	if c, err := k.acquireOnce(prefer); err == nil {
		return c, nil
	}
	lost := 0 // pairs a counter layout cannot take: their record was lost
	req.Skip = func(p Pair, rec Record, st State) bool {
		if _, ok := k.floorFor(rec, st); !ok {
			lost++
		}
		return k.waitFor(p, rec, st) == never
	}
	c, err := k.acquireOnce(req)
	if err != nil && lost > 0 {
		err = errs.New(errs.KindOf(err), "%v; of those, %d have no record though a holder may have issued under them, which a counter layout cannot wait its way past: restore the records (from a backup, or one whose issued_up_to is at or above the last value issued under the pair; zxid: the epoch, the high 32 bits, of the last zxid issued), or use another lease_dir or store", err, lost)
	}
	return c, err
}

// never is waitFor's answer for a pair that must not be taken.
const never = time.Duration(math.MaxInt64)

// floorAt is what predecessors may have issued, in the generator's terms:
// everything up to value v (v -1: nothing), or, when seq > 0, only the
// sequences below seq of value v (a clean release's record). lost marks
// the floor the Issuer assumed for a record that was lost (LostFloor), not
// one a record holds.
type floorAt struct {
	v, seq int64
	lost   bool
}

// floorFor is what a pair's record says its predecessors may have issued,
// and false for a lost record a clockless counter cannot pass.
func (k *Keeper) floorFor(rec Record, st State) (floorAt, bool) {
	lost, canLose := k.lostFloor()
	switch {
	case mutant == "missing-is-new" && st == Missing, mutant == "ignore-predecessor",
		mutant == "lost-counter-new" && st == Missing && !canLose:
		return floorAt{v: -1}, true
	case st == Fresh || st == Unmarked && !canLose:
		return floorAt{v: -1}, true
	case st == Missing || st == Unmarked:
		// A holder whose record was lost may issue up to its fence: at
		// most one max_outage (plus its max_drift) from now.
		return floorAt{v: lost, lost: true}, canLose
	}
	if rec.Seq > 0 {
		if mutant == "seq-reused" {
			return floorAt{v: rec.IssuedUpTo, seq: rec.Seq - 1}, true
		}
		return floorAt{v: rec.IssuedUpTo, seq: rec.Seq}, true
	}
	return floorAt{v: rec.IssuedUpTo}, true
}

// until is how long the generator's clock needs to reach a value it may
// issue in: past f.v, or at f.v when only part of it was used.
func (k *Keeper) until(f floorAt) time.Duration {
	if f.seq > 0 {
		return k.iss.Until(f.v - 1)
	}
	return k.iss.Until(f.v)
}

// waitFor is how long taking a pair would wait for its record (never: a
// pair this generator must not take).
func (k *Keeper) waitFor(p Pair, rec Record, st State) time.Duration {
	f, ok := k.floorFor(rec, st)
	if !ok || !k.accepts(p) {
		return never
	}
	return min(k.until(f), never-1) // a record centuries ahead is far, not forbidden
}

func (k *Keeper) acquireOnce(req Request) (Claim, error) {
	base := context.Background()
	if tc, ok := k.env.(TakeContexter); ok {
		if c := tc.TakeContext(); c != nil {
			base = c
		}
	}
	ctx, cancel := context.WithTimeout(base, k.cfg.TTL+5*time.Second)
	defer cancel()
	return k.store.Acquire(ctx, req)
}

func (k *Keeper) abandon(c Claim) {
	ctx, cancel := context.WithTimeout(context.Background(), k.cfg.TTL)
	_ = c.Abandon(ctx)
	cancel()
}

// floorOf reads what c's predecessor may have issued and waits for the
// clock to pass it: up to max_wait (or a longer wait step of
// on_clock_back that covers it); beyond that a new rollback era while the
// layout's counter has room, then on_clock_back (switch: errSwitch).
func (k *Keeper) floorOf(c Claim) (floor floorAt, era int64, newEra bool, err error) {
	rec, st := c.Predecessor()
	floor, ok := k.floorFor(rec, st)
	if !ok {
		return floorAt{}, 0, false, errs.New(errs.ErrWorker, "%s has no record, though a holder may have issued under it (it was removed): a counter layout cannot wait its way past a lost record; restore that record from a backup, or write one whose issued_up_to is at or above the last value issued under the pair (zxid: the epoch, the high 32 bits, of the last zxid issued), or use another lease_dir", c.Where())
	}
	if st == Present && mutant != "ignore-predecessor" {
		era = rec.Backwards
	}
	ahead := k.until(floor)
	if ahead == 0 {
		return floor, era, false, nil
	}
	rb := k.cfg.Rollback
	limit := rb.MaxWait
	for _, w := range rb.Waits {
		if ahead <= w {
			limit = max(limit, w)
		}
	}
	if ahead > limit && st == Present {
		if era < rb.Eras {
			return floorAt{v: -1}, era + 1, true, nil
		}
		if rb.Switch {
			return floorAt{}, 0, false, errSwitch
		}
	}
	if ahead > limit && st != Present {
		// Write the bound as the pair's record, so the wait is paid once:
		// an open after it takes the pair at once.
		ctx, cancel := context.WithTimeout(context.Background(), k.cfg.TTL)
		werr := c.Renew(ctx, Record{IssuedUpTo: floor.v, Holder: k.holder})
		cancel()
		note := "; it is recorded, so an open after " + fmtMs(k.iss.UnixMs(floor.v)) + " takes the pair at once"
		if werr != nil {
			note = ""
		}
		return floorAt{}, 0, false, errs.New(errs.ErrClockBackwards, "%s has no record: waiting for everything its last holder may have issued to pass (%s) would take longer than max_wait %s%s", c.Where(), ahead, limit, note)
	}
	// Wait even when the record is far ahead: the clock may be stepped
	// forward meanwhile (NTP catching up after a restart).
	deadline := k.env.Now().Add(limit)
	for {
		left := k.until(floor)
		if left == 0 {
			return floor, era, false, nil
		}
		remaining := deadline.Sub(k.env.Now())
		if remaining <= 0 {
			return floorAt{}, 0, false, errs.New(errs.ErrClockBackwards,
				"%s: the previous holder issued up to %s but the clock reads %s, %s behind; waited up to %s (max_wait); on_clock_back=%s",
				c.Where(), fmtMs(k.iss.UnixMs(floor.v)), fmtMs(k.iss.Now()), ahead, limit, rb.Policy)
		}
		k.env.Sleep(min(left, remaining, 50*time.Millisecond))
	}
}

// switchLocked gives up c, whose record is too far ahead of the clock, and
// takes a free pair whose record it can wait out within max_wait
// (on_clock_back=switch).
func (k *Keeper) switchLocked(c Claim, req Request) (Claim, error) {
	gave := c.Pair()
	k.abandon(c)
	req.Skip = func(p Pair, rec Record, st State) bool { return k.waitFor(p, rec, st) > k.cfg.Rollback.MaxWait }
	nc, err := k.acquireOnce(req)
	if err != nil {
		return nil, errs.New(errs.ErrClockBackwards, "on_clock_back=%s: the record of pair %s is ahead of the clock by more than max_wait, and no free pair's record can be waited out within it: %v", k.cfg.Rollback.Policy, gave, err)
	}
	k.switched = &gave
	return nc, nil
}

// adoptLocked writes the first fence (before any id is issued under the
// pair), moves the generator above floor and publishes the lease.
func (k *Keeper) adoptLocked(c Claim, old *Lease, floor floorAt, era int64, newEra bool) error {
	l := &Lease{Pair: c.Pair(), claim: c, k: k, lostFloor: floor.lost, lossy: k.mayLose()}
	rec := Record{IssuedUpTo: max(floor.v, k.nextFence()), Backwards: era, Holder: k.holder}
	k.announceReach(c, floor.v, floor.lost)
	ctx, cancel := context.WithTimeout(context.Background(), k.cfg.TTL)
	err := c.Renew(ctx, rec)
	cancel()
	if err != nil {
		k.abandon(c)
		return errs.New(errs.ErrWorker, "lease %s: cannot write the first fence: %v", c.Where(), err)
	}
	l.fence.Store(rec.IssuedUpTo)
	if err := k.iss.Adopt(l, floor.v, floor.seq, era, newEra); err != nil {
		ctx, cancel := context.WithTimeout(context.Background(), k.cfg.TTL)
		_ = c.Release(ctx, rec) // the fence written stands: nothing was issued above it
		cancel()
		return err
	}
	k.cur.Store(l)
	if old != nil {
		old.drop()           // the generator issues under l now
		k.abandon(old.claim) // the lost claim: nothing to write
	}
	k.acked, k.ackedAt, k.failing, k.gone, k.pending = rec, k.env.Now(), nil, nil, nil
	k.st.RenewedUnixMs = time.Now().UnixMilli() // the first fence is an acknowledged write too
	if old == nil || l.Pair != old.Pair {
		k.floor, k.floorSeq = floor.v, floor.seq
	}
	k.st.LeasesTaken++
	k.publishLocked()
	return nil
}

// PairFilter is an Issuer whose ids depend on the pair's order (a
// session id carries its worker in its top bits): it accepts only pairs
// that keep its ids increasing.
type PairFilter interface{ Accepts(Pair) bool }

func (k *Keeper) accepts(p Pair) bool {
	f, ok := k.iss.(PairFilter)
	return !ok || f.Accepts(p)
}
