package lease

import (
	"context"
	"errors"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// Holder keeps one claim alive: it renews it every ttl/3 off the hot path
// and publishes the fence, the IssuedUpTo of the last record the store
// acknowledged. A generator reads Fence on its hot path (one atomic load)
// and calls Extend only when it would pass it.
//
// Renewal failures leave the fence where it was, so issuing stops there.
// The holder is lost when the store says the claim is gone, or when no
// renewal was acknowledged for ttl, measured from before the last
// acknowledged renewal was sent: by then the store may have handed the
// pair to someone else. A lost holder never renews again.
type Holder struct {
	claim Claim
	ttl   time.Duration
	fence atomic.Int64          // acked while held; math.MinInt64 once lost, so one check serves both
	acked atomic.Int64          // the last acknowledged fence, lowered only by NewEra
	lost  atomic.Pointer[error] // set once: lost or released
	gone  chan struct{}         // closed when lost is set

	mu       sync.Mutex // serialises store calls
	deadline time.Time  // monotonic: the last acknowledged send + ttl
	backw    int64      // the Backwards value kept in the record
	next     func() int64
	stop     chan struct{}
	done     chan struct{}
}

// Hold takes over a claim. first is the first record to write, before any
// id is issued: the generator's floor or its first fence. Hold fails (and
// releases the claim) when that write fails.
func Hold(c Claim, ttl time.Duration, first Record) (*Holder, error) {
	h := &Holder{claim: c, ttl: ttl, gone: make(chan struct{}), backw: first.Backwards}
	h.fence.Store(-1)
	h.acked.Store(-1)
	h.mu.Lock()
	err := h.renewLocked(first.IssuedUpTo)
	h.mu.Unlock()
	if err != nil {
		ctx, cancel := context.WithTimeout(context.Background(), ttl)
		defer cancel()
		_ = c.Release(ctx, Record{IssuedUpTo: max(first.IssuedUpTo, 0), Backwards: first.Backwards})
		return nil, err
	}
	return h, nil
}

// Claim is the held claim.
func (h *Holder) Claim() Claim { return h.claim }

// Fence is the highest value the generator may issue: the last
// acknowledged fence while the holder holds, below every value once it is
// lost or released (so the hot path needs one comparison).
func (h *Holder) Fence() int64 { return h.fence.Load() }

// Acked is the last fence the store acknowledged, lost or not: everything
// the generator issued is at or below it.
func (h *Holder) Acked() int64 { return h.acked.Load() }

// Err is nil while the holder holds; then why it does not.
func (h *Holder) Err() error {
	if p := h.lost.Load(); p != nil {
		return *p
	}
	return nil
}

// Gone is closed when the holder is lost or released.
func (h *Holder) Gone() <-chan struct{} { return h.gone }

// SetBackwards changes the rollback counter kept in the record; it is
// written at the next renewal.
func (h *Holder) SetBackwards(n int64) {
	h.mu.Lock()
	h.backw = n
	h.mu.Unlock()
}

// NewEra writes a record with rollback counter n and fence v at once, v
// below the last fence if need be (a new era: the clock was set back and
// the counter tells its ids apart from the earlier, later-dated ones); it
// returns when the store has acknowledged it.
func (h *Holder) NewEra(n, v int64) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if err := h.Err(); err != nil {
		return err
	}
	sent := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), h.ttl/3)
	err := h.claim.Renew(ctx, Record{IssuedUpTo: v, Backwards: n})
	cancel()
	if err != nil {
		if errors.Is(err, ErrGone) {
			return h.loseLocked(errs.New(errs.ErrWorker, "lease lost: %s: %v", h.claim.Where(), err))
		}
		return errs.New(errs.ErrWorker, "lease %s: cannot record the new rollback counter %d, so the generator stays in its era: %v", h.claim.Where(), n, err)
	}
	h.deadline = sent.Add(h.ttl)
	h.backw = n
	h.acked.Store(v)
	h.fence.Store(v)
	return nil
}

// Start renews every ttl/3 until Release; next tells the fence to write
// (the generator's "now + ttl" in its own terms).
func (h *Holder) Start(next func() int64) {
	h.mu.Lock()
	h.next = next
	h.stop, h.done = make(chan struct{}), make(chan struct{})
	stop := h.stop
	h.mu.Unlock()
	go h.loop(stop)
}

