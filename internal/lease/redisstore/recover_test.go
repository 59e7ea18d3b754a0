package redisstore

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// A fault under a call (here a connection without a socket, which
// dereferences nil) fails the call with ErrWorker; it does not crash the
// process. The same for a claim's background keeping: a panic there ends
// the keeping, the goroutine returns, and the process lives on.
func TestPanicsBecomeErrorsNotCrashes(t *testing.T) {
	s := &Store{url: &storeurl.StoreURL{Kind: Kind, Where: "127.0.0.1:1 db 0", Servers: []string{"127.0.0.1:1"}}, c: &conn{}, ttl: 30 * time.Millisecond, done: make(chan struct{})}
	_, err := s.call(context.Background(), "PING")
	require.ErrorIs(t, err, errs.ErrInternal) // a bug: IDGEN_EINTERNAL, as for every panic caught
	require.ErrorContains(t, err, "internal error")

	ended := make(chan struct{})
	go func() {
		lease.Keep(30*time.Millisecond, nil, nil, func(context.Context) bool {
			var m map[string]int
			m["x"] = 1 // panics: assignment to a nil map
			return false
		})
		close(ended)
	}()
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the keeping went on after its panic")
	}
}
