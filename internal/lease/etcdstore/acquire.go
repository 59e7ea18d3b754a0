package etcdstore

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/idgen/idgen/internal/lease"
)

// seconds is lease_ttl in whole seconds, rounded up: etcd's unit.
func seconds(ttl time.Duration) int64 {
	return max(1, int64(math.Ceil(ttl.Seconds())))
}

// Acquire grants a lease and locks the lowest free pair with it.
func (s *Store) Acquire(ctx context.Context, req lease.Request) (lease.Claim, error) {
	id, err := s.c.grant(ctx, seconds(s.ttl))
	if err != nil {
		return nil, s.fail("grant a lease", err)
	}
	pool := s.url.Root + "/" + req.Pool.Name + "/"
	try := func(p lease.Pair) (lease.Claim, lease.Missed, error) {
		c := &claim{s: s, lease: id, pair: p, key: pool + strconv.FormatInt(p.DC, 10) + "." + strconv.FormatInt(p.Worker, 10), held: make(chan struct{}), pending: lease.NewUnanswered(maxPending)}
		ok, err := c.lock(ctx)
		if err == nil && ok {
			err = c.claimRecord(ctx)
		}
		if err != nil || !ok {
			return nil, lease.Missed{Kind: lease.Held}, err
		}
		return c, lease.Missed{}, nil
	}
	giveBack := func(c lease.Claim) (string, error) { return "", c.(*claim).unlock(ctx) }
	got, err := lease.Scan(req, try, giveBack, func(t lease.Tally) error {
		return s.poolFull(req, t.Count(lease.Held), t.Count(lease.Skipped))
	})
	if err != nil {
		s.revoke(id)
		return nil, err
	}
	c := got.(*claim)
	s.mu.Lock()
	s.claims[c] = struct{}{}
	s.mu.Unlock()
	c.keep()
	return c, nil
}

// revoke gives a lease back, best effort (it expires anyway).
func (s *Store) revoke(id int64) {
	ctx, cancel := context.WithTimeout(context.Background(), max(s.ttl/2, time.Second))
	defer cancel()
	_ = s.c.revoke(ctx, id)
}

// poolFull is Acquire's error: held pairs were locked by live leases,
// skipped were free but rejected by req.
func (s *Store) poolFull(req lease.Request, held, skipped int) error {
	if skipped > 0 {
		return lease.PoolFull(req, "on %s under %s: %d locked by live leases, %d with records ahead of the clock", s.url.Where, s.url.Root, held, skipped)
	}
	return lease.PoolFull(req, "on %s under %s: %d locked by live leases", s.url.Where, s.url.Root, held)
}
