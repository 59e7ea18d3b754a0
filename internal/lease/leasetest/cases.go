package leasetest

// The cases of taking and holding: what a taker finds, which pair it gets,
// how long it keeps it, what it leaves.

import (
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/lease"
)

// caseFresh: the first taker of a new pool gets its lowest pair, with no
// record and the state o.NewPool; a taker of another pair without a
// record, the pool now in use, reads Fresh and gets the lowest free pair
// (of its datacenter, when it fixes one); a record at 0 is a record.
func caseFresh(c *check, open Opener, o Options) {
	s1, s2 := open(c.T, o.ttl()), open(c.T, o.ttl())
	pool := lease.Pool{Name: "suite_fresh", DCs: 2, Workers: 2}
	req := lease.Request{Pool: pool, DC: -1, TTL: o.ttl()}
	a := c.acquire(s1, req, "the first taker of a new pool")
	require.Equal(c, lease.Pair{DC: 0, Worker: 0}, a.Pair(), "the lowest pair of a new pool")
	rec, st := a.Predecessor()
	require.Equal(c, o.NewPool, st, "a pair without a record in a pool never used here")
	require.Equal(c, lease.Record{}, rec, "no record")

	b := c.acquire(s2, req, "a second taker")
	require.Equal(c, lease.Pair{DC: 0, Worker: 1}, b.Pair(), "the lowest free pair")
	rec, st = b.Predecessor()
	require.Equal(c, lease.Fresh, st, "a pair without a record in a pool in use")
	require.Equal(c, lease.Record{}, rec, "no record")

	dc := req
	dc.DC = 1
	d := c.acquire(s2, dc, "a taker fixing datacenter 1")
	require.Equal(c, lease.Pair{DC: 1, Worker: 0}, d.Pair(), "the lowest pair of the datacenter asked for")
	_, st = d.Predecessor()
	require.Equal(c, lease.Fresh, st, "a pair without a record in a pool in use")

	require.NoError(c, a.Release(c.ctx(), lease.Record{}), "a release at 0")
	e := c.acquire(s2, req, "a taker after a release")
	require.Equal(c, lease.Pair{DC: 0, Worker: 0}, e.Pair(), "the lowest free pair again")
	rec, st = e.Predecessor()
	require.Equal(c, lease.Present, st, "a record at 0 is a record, never Fresh")
	require.Equal(c, lease.Record{}, rec, "the record released")
}

// caseFull: while a claim on a one-pair pool lives, before its first
// renewal and after it, another taker (of another handle or the same)
// fails with the pool-full error and takes nothing from the holder; with
// a datacenter fixed, the error names it, and the other datacenter's
// pair is still free.
func caseFull(c *check, open Opener, o Options) {
	s1, s2 := open(c.T, o.ttl()), open(c.T, o.ttl())
	req := lease.Request{Pool: lease.Pool{Name: "suite_full", DCs: 1, Workers: 1}, DC: -1, TTL: o.ttl()}
	a := c.acquire(s1, req, "the first taker")
	const all = "all 1 pairs of pool suite_full"
	c.full(s2, req, all, "another handle while the claim lives")
	c.full(s1, req, all, "the same handle while the claim lives")
	require.NoError(c, a.Renew(c.ctx(), lease.Record{IssuedUpTo: 7}), "the holder renews after the failed takes")
	c.full(s2, req, all, "another handle after the first renewal")

	two := lease.Pool{Name: "suite_full_dc", DCs: 2, Workers: 1}
	dc := lease.Request{Pool: two, DC: 1, TTL: o.ttl()}
	x := c.acquire(s1, dc, "a taker fixing datacenter 1")
	require.Equal(c, lease.Pair{DC: 1, Worker: 0}, x.Pair())
	c.full(s2, dc, "all 1 workers of datacenter 1 in pool suite_full_dc (2 pairs)", "datacenter 1 is held")
	y := c.acquire(s2, lease.Request{Pool: two, DC: -1, TTL: o.ttl()}, "a taker of any datacenter")
	require.Equal(c, lease.Pair{DC: 0, Worker: 0}, y.Pair(), "the other datacenter's pair")
	require.NoError(c, a.Renew(c.ctx(), lease.Record{IssuedUpTo: 8}), "the holder still holds")
}

// caseKeeps: a taker holds its claim however long it waits before its
// first renewal, and its renewals (each within ttl/3) keep it past ttl;
// the record the last renewal wrote is what the next taker reads, every
// field of it.
func caseKeeps(c *check, open Opener, o Options) {
	ttl := o.ttl()
	s1, s2 := open(c.T, ttl), open(c.T, ttl)
	req := lease.Request{Pool: lease.Pool{Name: "suite_keeps", DCs: 1, Workers: 1}, DC: -1, TTL: ttl}
	const all = "all 1 pairs of pool suite_keeps"
	a := c.acquire(s1, req, "the taker")
	time.Sleep(2 * ttl) // waiting for its predecessor's record: no renewal yet
	c.full(s2, req, all, "the waiting taker still holds its claim, 2·ttl after taking it")
	var last lease.Record
	for i := int64(1); i <= 6; i++ {
		last = lease.Record{IssuedUpTo: 100 * i, Backwards: i % 3, Seq: i - 1, Holder: 1<<40 + i}
		require.NoError(c, a.Renew(c.ctx(), last), "renewal %d", i)
		time.Sleep(ttl / 3)
	}
	c.full(s2, req, all, "the renewals kept the claim, 2·ttl after the first")
	require.NoError(c, a.Abandon(c.ctx()))
	b := c.acquire(s2, req, "the next taker")
	rec, st := b.Predecessor()
	require.Equal(c, lease.Present, st)
	require.Equal(c, last, rec, "the last renewal's record, every field")
}

// caseRelease: Release writes the record and frees the pair at once; the
// next taker (of another handle) reads exactly that record, Present;
// Abandon writes nothing.
func caseRelease(c *check, open Opener, o Options) {
	s1, s2 := open(c.T, o.ttl()), open(c.T, o.ttl())
	req := lease.Request{Pool: lease.Pool{Name: "suite_release", DCs: 1, Workers: 1}, DC: -1, TTL: o.ttl()}
	a := c.acquire(s1, req, "the first taker")
	require.NoError(c, a.Renew(c.ctx(), lease.Record{IssuedUpTo: 10, Holder: 5}))
	released := lease.Record{IssuedUpTo: 20, Backwards: 3, Seq: 7, Holder: 1<<62 + 9}
	require.NoError(c, a.Release(c.ctx(), released))
	b := c.acquire(s2, req, "a taker right after the release: the pair is free at once")
	rec, st := b.Predecessor()
	require.Equal(c, lease.Present, st, "a released pair has a record")
	require.Equal(c, released, rec, "the released record, every field")

	plain := lease.Record{IssuedUpTo: 21, Backwards: 3}
	require.NoError(c, b.Renew(c.ctx(), lease.Record{IssuedUpTo: 30, Holder: 6}))
	require.NoError(c, b.Release(c.ctx(), plain), "a release without seq and holder")
	d := c.acquire(s1, req, "a taker after the second release")
	rec, st = d.Predecessor()
	require.Equal(c, lease.Present, st)
	require.Equal(c, plain, rec, "the second release's record: seq and holder back to 0")
	require.NoError(c, d.Abandon(c.ctx()))
	e := c.acquire(s2, req, "a taker after an abandon")
	rec, _ = e.Predecessor()
	require.Equal(c, plain, rec, "an abandon writes nothing")
}
