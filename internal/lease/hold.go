package lease

// Holding a pair: Take starts the Keeper, whose steps renew the pair (see
// renew.go) or lease again after a loss (take.go), until Close releases it.

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// Take acquires a pair for iss and takes it over: waiting for the
// predecessor's record (or applying the rollback policy), writing the
// first fence before any id, and adopting it. Everything taken is given
// back on failure; the store stays open (the caller owns it).
func Take(store Store, cfg Config, iss Issuer) (*Keeper, error) {
	if cfg.Env == nil {
		cfg.Env = RealEnv
	}
	k := &Keeper{cfg: cfg, env: cfg.Env, store: store, iss: iss, holder: rand.Int64N(math.MaxInt64) + 1}
	k.st.RenewedUnixMs = -1
	k.skew.Store(skewUnknown)
	if err := k.checkSkew(); err != nil {
		return nil, err
	}
	k.mu.Lock()
	err := k.leaseLocked(nil)
	k.publishLocked()
	k.mu.Unlock()
	if err != nil {
		return nil, err
	}
	if !k.env.Manual() {
		k.stop, k.done = make(chan struct{}), make(chan struct{})
		go func() {
			defer close(k.done)
			errs.Guard("the lease keeper", k.loop, k.broke)
		}()
	}
	return k, nil
}

// Switched is the pair on_clock_back=switch gave up, if any.
func (k *Keeper) Switched() (Pair, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.switched == nil {
		return Pair{}, false
	}
	return *k.switched, true
}

// loop steps until Close (in the goroutine Take starts, under
// errs.Guard: a panic, a bug, ends it through broke).
func (k *Keeper) loop() {
	t := time.NewTimer(k.cfg.TTL / 3)
	defer t.Stop()
	for {
		select {
		case <-k.stop:
			return
		case <-t.C:
		}
		t.Reset(k.Step())
	}
}

// Step does what is due: renew the held pair, or lease again after a
// loss. It returns how long until the next step. The Keeper's goroutine
// calls it in production; the simulator calls it directly.
func (k *Keeper) Step() time.Duration {
	k.mu.Lock()
	defer k.mu.Unlock()
	if stepFault != nil {
		stepFault()
	}
	if k.closed {
		return time.Hour
	}
	retry := max(k.cfg.TTL/10, time.Millisecond)
	if k.gone != nil {
		if err := k.leaseLocked(k.cur.Load()); err != nil {
			return retry
		}
		return k.cfg.TTL / 3
	}
	if err := k.renewLocked(k.cur.Load(), k.nextFence()); err != nil {
		return retry
	}
	_, _, _, _ = k.measureSkew(k.cfg.TTL / 3) // reported only: an error leaves the last estimate
	return k.cfg.TTL / 3
}

// stepFault, when set (tests), runs at each Step under the lock: a panic
// there stands for a bug in the Keeper.
var stepFault func()

// broke stops the Keeper for good after a panic in its goroutine (err, an
// errs.ErrInternal naming the bug): nothing more is issued under its
// lease, every call that needs the fence moved fails with err, and the
// lease reads lost; Close gives the pair up.
func (k *Keeper) broke(err error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.closed {
		return
	}
	k.gone = err
	k.cur.Load().drop()
	k.publishLocked()
}

// Close stops renewing and releases the pair, writing the real last value
// (so a clean restart need not wait). Closing twice is harmless.
func (k *Keeper) Close() error {
	k.mu.Lock()
	if k.closed {
		k.mu.Unlock()
		return nil
	}
	k.closed = true
	k.publishLocked()
	k.mu.Unlock()
	if k.stop != nil {
		close(k.stop)
		<-k.done
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	l := k.cur.Load()
	l.drop()
	ctx, cancel := context.WithTimeout(context.Background(), k.cfg.TTL)
	defer cancel()
	rec := Record{Backwards: k.acked.Backwards, Holder: k.holder}
	rec.IssuedUpTo, rec.Seq = k.iss.Last()
	if !after(rec.IssuedUpTo, rec.Seq, k.floor, k.floorSeq) {
		rec.IssuedUpTo, rec.Seq = k.floor, k.floorSeq
	}
	if k.gone != nil {
		_ = l.claim.Abandon(ctx)
		return nil
	}
	if err := l.claim.Release(ctx, rec); err != nil && k.failing == nil {
		return errs.New(errs.ErrWorker, "lease %s: cannot release: %v", l.Where(), err)
	}
	return nil
}
