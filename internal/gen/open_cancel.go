package gen

// An open that a context stops (Options.Context): the lease Keeper waits
// for a predecessor's record on its Env (Sleep in steps, a deadline read
// from Now), so the open hands it an Env that ends the wait once the
// context is done: Sleep returns at once, and Now runs past any deadline,
// so the Keeper fails the take through its own error path (the claim
// abandoned, nothing written); and a store round trip of the take (its
// Acquire) runs under the context (TakeContext). Once the open is over the Env is the base
// one again; an open that the context cut short is closed and fails.

import (
	"context"
	"sync"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// pastAnyWait is how far Now runs ahead, per reading, once the context is
// done: beyond any max_wait the configuration accepts.
const pastAnyWait = 100 * 365 * 24 * time.Hour

// cancelEnv is a lease.Env that a context ends while the open is on.
type cancelEnv struct {
	lease.Env
	ctx context.Context

	mu    sync.Mutex
	armed bool      // the open is on
	cut   bool      // a reading ran ahead: the open must fail
	ahead time.Time // the last reading that ran ahead
}

// withCancel wraps base (nil: the real Env) in a cancelEnv for ctx; with
// no context, or one that can never be done, it is base unchanged.
func withCancel(ctx context.Context, base lease.Env) (lease.Env, *cancelEnv) {
	if base == nil {
		base = lease.RealEnv
	}
	if ctx == nil || ctx.Done() == nil {
		return base, nil
	}
	e := &cancelEnv{Env: base, ctx: ctx, armed: true}
	return e, e
}

// Now is the base Env's reading; once the context is done while the
// open is on, each reading runs pastAnyWait beyond the one before (past
// any deadline a wait took from it), and the last stays once disarmed.
func (e *cancelEnv) Now() time.Time {
	e.mu.Lock()
	defer e.mu.Unlock()
	now := e.Env.Now()
	switch {
	case e.armed && e.ctx.Err() != nil:
		e.cut = true
		e.ahead = later(e.ahead, now).Add(pastAnyWait)
		return e.ahead
	case e.cut:
		return e.ahead
	}
	return now
}

// later is the later of a and b.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// Sleep waits d on the base Env, or less when the context is done while
// the open is on (a manual Env, the simulator's, sleeps as it does).
func (e *cancelEnv) Sleep(d time.Duration) {
	e.mu.Lock()
	armed := e.armed
	e.mu.Unlock()
	if !armed || e.Env != lease.RealEnv {
		e.Env.Sleep(d)
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-e.ctx.Done():
	}
}

// TakeContext is the open's context while the open is on: a round trip
// of the take (the store's Acquire) ends when it is done. Once disarmed,
// none (a later take, after a loss, is the Keeper's own).
func (e *cancelEnv) TakeContext() context.Context {
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.armed {
		return nil
	}
	return e.ctx
}

// disarm ends the open: from now on the Env is the base one, unless a
// reading ran ahead, which it says (the open must fail then: a Keeper
// that saw such a reading must not go on).
func (e *cancelEnv) disarm() bool {
	if e == nil {
		return false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.armed = false
	return e.cut
}

// cancelled is the error of an open that its context stopped: it wraps
// the context's error and ErrWorker (no pair was taken over), and says
// what the open was doing, from cause when it failed.
type cancelled struct {
	ctxErr error
	msg    string
}

func (c *cancelled) Error() string   { return c.msg }
func (c *cancelled) Unwrap() []error { return []error{errs.ErrWorker, c.ctxErr} }

// errCancelled is the error of an open stopped by ctx; cause is the
// open's own failure when it says something true (nil: the open had
// succeeded and was closed, or its failure was the cut wait's).
func errCancelled(ctx context.Context, cause error) error {
	msg := "open cancelled before it was done: " + context.Cause(ctx).Error()
	if cause != nil {
		msg += " (" + cause.Error() + ")"
	}
	return &cancelled{ctxErr: ctx.Err(), msg: msg}
}
