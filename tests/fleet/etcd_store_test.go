//go:build fleet

package fleet

// The etcd store adapter on its own (etcdstore: Acquire, Renew, Release,
// Predecessor) against the real cluster: a record made before a fresh
// claim is returned, a record at 0 that is a predecessor's, a taker that
// waits longer than lease_ttl, a lease revoked behind its holder's back,
// an authentication token that expired, a frozen member.

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/etcdstore"
)

func openEtcd(t *testing.T, hosts string, ttl time.Duration) *etcdstore.Store {
	t.Helper()
	u, err := config.ParseStoreURL("etcd://root:s3cret@" + hosts + "/" + testRoot(t))
	require.NoError(t, err)
	s, err := etcdstore.Open(u, ttl)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

func ctxFor(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// etcdGet is a key's value as etcdctl prints it ("" if none).
func etcdGet(t *testing.T, key string) string {
	out := etcdSh(t, "ctl", etcdDir(), "get", "--print-value-only", key)
	return strings.TrimSpace(out)
}

func TestEtcdStoreFreshOnlyWithoutARecordAndTheTakerKeepsItsClaim(t *testing.T) {
	const ttl = 2 * time.Second
	s1, s2 := openEtcd(t, etcdEndpoints, ttl), openEtcd(t, etcdEndpoints, ttl)
	req := onePair(ttl)
	c, err := s1.Acquire(ctxFor(t, 10*time.Second), req)
	require.NoError(t, err)
	_, st := c.Predecessor()
	require.Equal(t, lease.Fresh, st)
	key := "/" + testRoot(t) + "/one/0.0"
	require.Equal(t, "idgen-lease 1 0 0", etcdGet(t, key), "the record is made before a fresh claim is returned")
	require.NoError(t, c.Release(ctxFor(t, ttl), lease.Record{}))

	// A record at 0 is a predecessor's last word, not a new pair.
	c, err = s1.Acquire(ctxFor(t, 10*time.Second), req)
	require.NoError(t, err)
	rec, st := c.Predecessor()
	require.Equal(t, lease.Present, st)
	require.Equal(t, lease.Record{}, rec)

	// Not renewed for 3 lease_ttl (a taker waiting for its predecessor):
	// the claim still holds the pair.
	time.Sleep(3 * ttl)
	_, err = s2.Acquire(ctxFor(t, 10*time.Second), req)
	require.ErrorIs(t, err, errs.ErrWorker)
	require.Contains(t, err.Error(), "all 1 pairs")
	require.NoError(t, c.Renew(ctxFor(t, ttl), lease.Record{IssuedUpTo: 5}))

	// The lease revoked behind the holder's back: the claim is gone (it
	// rides to its fence), not removed; the record stays its fence.
	lock := etcdGet(t, key+".lock")
	_, id, ok := strings.Cut(lock, "lease=")
	require.True(t, ok, lock)
	etcdSh(t, "ctl", etcdDir(), "lease", "revoke", id)
	err = c.Renew(ctxFor(t, ttl), lease.Record{IssuedUpTo: 6})
	require.ErrorIs(t, err, lease.ErrGone)
	require.False(t, errors.Is(err, lease.ErrRemoved), "%v", err)
	c2, err := s2.Acquire(ctxFor(t, 10*time.Second), req)
	require.NoError(t, err)
	rec, st = c2.Predecessor()
	require.Equal(t, lease.Present, st)
	require.Equal(t, int64(5), rec.IssuedUpTo)
	require.ErrorIs(t, c.Renew(ctxFor(t, ttl), lease.Record{IssuedUpTo: 7}), lease.ErrGone)
	require.NoError(t, c2.Renew(ctxFor(t, ttl), lease.Record{IssuedUpTo: 8}))
	require.Equal(t, "idgen-lease 1 8 0", etcdGet(t, key))
	require.NoError(t, c2.Release(ctxFor(t, ttl), lease.Record{IssuedUpTo: 8}))
	require.Empty(t, etcdGet(t, key+".lock"), "a release revokes the lease: the lock goes")
}

func TestEtcdStoreAuthenticatesAgainWhenItsTokenExpired(t *testing.T) {
	const ttl = 10 * time.Second
	s := openEtcd(t, etcdEndpoints, ttl)
	c, err := s.Acquire(ctxFor(t, 10*time.Second), onePair(ttl))
	require.NoError(t, err)
	require.NoError(t, c.Renew(ctxFor(t, ttl/3), lease.Record{IssuedUpTo: 1}))
	time.Sleep(5 * time.Second) // the cluster's simple tokens expire after 3 s unused
	require.NoError(t, c.Renew(ctxFor(t, ttl/3), lease.Record{IssuedUpTo: 2}), "a renewal after the token expired")
	require.NoError(t, c.Release(ctxFor(t, ttl/3), lease.Record{IssuedUpTo: 2}))
}

func TestEtcdStoreFailsOverPastAFrozenMember(t *testing.T) {
	const ttl = 3 * time.Second
	first := strings.SplitN(etcdEndpoints, ",", 2)[0]
	p := startProxy(t, first)
	s := openEtcd(t, p.addr()+","+etcdEndpoints, ttl)
	c, err := s.Acquire(ctxFor(t, 10*time.Second), onePair(ttl))
	require.NoError(t, err)
	require.NoError(t, c.Renew(ctxFor(t, ttl/3), lease.Record{IssuedUpTo: 1}))
	p.freeze() // the member it talks to hangs: connections stay open, nothing answers
	var took []time.Duration
	for i := 0; i < 5; i++ {
		start := time.Now()
		err := c.Renew(ctxFor(t, ttl/3), lease.Record{IssuedUpTo: int64(2 + i)})
		took = append(took, time.Since(start).Round(time.Millisecond))
		if i > 0 { // the first may spend its time on the frozen member
			require.NoError(t, err, "renewal %d", i)
		}
		time.Sleep(ttl / 10)
	}
	p.thaw()
	require.NoError(t, c.Release(ctxFor(t, ttl/3), lease.Record{IssuedUpTo: 7}))
	t.Logf("a frozen member first in the list: renewals took %v (each within lease_ttl/3 = %s)", took, ttl/3)
}
