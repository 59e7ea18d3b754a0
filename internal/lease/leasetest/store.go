// Package leasetest is what lease stores are tested with: Suite and
// CounterSuite, the contract every lease store and every segment counter
// store meets, and an in-memory lease store for tests: the protocol of a
// real store (exclusive claims, records that outlive their holders) with
// faults on demand: renewals that fail for a while, and claims taken away.
package leasetest

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/idgen/idgen/internal/lease"
)

type key struct {
	pool string
	pair lease.Pair
}

// Store keeps leases in memory. Several generators may share one; Close
// does nothing.
type Store struct {
	mu     sync.Mutex
	recs   map[key]lease.Record
	holder map[key]*claim

	// FailRenewals makes every renewal fail (a store out of reach) while set.
	FailRenewals atomic.Bool
	// Renewals counts the renewals the store acknowledged.
	Renewals atomic.Int64
	// Lossy: the store says it may lose records without a trace
	// (lease.Lossy), as Redis does. Set it before the first Acquire.
	Lossy bool
}

// New is an empty store.
func New() *Store { return &Store{recs: map[key]lease.Record{}, holder: map[key]*claim{}} }

// MayLoseRecords implements lease.Lossy.
func (s *Store) MayLoseRecords() bool { return s.Lossy }

// Close does nothing: the store outlives the generators of a test.
func (s *Store) Close() error { return nil }

// Record is a pair's record, and whether it has one.
func (s *Store) Record(pool string, p lease.Pair) (lease.Record, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.recs[key{pool, p}]
	return r, ok
}

// SetRecord plants a record (a predecessor's).
func (s *Store) SetRecord(pool string, p lease.Pair, r lease.Record) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recs[key{pool, p}] = r
}

// Kick takes a pair away from its holder, as an expired session would.
func (s *Store) Kick(pool string, p lease.Pair) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.holder, key{pool, p})
}

// Acquire takes the lowest pair nobody holds (lease.Scan).
func (s *Store) Acquire(_ context.Context, req lease.Request) (lease.Claim, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	try := func(p lease.Pair) (lease.Claim, lease.Missed, error) {
		k := key{req.Pool.Name, p}
		if s.holder[k] != nil {
			return nil, lease.Missed{Kind: lease.Held}, nil
		}
		c := &claim{s: s, k: k, state: lease.Fresh}
		if r, ok := s.recs[k]; ok {
			c.rec, c.state = r, lease.Present
		}
		return c, lease.Missed{}, nil
	}
	noHolderYet := func(lease.Claim) (string, error) { return "", nil }
	got, err := lease.Scan(req, try, noHolderYet, func(lease.Tally) error { return lease.PoolFull(req, "(memory store)") })
	if err != nil {
		return nil, err
	}
	c := got.(*claim)
	s.holder[c.k] = c
	return c, nil
}

// List implements lease.Lister: the pool's pairs that have a record or a
// holder, lowest first.
func (s *Store) List(_ context.Context, pool lease.Pool) ([]lease.Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	byPair := map[lease.Pair]lease.Entry{}
	for k, r := range s.recs {
		if k.pool == pool.Name {
			byPair[k.pair] = lease.Entry{Pair: k.pair, Record: r}
		}
	}
	for k, c := range s.holder {
		if k.pool == pool.Name && c != nil {
			e := byPair[k.pair]
			e.Pair, e.Held = k.pair, true
			byPair[k.pair] = e
		}
	}
	var out []lease.Entry
	for _, e := range byPair {
		out = append(out, e)
	}
	lease.SortEntries(out)
	return out, nil
}

type claim struct {
	s     *Store
	k     key
	rec   lease.Record
	state lease.State
}

func (c *claim) Pair() lease.Pair                         { return c.k.pair }
func (c *claim) Predecessor() (lease.Record, lease.State) { return c.rec, c.state }
func (c *claim) Where() string                            { return "memory lease " + c.k.pool + " " + c.k.pair.String() }

func (c *claim) write(rec lease.Record, release bool) error {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if c.s.holder[c.k] != c {
		return lease.Gone("taken away")
	}
	if c.s.FailRenewals.Load() {
		return errors.New("injected failure: the store is out of reach")
	}
	c.s.recs[c.k] = rec
	if release {
		delete(c.s.holder, c.k)
	} else {
		c.s.Renewals.Add(1)
	}
	return nil
}

func (c *claim) Renew(_ context.Context, rec lease.Record) error   { return c.write(rec, false) }
func (c *claim) Release(_ context.Context, rec lease.Record) error { return c.write(rec, true) }

func (c *claim) Abandon(context.Context) error {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if c.s.holder[c.k] == c {
		delete(c.s.holder, c.k)
	}
	return nil
}
