package lease_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
)

// counter is the smallest Issuer: a counter layout, whose values need no
// clock (Until 0, no LostFloor), fenced at the time a renewal writes.
type counter struct{}

func (counter) Until(int64) time.Duration                           { return 0 }
func (counter) LostFloor() (int64, bool)                            { return 0, false }
func (counter) Adopt(*lease.Lease, int64, int64, int64, bool) error { return nil }
func (counter) NextFence() int64                                    { return time.Now().UnixMilli() + 60_000 }
func (counter) Last() (int64, int64)                                { return 0, 0 }
func (counter) UnixMs(v int64) int64                                { return v }
func (counter) Now() int64                                          { return time.Now().UnixMilli() }

// A panic in the Keeper's goroutine (a bug) must not crash the host: the
// Keeper stops for good, the lease reads lost, and a generator that needs
// its fence moved gets IDGEN_EINTERNAL naming the bug.
func TestAPanicInTheKeepersGoroutineLosesTheLeaseAndIsReported(t *testing.T) {
	store, err := dirstore.Open(t.TempDir(), true)
	require.NoError(t, err)
	defer store.Close()
	cfg := lease.Config{Pool: lease.Pool{Name: "guard", DCs: 1, Workers: 4}, DC: -1, TTL: 30 * time.Millisecond, MaxOutage: time.Minute}
	panicked := make(chan struct{})
	lease.SetStepFault(func() {
		select {
		case <-panicked:
		default:
			close(panicked)
		}
		panic("a bug in a step")
	})
	defer lease.SetStepFault(nil)
	k, err := lease.Take(store, cfg, counter{})
	require.NoError(t, err)
	l := k.Current()
	require.NoError(t, l.Extend(l.Fence()), "held before the fault")
	<-panicked
	require.Eventually(t, func() bool { return k.Stats().State == lease.StateLost }, 5*time.Second, time.Millisecond)
	err = l.Extend(l.Fence() + 1)
	require.Error(t, err)
	require.True(t, errors.Is(err, errs.ErrInternal), "%v", err)
	require.Contains(t, err.Error(), "the lease keeper: internal error in idgen")
	require.Contains(t, err.Error(), "a bug in a step")
	require.Contains(t, err.Error(), "lease_test.TestAPanicInTheKeepersGoroutine")
	require.NoError(t, k.Close(), "the pair is given up")
}

// A panic in a store's keep (a bug) ends Keep, never the host.
func TestKeepEndsWhenKeepPanics(t *testing.T) {
	calls := 0
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		lease.Keep(3*time.Millisecond, nil, nil, func(context.Context) bool {
			calls++
			panic("a bug in a keep")
		})
	}()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("Keep did not end")
	}
	require.Equal(t, 1, calls)
}
