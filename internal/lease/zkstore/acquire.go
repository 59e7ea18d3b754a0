package zkstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/go-zookeeper/zk"

	"github.com/idgen/idgen/internal/lease"
)

// Acquire takes the lowest pair whose lock node it can create, in the
// client's current session: after an expiry, the new one (requests wait,
// within ctx, while the client connects).
func (s *Store) Acquire(ctx context.Context, req lease.Request) (lease.Claim, error) {
	poolPath := s.url.Root + "/" + req.Pool.Name
	if err := s.ensure(ctx, poolPath); err != nil {
		return nil, err
	}
	try := func(p lease.Pair) (lease.Claim, lease.Missed, error) {
		c, err := s.lock(ctx, poolPath, p)
		if err != nil || c == nil {
			return nil, lease.Missed{Kind: lease.Held}, err
		}
		if err := c.claim(ctx); err != nil {
			_ = c.Abandon(ctx)
			return nil, lease.Missed{}, err
		}
		return c, lease.Missed{}, nil
	}
	giveBack := func(c lease.Claim) (string, error) {
		_ = c.Abandon(ctx) // the lock is ephemeral: the session ends it anyway
		return "", nil
	}
	return lease.Scan(req, try, giveBack, func(t lease.Tally) error {
		if n := t.Count(lease.Skipped); n > 0 {
			return lease.PoolFull(req, "on %s under %s: %d held by live sessions, %d with records ahead of the clock", s.url.Where, s.url.Root, t.Count(lease.Held), n)
		}
		return lease.PoolFull(req, "on %s under %s: %d held by live sessions", s.url.Where, s.url.Root, t.Count(lease.Held))
	})
}

// lock creates pair p's lock node in the client's session: a claim whose
// record is not read yet, or nil when another session holds the lock.
func (s *Store) lock(ctx context.Context, poolPath string, p lease.Pair) (*claim, error) {
	name := poolPath + "/" + strconv.FormatInt(p.DC, 10) + "." + strconv.FormatInt(p.Worker, 10)
	sid := s.conn.SessionID()
	err := s.call(ctx, func() error {
		_, err := s.conn.Create(name+".lock", []byte(fmt.Sprintf("session %#x holder %s", sid, lease.HolderID())), zk.FlagEphemeral, s.acl)
		return err
	})
	if errors.Is(err, zk.ErrNodeExists) {
		return nil, nil
	}
	if err != nil {
		return nil, s.explain("create the lock "+name+".lock", err)
	}
	c := &claim{s: s, name: name, pair: p, pending: lease.NewUnanswered(maxPending)}
	// The claim is the lock's session's: the client may have sent the
	// create in a newer session than the one it had when asked.
	if c.session, err = s.lockOwner(ctx, name+".lock"); err != nil || c.session == 0 || c.session != s.conn.SessionID() {
		if err == nil {
			err = fmt.Errorf("the session changed while the lock was made")
		}
		if c.session != 0 && c.session == s.conn.SessionID() {
			_ = s.call(ctx, func() error { return s.conn.Delete(name+".lock", -1) })
		}
		return nil, s.explain("create the lock "+name+".lock", err)
	}
	return c, nil
}
