package segment

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

// panicky is a store whose takes after the first panic: a bug under the
// fetch goroutine (in the store adapter or the counter's own code).
type panicky struct {
	Store
	takes atomic.Int64
}

func (p *panicky) Take(ctx context.Context, name string, start, n, mark int64) (int64, int64, error) {
	if p.takes.Add(1) > 1 {
		panic("a bug in a take")
	}
	return p.Store.Take(ctx, name, start, n, mark)
}

// A panic in the fetch goroutine must not crash the host: the values in
// hand are handed out, then every call fails with IDGEN_EINTERNAL naming
// the bug; Close still works.
func TestAPanicInTheFetchGoroutineEndsTheCounterWithAnError(t *testing.T) {
	st := &panicky{Store: NewMemStore()}
	c := open(t, st, Config{Step: 10, Min: 10, Max: 10})
	var got []int64
	var err error
	for range 100 {
		var v int64
		if v, err = c.Next(); err != nil {
			break
		}
		got = append(got, v)
	}
	require.Equal(t, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, got, "the values in hand")
	require.True(t, errors.Is(err, errs.ErrInternal), "%v", err)
	require.Contains(t, err.Error(), "segment counter orders: the fetch: internal error in idgen")
	require.Contains(t, err.Error(), "a bug in a take")
	_, err = c.Next()
	require.True(t, errors.Is(err, errs.ErrInternal), "for good: %v", err)
	require.NoError(t, c.Close())
}
