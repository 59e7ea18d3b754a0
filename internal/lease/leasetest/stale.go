package leasetest

// The cases of a claim that lapsed and of a listing.

import (
	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/lease"
)

// caseStale: a claim that lapsed (o.Lose, or no renewal for ttl) is taken
// over by another handle, which reads the lost holder's last record (or
// Missing, where losing removed it); the stale holder's renewal is then
// refused (lease.ErrGone; lease.ErrRemoved where the record was removed),
// its release takes nothing from the new holder, and neither of its
// writes lands.
func caseStale(c *check, open Opener, o Options) {
	sa, sb := open(c.T, o.ttl()), open(c.T, o.ttl())
	req := lease.Request{Pool: lease.Pool{Name: "suite_stale", DCs: 1, Workers: 1}, DC: -1, TTL: o.ttl()}
	a := c.acquire(sa, req, "the first holder")
	lastA := lease.Record{IssuedUpTo: 1000, Seq: 3, Holder: 11}
	require.NoError(c, a.Renew(c.ctx(), lastA), "the first holder's renewal")
	if o.Lose != nil {
		o.Lose(c.T, sa, req.Pool, a)
	}
	b := c.takeOver(sb, req, o.takeOverWithin())
	rec, st := b.Predecessor()
	want := lease.ErrGone
	if o.LoseRemoves {
		want = lease.ErrRemoved
		require.Equal(c, lease.Missing, st, "the record was removed under a live holder")
	} else {
		require.Equal(c, lease.Present, st, "the lost holder's record")
		require.Equal(c, lastA, rec, "the lost holder's last acknowledged record")
	}
	c.refused(a, lease.Record{IssuedUpTo: 5000, Holder: 11}, want)
	lastB := lease.Record{IssuedUpTo: 1001, Holder: 22}
	require.NoError(c, b.Renew(c.ctx(), lastB), "the new holder renews after the stale renewal")
	_ = a.Release(c.ctx(), lease.Record{IssuedUpTo: 6000, Holder: 11})
	lastB.IssuedUpTo++
	require.NoError(c, b.Renew(c.ctx(), lastB), "the stale release took nothing from the new holder")
	c.full(sa, req, "all 1 pairs of pool suite_stale", "the new holder still holds after the stale release")
	require.NoError(c, b.Abandon(c.ctx()))
	d := c.acquire(sa, req, "a taker after the new holder")
	rec, st = d.Predecessor()
	require.Equal(c, lease.Present, st)
	require.Equal(c, lastB, rec, "the new holder's record: no stale write landed")
}

// caseList: listing a pool takes, writes and creates nothing: a new pool
// lists empty and its first taker still finds it new; a held pair lists
// held with the record written (none before the first write), a released
// one free with the released record; two listings agree, and the next
// taker reads what the listing showed.
func caseList(c *check, open Opener, o Options) {
	s1, s2 := open(c.T, o.ttl()), open(c.T, o.ttl())
	l, ok := s2.(lease.Lister)
	if !ok {
		require.NotEmpty(c, o.NotLister, "the store is no lease.Lister; Options.NotLister must say why")
		c.Skipf("the store is no lease.Lister: %s", o.NotLister)
	}
	pool := lease.Pool{Name: "suite_list", DCs: 1, Workers: 2}
	req := lease.Request{Pool: pool, DC: -1, TTL: o.ttl()}
	list := func(msg string, want ...lease.Entry) {
		for i := range 2 {
			got, err := l.List(c.ctx(), pool)
			require.NoError(c, err, msg)
			for j := range got {
				got[j].Holder = "" // who: store-specific, not the contract
			}
			if len(want) == 0 {
				require.Empty(c, got, "%s (listing %d)", msg, i+1)
				continue
			}
			require.Equal(c, want, got, "%s (listing %d)", msg, i+1)
		}
	}
	list("a new pool")
	a := c.acquire(s1, req, "the first taker after listings")
	_, st := a.Predecessor()
	require.Equal(c, o.NewPool, st, "the listings made no record or marker")
	require.Equal(c, lease.Pair{DC: 0, Worker: 0}, a.Pair())
	list("taken, not written yet", lease.Entry{Pair: a.Pair(), Held: true})
	written := lease.Record{IssuedUpTo: 300, Backwards: 1, Holder: 33}
	require.NoError(c, a.Renew(c.ctx(), written))
	list("held", lease.Entry{Pair: a.Pair(), Record: written, Held: true})
	released := lease.Record{IssuedUpTo: 301, Backwards: 1, Seq: 4, Holder: 33}
	require.NoError(c, a.Release(c.ctx(), released))
	list("released", lease.Entry{Pair: a.Pair(), Record: released})
	b := c.acquire(s1, req, "the next taker")
	rec, st := b.Predecessor()
	require.Equal(c, lease.Present, st)
	require.Equal(c, released, rec, "the record the listing showed")
	require.Equal(c, lease.Pair{DC: 0, Worker: 0}, b.Pair(), "the listings took nothing")
}
