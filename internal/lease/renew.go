package lease

// Renewing: the fence moves only when the store acknowledges a record;
// while it does not answer, the Keeper rides out to the last fence (the
// generator stops there), and a claim the store no longer grants makes it
// lease again.

import (
	"context"
	"errors"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// Extend makes the fence reach v, renewing at once when the Keeper holds
// and its store answers (the background renewal is late); while the store
// is out of reach or the lease was taken away, it fails at once with
// errs.ErrWorker, the Keeper retrying in the background.
func (l *Lease) Extend(v int64) error {
	if v <= l.fence.Load() {
		return nil
	}
	return l.k.extend(l, v)
}

// extend is Lease.Extend's slow lane.
func (k *Keeper) extend(l *Lease, v int64) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if v <= l.fence.Load() {
		return nil
	}
	if k.failing != nil && k.env.Now().Sub(k.tried) < max(k.cfg.TTL/10, time.Millisecond) {
		return k.unusableLocked(l) // the store was tried a moment ago
	}
	if k.closed || k.gone != nil || l != k.cur.Load() {
		return k.unusableLocked(l)
	}
	if err := k.renewLocked(l, max(v, k.nextFence())); err != nil {
		if u := k.unusableLocked(l); u != nil {
			return u
		}
		return err
	}
	if v > l.fence.Load() {
		return errs.New(errs.ErrWorker, "lease %s: the fence did not move", l.Where())
	}
	return nil
}

// unusableLocked says why l cannot be extended now, or nil.
func (k *Keeper) unusableLocked(l *Lease) error {
	switch {
	case k.closed:
		return errs.New(errs.ErrClosed, "the generator is closed")
	case errors.Is(k.gone, errs.ErrInternal): // broke: for good
		return errs.New(errs.ErrInternal, "%s: nothing more is issued under this lease: %v", l.Where(), k.gone)
	case l != k.cur.Load() || k.gone != nil:
		return errs.New(errs.ErrWorker, "lease lost: %s: %v (since %s); leasing again", l.Where(), k.gone, k.ackedAt.UTC().Format(time.RFC3339))
	case k.failing != nil:
		return errs.New(errs.ErrWorker, "lease lost for now: %s: the store has not answered since %s, so nothing is issued past the fence at %s: %v",
			l.Where(), k.ackedAt.UTC().Format(time.RFC3339), fmtMs(k.iss.UnixMs(l.fence.Load())), k.failing)
	}
	return nil
}

// renewLocked writes fence v (never below the acknowledged one) for l and
// publishes it once acknowledged. A failure leaves the fence standing
// (riding out the outage); a claim the store no longer grants makes the
// Keeper lease again at its next step.
func (k *Keeper) renewLocked(l *Lease, v int64) error {
	rec := Record{IssuedUpTo: max(v, k.acked.IssuedUpTo), Backwards: k.acked.Backwards, Holder: k.holder}
	if err := k.writeLocked(l, rec); err != nil {
		return err
	}
	return nil
}

// writeLocked sends rec for l and publishes it once acknowledged.
func (k *Keeper) writeLocked(l *Lease, rec Record) error {
	sent := k.env.Now()
	k.tried = sent
	if len(k.pending) < 16 { // the first writes after the last answer are the ones a client may have queued
		k.pending = append(k.pending, rec)
	}
	ctx, cancel := context.WithTimeout(context.Background(), k.cfg.TTL/3)
	err := l.claim.Renew(ctx, rec)
	cancel()
	defer k.publishLocked()
	switch {
	case err == nil:
		k.acked, k.ackedAt, k.failing, k.pending = rec, sent, nil, k.pending[:0]
		k.st.Renewals++
		k.st.RenewedUnixMs = time.Now().UnixMilli()
		l.fence.Store(rec.IssuedUpTo)
		return nil
	case errors.Is(err, ErrGone):
		if mutant != "own-by-value" {
			k.pending = k.pending[:max(len(k.pending)-1, 0)] // answered: it did not land
		}
		// Lease again at the next step. Meanwhile the last acknowledged
		// fence still bounds this holder: any taker of the pair issues
		// above the record, which is at or above it. A record that was
		// removed bounds nothing: stop at once.
		k.st.RenewalFailures++
		k.gone = err
		if errors.Is(err, ErrRemoved) && mutant != "removed-fence-stands" {
			l.drop()
		}
		return errs.New(errs.ErrWorker, "lease lost: %s: %v", l.Where(), err)
	}
	k.st.RenewalFailures++
	k.failing = err
	return errs.New(errs.ErrWorker, "lease %s: cannot renew, riding out to the fence: %v", l.Where(), err)
}

// NewEra writes a record with rollback counter era and fence v at once, v
// below the last fence if need be (the wall clock stepped back in a
// running generator); it returns once the store acknowledged it.
func (k *Keeper) NewEra(era, v int64) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	l := k.cur.Load()
	if err := k.unusableLocked(l); err != nil {
		return err
	}
	if err := k.writeLocked(l, Record{IssuedUpTo: v, Backwards: era, Holder: k.holder}); err != nil {
		return errs.New(errs.ErrWorker, "lease %s: cannot record the new rollback counter %d, so the generator stays in its era: %v", l.Where(), era, err)
	}
	return nil
}
