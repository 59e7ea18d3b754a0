package zkstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-zookeeper/zk"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// claim is one locked pair.
type claim struct {
	s       *Store
	name    string
	pair    lease.Pair
	session int64 // the session owning the lock node
	rec     lease.Record
	state   lease.State
	version int32            // the record node's version after our last acknowledged write
	pending lease.Unanswered // writes sent since then whose answer never came
	done    bool
}

// maxPending bounds the unanswered writes a claim remembers (a renewal is
// tried every lease_ttl/10 or so while its store is out of reach).
const maxPending = 256

func (c *claim) sessionOK() error {
	if id := c.s.conn.SessionID(); id != c.session {
		return lease.Gone("the ZooKeeper session %#x of the lock expired (the client now has %#x)", c.session, id)
	}
	return nil
}

// claim reads the record and rewrites it at once with a version check, so
// that nobody else can write it any more: from here the record read is the
// one to stay above.
func (c *claim) claim(ctx context.Context) error {
	for try := 0; try < 5; try++ {
		var data []byte
		var st *zk.Stat
		err := c.s.call(ctx, func() error {
			var err error
			data, st, err = c.s.conn.Get(c.name)
			return err
		})
		if errors.Is(err, zk.ErrNoNode) {
			// A new pair: its record is made before the first id.
			err = c.s.call(ctx, func() error {
				_, err := c.s.conn.Create(c.name, format(lease.Record{}), zk.FlagPersistent, c.s.acl)
				return err
			})
			if err != nil && !errors.Is(err, zk.ErrNodeExists) {
				return c.s.explain("create the record "+c.name, err)
			}
			if err == nil {
				c.state, c.version = lease.Fresh, 0
				return nil
			}
			continue
		}
		if err != nil {
			return c.s.explain("read the record "+c.name, err)
		}
		rec, ok := parse(data)
		if !ok {
			return errs.New(errs.ErrWorker, "%s: the record %s is not an idgen record (%q); remove it once no process uses the pair", c.s.url.Where, c.name, clip(data))
		}
		st2, err := c.s.set(ctx, c.name, data, st.Version)
		if errors.Is(err, zk.ErrBadVersion) {
			continue // the previous holder renewed meanwhile: read again
		}
		if err != nil {
			return c.s.explain("claim the record "+c.name, err)
		}
		// A record is a record whatever its value: only a pair without one
		// is new (a record at 0 may be a predecessor's last word).
		c.rec, c.state, c.version = rec, lease.Present, st2.Version
		return nil
	}
	return errs.New(errs.ErrWorker, "%s: the record %s keeps changing; is another holder still renewing it?", c.s.url.Where, c.name)
}

func (c *claim) Pair() lease.Pair                         { return c.pair }
func (c *claim) Predecessor() (lease.Record, lease.State) { return c.rec, c.state }
func (c *claim) Where() string                            { return "znode " + c.name + " on " + c.s.url.Where }

// Renew writes the record with a version check, in the lock's session
// only.
func (c *claim) Renew(ctx context.Context, rec lease.Record) error {
	if c.done {
		return lease.Gone("released")
	}
	if err := c.sessionOK(); err != nil {
		return err
	}
	data := format(rec)
	c.pending.Add(data)
	st, err := c.s.set(ctx, c.name, data, c.version)
	if errors.Is(err, zk.ErrBadVersion) {
		st, err = c.rewrite(ctx, data)
	}
	switch {
	case errors.Is(err, lease.ErrGone):
		return err
	case errors.Is(err, zk.ErrNoNode):
		return lease.Removed("the record %s was deleted", c.name)
	case errors.Is(err, zk.ErrSessionExpired):
		return lease.Gone("the ZooKeeper session expired")
	case err != nil:
		return err
	}
	c.version = st.Version
	c.pending.Answered()
	// The session may have been replaced while the write was under way;
	// then the write went out in the new session and proves nothing.
	return c.sessionOK()
}

// rewrite answers a write refused for its version: the record changed
// since the claim's last acknowledged write. While the lock is still the
// claim's session's nobody else can have claimed the record, so if it
// holds one of the claim's own unanswered writes (one that landed though
// its answer never came), the claim writes again over that version;
// anything else was written by someone else.
func (c *claim) rewrite(ctx context.Context, data []byte) (*zk.Stat, error) {
	for try := 0; try < 3; try++ {
		got, st, err := c.s.get(ctx, c.name)
		if err != nil {
			return nil, err
		}
		owner, err := c.s.lockOwner(ctx, c.name+".lock")
		if err != nil {
			return nil, err
		}
		if owner != c.session {
			return nil, lease.Gone("the lock %s.lock is no longer held by session %#x", c.name, c.session)
		}
		if !c.pending.Has(got) {
			return nil, lease.Gone("the record %s was written by someone else (%q)", c.name, clip(got))
		}
		st2, err := c.s.set(ctx, c.name, data, st.Version)
		if errors.Is(err, zk.ErrBadVersion) {
			continue // another of our unanswered writes landed meanwhile
		}
		return st2, err
	}
	// Still our lock, and only our own writes in the way: not gone, but
	// not renewed either; the caller tries again.
	return nil, fmt.Errorf("the record %s kept changing under the claim's own unanswered writes", c.name)
}

// Release writes the final record and deletes the lock.
func (c *claim) Release(ctx context.Context, rec lease.Record) error {
	if c.done {
		return nil
	}
	err := c.Renew(ctx, rec)
	_ = c.Abandon(ctx)
	return err
}

// Abandon deletes the lock without writing the record.
func (c *claim) Abandon(ctx context.Context) error {
	if c.done {
		return nil
	}
	c.done = true
	if c.sessionOK() != nil {
		return nil // the lock went with its session (and the name may be another session's lock now)
	}
	return c.s.call(ctx, func() error { return c.s.conn.Delete(c.name+".lock", -1) })
}