func (h *Holder) loop(stop <-chan struct{}) {
	defer close(h.done)
	period := h.ttl / 3
	t := time.NewTimer(period)
	defer t.Stop()
	for {
		select {
		case <-stop:
			return
		case <-h.gone:
			return
		case <-t.C:
		}
		h.mu.Lock()
		err := h.renewLocked(h.next())
		h.mu.Unlock()
		if err != nil && h.Err() == nil {
			t.Reset(max(h.ttl/10, time.Millisecond)) // a passing fault: try again soon
		} else {
			t.Reset(period)
		}
	}
}

// renewLocked writes a record with fence v (never lower than the last
// acknowledged one) and publishes it once acknowledged.
func (h *Holder) renewLocked(v int64) error {
	if err := h.Err(); err != nil {
		return err
	}
	if !h.deadline.IsZero() && !time.Now().Before(h.deadline) {
		return h.loseLocked(errs.New(errs.ErrWorker, "lease lost: %s: no renewal acknowledged for %s (lease_ttl)", h.claim.Where(), h.ttl))
	}
	v = max(v, h.acked.Load())
	sent := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), h.ttl/3)
	err := h.claim.Renew(ctx, Record{IssuedUpTo: v, Backwards: h.backw})
	cancel()
	switch {
	case err == nil:
		h.deadline = sent.Add(h.ttl)
		h.acked.Store(v)
		if h.Err() == nil {
			h.fence.Store(v)
		}
		return nil
	case errors.Is(err, ErrGone):
		return h.loseLocked(errs.New(errs.ErrWorker, "lease lost: %s: %v", h.claim.Where(), err))
	case !h.deadline.IsZero() && !time.Now().Before(h.deadline):
		return h.loseLocked(errs.New(errs.ErrWorker, "lease lost: %s: no renewal acknowledged for %s (lease_ttl): %v", h.claim.Where(), h.ttl, err))
	}
	return errs.New(errs.ErrWorker, "lease lost for now: %s: cannot renew, so nothing is issued past the last fence: %v", h.claim.Where(), err)
}

func (h *Holder) loseLocked(err error) error {
	if h.lost.CompareAndSwap(nil, &err) {
		h.fence.Store(math.MinInt64)
		close(h.gone)
	}
	return *h.lost.Load()
}

// Extend makes the fence reach at least v, renewing at once if needed (the
// hot path's slow lane, when the background renewal is late). It fails
// when the holder is lost or the store does not acknowledge.
func (h *Holder) Extend(v int64) error {
	if err := h.Err(); err != nil {
		return err
	}
	if v <= h.fence.Load() {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if v <= h.fence.Load() {
		return nil
	}
	want := v
	if h.next != nil {
		want = max(want, h.next())
	}
	if err := h.renewLocked(want); err != nil {
		return err
	}
	if v > h.acked.Load() {
		return errs.New(errs.ErrWorker, "lease %s: the fence did not move", h.claim.Where())
	}
	return nil
}

// Release stops renewing, writes last as the record (the real last value
// issued, so a clean restart need not wait) and gives the pair up. Later
// calls of the holder fail with errs.ErrClosed. Releasing twice is
// harmless. A lost holder still tries: the store refuses it if the pair
// has another holder.
func (h *Holder) Release(last int64) error {
	h.mu.Lock()
	stop, done := h.stop, h.done
	h.stop = nil
	h.mu.Unlock()
	if stop != nil {
		close(stop)
		<-done
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	closed := errs.New(errs.ErrClosed, "the generator is closed")
	wasLost := h.Err()
	if !h.lost.CompareAndSwap(nil, &closed) {
		if p := h.lost.Load(); p != nil && errors.Is(*p, errs.ErrClosed) {
			return nil // released before
		}
		h.lost.Store(&closed)
	} else {
		close(h.gone)
	}
	h.fence.Store(math.MinInt64)
	ctx, cancel := context.WithTimeout(context.Background(), h.ttl)
	defer cancel()
	err := h.claim.Release(ctx, Record{IssuedUpTo: last, Backwards: h.backw})
	if err != nil && wasLost == nil {
		return errs.New(errs.ErrWorker, "lease %s: cannot release: %v", h.claim.Where(), err)
	}
	return nil
}
