package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"sync/atomic"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// claim is one locked pair: its lock attached to the claim's own lease.
type claim struct {
	s       *Store
	lease   int64 // the etcd lease the lock is attached to
	pair    lease.Pair
	key     string // the record; the lock is key + ".lock"
	lockRev int64  // the lock's create revision

	recKV    *kv  // the record as read with the lock, when recKnown
	recKnown bool // false: read it separately
	rec      lease.Record
	state    lease.State
	created  int64            // the record's create revision: another one is a record made again
	mod      int64            // its mod revision after the claim's last acknowledged write
	pending  lease.Unanswered // writes sent since then whose answer never came

	done atomic.Bool
	held chan struct{} // closed at the first renewal, or when given up: keep stops
	once sync.Once
}

// maxPending bounds the unanswered writes a claim remembers.
const maxPending = 64

func (c *claim) lockKey() string { return c.key + ".lock" }

func (c *claim) Pair() lease.Pair                         { return c.pair }
func (c *claim) Predecessor() (lease.Record, lease.State) { return c.rec, c.state }
func (c *claim) Where() string                            { return "key " + c.key + " on " + c.s.url.Where }

// lock creates the lock if it is absent, reading the record in the same
// transaction. A lock found attached to the claim's lease is its own (an
// earlier try landed though its answer was lost).
func (c *claim) lock(ctx context.Context) (bool, error) {
	lk := c.lockKey()
	r, err := c.s.c.txn(ctx, []obj{createdIs(lk, 0)},
		[]obj{put(lk, lockValue(c.lease), c.lease), get(c.key)},
		[]obj{get(lk)})
	if err != nil {
		return false, c.s.fail("create the lock "+lk, err)
	}
	if r.Succeeded {
		c.lockRev, c.recKV, c.recKnown = r.Header.Revision, r.ranged(1), true
		return true, nil
	}
	if l := r.ranged(0); l != nil && l.Lease == c.lease {
		c.lockRev = l.CreateRevision
		return true, nil
	}
	return false, nil
}

// claimRecord reads what the locked pair's record says; a pair without one
// gets its record now, before any id.
func (c *claim) claimRecord(ctx context.Context) error {
	rk := c.recKV
	if !c.recKnown {
		var err error
		if rk, err = c.s.c.read(ctx, c.key); err != nil {
			return c.s.fail("read the record "+c.key, err)
		}
	}
	if rk == nil {
		return c.create(ctx)
	}
	return c.present(rk)
}

// present takes rk as the predecessor's record, whatever its value.
func (c *claim) present(rk *kv) error {
	rec, ok := parse(rk.Value)
	if !ok {
		return errs.New(errs.ErrWorker, "%s: the record %s is not an idgen record (%q); remove it once no process uses the pair", c.s.url.Where, c.key, clip(rk.Value))
	}
	c.rec, c.state, c.created, c.mod = rec, lease.Present, rk.CreateRevision, rk.ModRevision
	return nil
}

// create makes the record of a new pair, only while the lock is the
// claim's and no record exists.
func (c *claim) create(ctx context.Context) error {
	lk := c.lockKey()
	r, err := c.s.c.txn(ctx, []obj{createdIs(c.key, 0), leaseIs(lk, c.lease)},
		[]obj{put(c.key, format(lease.Record{}), 0)},
		[]obj{get(c.key), get(lk)})
	if err != nil {
		return c.s.fail("create the record "+c.key, err)
	}
	if r.Succeeded {
		c.state, c.created, c.mod = lease.Fresh, r.Header.Revision, r.Header.Revision
		return nil
	}
	rk, l := r.ranged(0), r.ranged(1)
	switch {
	case l == nil || l.Lease != c.lease:
		return errs.New(errs.ErrWorker, "%s: the lock %s went away while its record was made (the etcd lease %x expired)", c.s.url.Where, lk, c.lease)
	case rk != nil && rk.CreateRevision > c.lockRev:
		c.state, c.created, c.mod = lease.Fresh, rk.CreateRevision, rk.ModRevision // ours: an earlier try landed
		return nil
	case rk != nil:
		return c.present(rk)
	}
	return errs.New(errs.ErrWorker, "%s: the record %s could not be made", c.s.url.Where, c.key)
}

