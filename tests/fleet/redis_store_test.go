//go:build fleet

package fleet

// The Redis store's contract, driven directly (no generator): what a taker
// reads in a new pool, after a loss a live holder noticed, and what a
// holder whose lock another took is told.

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/redisstore"
)

func openRedis(t *testing.T, ttl time.Duration) *redisstore.Store {
	u, err := config.ParseStoreURL(redisURL(t, 0))
	require.NoError(t, err)
	s, err := redisstore.Open(u, ttl)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// redisTaker opens a store with lease_ttl ttl on the test's database and
// returns a 4-pair pool's request and a function that takes a pair.
func redisTaker(t *testing.T, ttl time.Duration) (*redisstore.Store, lease.Request, func() (lease.Claim, time.Duration)) {
	s := openRedis(t, ttl)
	req := lease.Request{Pool: lease.Pool{Name: "p", DCs: 1, Workers: 4}, DC: -1, TTL: ttl}
	return s, req, func() (lease.Claim, time.Duration) {
		start := time.Now()
		c, err := s.Acquire(context.Background(), req)
		require.NoError(t, err)
		return c, time.Since(start)
	}
}

func TestRedisStoreNewPool(t *testing.T) {
	const ttl = time.Second
	_, _, take := redisTaker(t, ttl)
	ctx := context.Background()

	// A new pool: the first takers wait until the marker is lease_ttl old
	// (no holder spoke up), then a pair without a record is Fresh.
	a, took := take()
	_, st := a.Predecessor()
	require.Equal(t, lease.Fresh, st)
	require.Equal(t, lease.Pair{DC: 0, Worker: 0}, a.Pair())
	require.GreaterOrEqual(t, took, ttl-100*time.Millisecond, "a new marker is trusted once lease_ttl old")
	require.NoError(t, a.Renew(ctx, lease.Record{IssuedUpTo: 100}))
	b, took := take()
	_, st = b.Predecessor()
	require.Equal(t, lease.Fresh, st)
	require.Less(t, took, ttl/2, "an old marker costs no wait")
	require.NoError(t, b.Release(ctx, lease.Record{IssuedUpTo: 50}))
	c, _ := take()
	rec, st := c.Predecessor()
	require.Equal(t, lease.Present, st)
	require.Equal(t, int64(50), rec.IssuedUpTo)
	time.Sleep(2 * ttl)
	require.Equal(t, "1", redisCli(t, "EXISTS", "idgen:{p}:lock:0:1"), "a taker keeps its lock while it waits, before its first write")
	require.NoError(t, c.Abandon(ctx))
	require.Equal(t, "0", redisCli(t, "EXISTS", "idgen:{p}:lock:0:1"))
	require.NoError(t, a.Release(ctx, lease.Record{IssuedUpTo: 100}))
}

func TestRedisStoreLossRule(t *testing.T) {
	const ttl = time.Second
	s, req, take := redisTaker(t, ttl)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	a, _ := take()
	require.NoError(t, a.Renew(ctx, lease.Record{IssuedUpTo: 100}))
	b, _ := take()
	require.NoError(t, b.Renew(ctx, lease.Record{IssuedUpTo: 50}))
	require.NoError(t, b.Abandon(ctx)) // a dead holder's pair: its record stays

	// The data is lost; a taker comes at once (it makes a new marker and
	// waits), a live holder renews meanwhile: it keeps its pair, publishes
	// its fence again and marks the loss, so the taker finds the lost
	// record of pair 1 Missing, not Fresh.
	require.Equal(t, "OK", redisCli(t, "FLUSHDB"))
	type got struct {
		c   lease.Claim
		err error
	}
	ch := make(chan got, 1)
	go func() { c, err := s.Acquire(ctx, req); ch <- got{c, err} }()
	var g got
	for renewed := false; !renewed || g.c == nil && g.err == nil; {
		select {
		case g = <-ch:
		case <-time.After(ttl / 3): // the live holder renews as its Keeper would
			require.NoError(t, a.Renew(ctx, lease.Record{IssuedUpTo: 200}))
			renewed = true
		}
	}
	require.NoError(t, g.err)
	_, st := g.c.Predecessor()
	require.Equal(t, lease.Pair{DC: 0, Worker: 1}, g.c.Pair(), "pair 0 is still the live holder's")
	require.Equal(t, lease.Missing, st, "after a loss a pair without a record may hide a fence")
	marker := redisCli(t, "--scan", "--pattern", "idgen:{p}:pool")
	require.NotEmpty(t, redisCli(t, "HGET", marker, "lost"))
	require.Equal(t, "200", redisCli(t, "HGET", "idgen:{p}:rec:0:0", "fence"), "the live holder published its fence again")
	require.NoError(t, g.c.Renew(ctx, lease.Record{IssuedUpTo: 300}))

	// A holder whose lock another took: gone (it rides to its fence),
	// never "removed" (which would stop it at once).
	redisCli(t, "SET", "idgen:{p}:lock:0:0", "someone-else")
	err := a.Renew(ctx, lease.Record{IssuedUpTo: 400})
	require.ErrorIs(t, err, lease.ErrGone)
	require.False(t, errors.Is(err, lease.ErrRemoved), err.Error())
	require.Contains(t, err.Error(), "another holder")
	require.Equal(t, "200", redisCli(t, "HGET", "idgen:{p}:rec:0:0", "fence"), "nothing written")

	// A write lost by a lagging replica (the record older than the last
	// acknowledged write) marks the loss too.
	redisCli(t, "HDEL", marker, "lost")
	require.NoError(t, g.c.Renew(ctx, lease.Record{IssuedUpTo: 310}))
	redisCli(t, "HSET", "idgen:{p}:rec:0:1", "seq", "1", "fence", "300")
	require.NoError(t, g.c.Renew(ctx, lease.Record{IssuedUpTo: 320}))
	require.NotEmpty(t, redisCli(t, "HGET", marker, "lost"))

	now, err := s.StoreNow(ctx)
	require.NoError(t, err)
	require.Less(t, time.Since(now).Abs(), time.Second, "TIME is the server's clock")
	require.True(t, strings.HasPrefix(g.c.Where(), "key idgen:{p}:lock:0:1 on Redis 127.0.0.1:"), g.c.Where())
	require.NoError(t, g.c.Release(ctx, lease.Record{IssuedUpTo: 320}))
}
