package gen

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// stuckStore is a store whose Acquire gets no answer (a server that was
// cut off) until its context ends; it says why it ended.
type stuckStore struct {
	entered chan struct{}
	ended   chan error
}

func (s *stuckStore) Acquire(ctx context.Context, _ lease.Request) (lease.Claim, error) {
	close(s.entered)
	<-ctx.Done()
	s.ended <- ctx.Err()
	return nil, errs.New(errs.ErrWorker, "no answer: %v", ctx.Err())
}

func (s *stuckStore) Close() error { return nil }

// A take whose store never answers ends when the open's context is
// cancelled: the Acquire sees the cancellation (not its own deadline,
// TTL + 5 s), and the open fails wrapping context.Canceled and ErrWorker.
func TestOpenContextStopsATakeTheStoreDoesNotAnswer(t *testing.T) {
	c, err := config.Parse("worker=lease lease_ttl=60s")
	require.NoError(t, err)
	st := &stuckStore{entered: make(chan struct{}), ended: make(chan error, 1)}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-st.entered
		cancel()
	}()
	_, err = Open(c, Options{Store: st, Context: ctx})
	require.Error(t, err)
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, err, errs.ErrWorker)
	require.ErrorIs(t, <-st.ended, context.Canceled, "the store's round trip ended by the open's context")

	// Without a context the same round trip runs under the Keeper's own
	// deadline: the Env gives no take context once disarmed.
	e, ce := withCancel(ctx, nil)
	require.NotNil(t, ce)
	require.Equal(t, ctx, e.(lease.TakeContexter).TakeContext())
	ce.disarm()
	require.Nil(t, e.(lease.TakeContexter).TakeContext())
	_, plain := withCancel(context.Background(), nil)
	require.Nil(t, plain, "a context that can never be done wraps nothing")
	require.False(t, errors.Is(err, context.DeadlineExceeded))
}
