package leasetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// check is a contract case's test: the real *testing.T for opening stores,
// cleanups and logs, with its assertions (require.X(c, …)) recorded
// instead of reported, so that a case marked broken can be held to still
// failing.
type check struct {
	*testing.T
	failures []string
}

// failNow unwinds a case at its first failed assertion.
type failNow struct{}

// Errorf records a failed assertion.
func (c *check) Errorf(format string, args ...any) {
	c.failures = append(c.failures, fmt.Sprintf(format, args...))
}

// FailNow ends the case (runCase recovers).
func (c *check) FailNow() { panic(failNow{}) }

// runCase runs body as subtest name. It fails as its assertions did,
// unless broken marks the case: then it must fail, and passing is the
// error (the mark is stale).
func runCase(t *testing.T, name string, broken map[string]string, body func(c *check)) {
	t.Run(name, func(t *testing.T) {
		c := &check{T: t}
		c.try(body)
		why, marked := broken[name]
		switch {
		case marked && len(c.failures) == 0:
			t.Errorf("marked broken (%s), but the case passes: remove the mark", why)
		case marked:
			t.Logf("fails as marked (%s):\n%s", why, strings.Join(c.failures, "\n"))
		case len(c.failures) > 0:
			for _, f := range c.failures {
				t.Error(f)
			}
			t.FailNow()
		}
	})
}

// try runs body, stopping at its first failed assertion.
func (c *check) try(body func(c *check)) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(failNow); !ok {
				panic(r)
			}
		}
	}()
	body(c)
}

// knownCases fails t when broken names a case the suite does not have.
func knownCases(t *testing.T, broken map[string]string, names ...string) {
	for k := range broken {
		found := false
		for _, n := range names {
			found = found || n == k
		}
		if !found {
			t.Errorf("Broken names %q, which is no case of this suite (%s)", k, strings.Join(names, ", "))
		}
	}
}

// ctx is a context for one store call of a case.
func (c *check) ctx() context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	c.Cleanup(cancel)
	return ctx
}

// acquire takes a pair and gives it up at the end of the case.
func (c *check) acquire(s lease.Store, req lease.Request, msg string) lease.Claim {
	cl, err := s.Acquire(c.ctx(), req)
	require.NoError(c, err, msg)
	require.NotNil(c, cl, msg)
	c.Cleanup(func() { _ = cl.Abandon(context.Background()) })
	return cl
}

// full asserts that s cannot take from req: the pool-full error, whose
// words (lease.PoolFull) begin with what.
func (c *check) full(s lease.Store, req lease.Request, what, msg string) {
	cl, err := s.Acquire(c.ctx(), req)
	if cl != nil {
		c.Cleanup(func() { _ = cl.Abandon(context.Background()) })
	}
	require.Error(c, err, "%s: took %v", msg, pairOf(cl))
	require.Nil(c, cl, msg)
	require.ErrorIs(c, err, errs.ErrWorker, msg)
	require.Contains(c, err.Error(), what+" are taken", msg)
}

func pairOf(cl lease.Claim) any {
	if cl == nil {
		return nil
	}
	return cl.Pair()
}

// takeOver retries req on s while the pool is full, for at most within.
func (c *check) takeOver(s lease.Store, req lease.Request, within time.Duration) lease.Claim {
	start := time.Now()
	for {
		cl, err := s.Acquire(c.ctx(), req)
		if err == nil {
			c.Cleanup(func() { _ = cl.Abandon(context.Background()) })
			return cl
		}
		require.ErrorIs(c, err, errs.ErrWorker, "a taker waiting for a lapsed claim")
		require.Less(c, time.Since(start), within, "the pair of a lapsed claim was never free: %v", err)
		time.Sleep(100 * time.Millisecond)
	}
}

// refused renews stale as a holder does, again after a passing fault
// (one that wraps no lease.ErrGone), and asserts that the store refuses it
// with want before long and never acknowledges it.
func (c *check) refused(stale lease.Claim, rec lease.Record, want error) {
	start := time.Now()
	for {
		err := stale.Renew(c.ctx(), rec)
		require.Error(c, err, "a claim that lapsed and was taken over renewed %+v", rec)
		if errors.Is(err, lease.ErrGone) {
			require.ErrorIs(c, err, want, "the stale renewal's refusal")
			return
		}
		require.Less(c, time.Since(start), 10*time.Second, "the stale renewal never told its claim gone: %v", err)
		time.Sleep(100 * time.Millisecond)
	}
}