// unlock deletes the lock while it is the claim's (a skipped pair).
func (c *claim) unlock(ctx context.Context) error {
	lk := c.lockKey()
	if _, err := c.s.c.txn(ctx, []obj{leaseIs(lk, c.lease)}, []obj{del(lk)}, nil); err != nil {
		return c.s.fail("delete the lock "+lk, err)
	}
	return nil
}

// keep renews the lease every lease_ttl/3, in the background, until the
// claim's first renewal (or until it is given up): a taker holds its lock
// however long it waits for its predecessor's record.
func (c *claim) keep() {
	// lease.Keep guards keep: a panic stops the keeping; the first renewal
	// says what became of the lock.
	go lease.Keep(c.s.ttl, c.held, nil, func(ctx context.Context) bool {
		ttl, err := c.s.c.keepAlive(ctx, c.lease)
		return err == nil && ttl <= 0
	})
}

// kept stops keep.
func (c *claim) kept() { c.once.Do(func() { close(c.held) }) }

// Renew keeps the lease alive and writes the record, fenced on the lock.
func (c *claim) Renew(ctx context.Context, rec lease.Record) error {
	if c.done.Load() {
		return lease.Gone("released")
	}
	ttl, err := c.s.c.keepAlive(ctx, c.lease)
	if err != nil {
		return fmt.Errorf("keep-alive of etcd lease %x: %v", c.lease, err)
	}
	if ttl <= 0 {
		c.kept()
		return lease.Gone("the etcd lease %x of the lock %s expired", c.lease, c.lockKey())
	}
	err = c.write(ctx, rec)
	if err == nil || errors.Is(err, lease.ErrGone) {
		c.kept()
	}
	return err
}

// write puts rec as the record while the lock is attached to the claim's
// lease and the record is as the claim last wrote it. A record changed
// since by one of the claim's own unanswered writes is written over; any
// other change means the record no longer bounds what the holder issued.
func (c *claim) write(ctx context.Context, rec lease.Record) error {
	data := format(rec)
	c.pending.Add(data)
	lk := c.lockKey()
	for try := 0; try < 3; try++ {
		r, err := c.s.c.txn(ctx, []obj{leaseIs(lk, c.lease), modIs(c.key, c.mod)},
			[]obj{put(c.key, data, 0)},
			[]obj{get(c.key), get(lk)})
		if err != nil {
			return fmt.Errorf("write the record: %v", err)
		}
		if r.Succeeded {
			c.mod = r.Header.Revision
			c.pending.Answered()
			return nil
		}
		rk, l := r.ranged(0), r.ranged(1)
		switch {
		case rk == nil:
			return lease.Removed("the record key %s was deleted", c.key)
		case rk.CreateRevision != c.created:
			return lease.Removed("the record key %s was deleted and made again", c.key)
		case l == nil:
			return lease.Gone("the lock %s is gone: the etcd lease %x expired", lk, c.lease)
		case l.Lease != c.lease:
			return lease.Gone("the lock %s is held by etcd lease %x, not %x", lk, l.Lease, c.lease)
		case rk.ModRevision != c.mod && !c.pending.Has(rk.Value):
			return lease.Removed("the record key %s was written by someone else (%q) while the lock was the holder's", c.key, clip(rk.Value))
		}
		c.mod = rk.ModRevision // one of our unanswered writes landed
	}
	return fmt.Errorf("the record %s kept changing under the claim's own unanswered writes", c.key)
}

// Release writes the final record and revokes the lease (the lock goes).
func (c *claim) Release(ctx context.Context, rec lease.Record) error {
	if c.done.Load() {
		return nil
	}
	err := c.write(ctx, rec)
	_ = c.Abandon(ctx)
	return err
}

// Abandon revokes the lease without writing the record.
func (c *claim) Abandon(ctx context.Context) error {
	if c.done.Swap(true) {
		return nil
	}
	c.kept()
	c.s.mu.Lock()
	delete(c.s.claims, c)
	c.s.mu.Unlock()
	if err := c.s.c.revoke(ctx, c.lease); err != nil {
		return fmt.Errorf("revoke etcd lease %x: %v", c.lease, err)
	}
	return nil
}

func format(r lease.Record) []byte        { return lease.FormatText(r) }
func parse(b []byte) (lease.Record, bool) { return lease.ParseText(b) }

// lockValue says who holds a lock, for operators (etcdctl get).
func lockValue(id int64) []byte {
	host, _ := os.Hostname()
	return []byte(fmt.Sprintf("idgen host=%s pid=%d lease=%x", host, os.Getpid(), id))
}
