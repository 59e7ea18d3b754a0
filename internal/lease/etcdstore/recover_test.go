package etcdstore

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// A fault under a call (here a client without its HTTP client) fails the
// call; a panic in a background goroutine reaches its failure path (an
// authentication that panicked ends as an error its waiters see), never
// the host.
func TestPanicsBecomeErrorsNotCrashes(t *testing.T) {
	c := &client{u: &storeurl.StoreURL{Servers: []string{"127.0.0.1:1"}}, scheme: "http"}
	err := c.call(context.Background(), "/v3/kv/range", obj{}, &rangeResp{})
	require.ErrorContains(t, err, "internal error")

	got := make(chan error, 1)
	errs.Guard("authenticate", func() { panic("boom") }, func(err error) { got <- err })
	require.ErrorContains(t, <-got, "boom")

	c = &client{u: &storeurl.StoreURL{Servers: []string{"127.0.0.1:1"}, User: "u", Password: "p"}, scheme: "http"}
	_, err = c.authToken(context.Background(), 0)
	require.ErrorContains(t, err, "internal error", "the waiter of a panicked authentication gets its error")
}
