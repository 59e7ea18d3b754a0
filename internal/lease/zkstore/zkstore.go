// Package zkstore is the ZooKeeper lease store (worker=zk://…). Under the
// root znode (default /idgen), each pool is a persistent node, and each
// pair of it has two nodes:
//
//	<root>/<pool>/<dc>.<worker>        persistent: the record ("idgen-lease 1 <issued_up_to> <backwards>")
//	<root>/<pool>/<dc>.<worker>.lock   ephemeral: the lock, tied to the holder's session
//
// The session timeout is lease_ttl, so a dead holder's lock vanishes with
// its session. Every write of a record is a compare-and-set on the node's
// version: a taker first rewrites the record it read (claiming it), so a
// holder that lost its session without noticing can no longer renew, and
// a renewal that lands between the taker's read and its claim makes the
// claim fail and the taker read again.
//
// The Go client silently opens a new session after one expires. A claim
// belongs to the session that owns its lock node (its ephemeral owner):
// once the client's session id differs, the claim is gone, while the store
// goes on leasing in the new session (a new lock), so a holder whose
// session expired can lease again by itself.
//
// A renewal refused for its version is not always someone else's write:
// a renewal whose answer never came (slower than the caller's deadline,
// or its connection dropped) may have landed. While the lock is still the
// claim's session's, nobody else can have claimed the record, so a record
// that holds one of the claim's unanswered writes is its own.
package zkstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// Store is a connection to an ensemble.
type Store struct {
	url  *config.StoreURL
	conn *zk.Conn
	acl  []zk.ACL
	ttl  time.Duration
}

type quiet struct{}

func (quiet) Printf(string, ...any) {}

// Open connects and waits, for at most ttl plus a few seconds, for a
// session. An unreachable ensemble is errs.ErrWorker naming it.
func Open(u *config.StoreURL, ttl time.Duration) (*Store, error) {
	conn, events, err := zk.Connect(u.Servers, ttl, zk.WithLogger(quiet{}), zk.WithLogInfo(false))
	if err != nil {
		return nil, errs.New(errs.ErrWorker, "%s: %v", u.Where(), err)
	}
	deadline := time.NewTimer(ttl + 3*time.Second)
	defer deadline.Stop()
	for conn.State() != zk.StateHasSession {
		select {
		case ev := <-events:
			if ev.State == zk.StateAuthFailed {
				conn.Close()
				return nil, errs.New(errs.ErrWorker, "%s: authentication failed", u.Where())
			}
		case <-deadline.C:
			conn.Close()
			return nil, errs.New(errs.ErrWorker, "%s is unreachable: no session within %s (lease_ttl + 3s)", u.Where(), ttl+3*time.Second)
		}
	}
	go func() { // the client's event channel is dropped on the floor when full; drain it
		for range events {
		}
	}()
	s := &Store{url: u, conn: conn, ttl: ttl, acl: zk.WorldACL(zk.PermAll)}
	if u.User != "" {
		if err := s.call(context.Background(), func() error { return conn.AddAuth("digest", []byte(u.User+":"+u.Password)) }); err != nil {
			conn.Close()
			return nil, errs.New(errs.ErrWorker, "%s: digest authentication failed: %v", u.Where(), err)
		}
		// Only this identity may change the nodes; everyone may read them.
		s.acl = append(zk.DigestACL(zk.PermAll, u.User, u.Password), zk.WorldACL(zk.PermRead)...)
	}
	return s, nil
}

// Close ends the session: its locks vanish at once.
func (s *Store) Close() error {
	s.conn.Close()
	return nil
}

// call runs a client call with a deadline: the client queues requests
// while it is disconnected, and a lease must never wait on it for long.
func (s *Store) call(ctx context.Context, f func() error) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.ttl)
		defer cancel()
	}
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("no answer from %s: %w", s.url.Where(), ctx.Err())
	}
}

// explain turns a client error into words for an operator.
func (s *Store) explain(what string, err error) error {
	switch {
	case errors.Is(err, zk.ErrNoAuth):
		return errs.New(errs.ErrWorker, "%s: not authorized to %s (the nodes under %s belong to another identity: wrong user or password?)", s.url.Where(), what, s.url.Root)
	case errors.Is(err, zk.ErrAuthFailed):
		return errs.New(errs.ErrWorker, "%s: authentication failed", s.url.Where())
	}
	return errs.New(errs.ErrWorker, "%s: cannot %s: %v", s.url.Where(), what, err)
}

// ensure creates path and its parents as persistent nodes.
func (s *Store) ensure(ctx context.Context, path string) error {
	at := ""
	for _, part := range strings.Split(strings.TrimPrefix(path, "/"), "/") {
		at += "/" + part
		err := s.call(ctx, func() error {
			_, err := s.conn.Create(at, nil, zk.FlagPersistent, s.acl)
			return err
		})
		if err != nil && !errors.Is(err, zk.ErrNodeExists) {
			return s.explain("create "+at, err)
		}
	}
	return nil
}

// set writes a node with a version check. Unlike a client call through
// call, its result reaches the caller only if it came in time (a late
// answer is dropped, never stored behind the caller's back).
func (s *Store) set(ctx context.Context, path string, data []byte, version int32) (*zk.Stat, error) {
	var st *zk.Stat
	err := s.call(ctx, func() error {
		var err error
		st, err = s.conn.Set(path, data, version)
		return err
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// get reads a node.
func (s *Store) get(ctx context.Context, path string) ([]byte, *zk.Stat, error) {
	type res struct {
		data []byte
		st   *zk.Stat
	}
	var r res
	err := s.call(ctx, func() error {
		var err error
		r.data, r.st, err = s.conn.Get(path)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return r.data, r.st, nil
}

// lockOwner is the session owning a lock node (0: no such node).
func (s *Store) lockOwner(ctx context.Context, path string) (int64, error) {
	var owner int64
	err := s.call(ctx, func() error {
		ok, st, err := s.conn.Exists(path)
		if err == nil && ok {
			owner = st.EphemeralOwner
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	return owner, nil
}

// Acquire takes the lowest pair whose lock node it can create, in the
// client's current session: after an expiry, the new one (requests wait,
// within ctx, while the client connects).
func (s *Store) Acquire(ctx context.Context, req lease.Request) (lease.Claim, error) {
	poolPath := s.url.Root + "/" + req.Pool.Name
	if err := s.ensure(ctx, poolPath); err != nil {
		return nil, err
	}
	held, skipped := 0, 0
	for _, p := range req.Candidates() {
		name := poolPath + "/" + strconv.FormatInt(p.DC, 10) + "." + strconv.FormatInt(p.Worker, 10)
		sid := s.conn.SessionID()
		err := s.call(ctx, func() error {
			_, err := s.conn.Create(name+".lock", []byte(fmt.Sprintf("session %#x holder %s", sid, lease.HolderID())), zk.FlagEphemeral, s.acl)
			return err
		})
		if errors.Is(err, zk.ErrNodeExists) {
			held++
			continue
		}
		if err != nil {
			return nil, s.explain("create the lock "+name+".lock", err)
		}
		c := &claim{s: s, name: name, pair: p}
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
		if err := c.claim(ctx); err != nil {
			_ = c.Abandon(ctx)
			return nil, err
		}
		if req.Skips(p, c.rec, c.state) {
			_ = c.Abandon(ctx)
			skipped++
			continue
		}
		return c, nil
	}
	n := req.Count()
	what := fmt.Sprintf("all %d pairs of pool %s", n, req.Pool.Name)
	if req.DC >= 0 {
		what = fmt.Sprintf("all %d workers of datacenter %d in pool %s (%d pairs)", n, req.DC, req.Pool.Name, req.Pool.Size())
	}
	msg := fmt.Sprintf("%s are taken on %s under %s: %d held by live sessions", what, s.url.Where(), s.url.Root, held)
	if skipped > 0 {
		msg += fmt.Sprintf(", %d with records ahead of the clock", skipped)
	}
	return nil, errs.New(errs.ErrWorker, "%s", msg)
}

// claim is one locked pair.
type claim struct {
	s       *Store
	name    string
	pair    lease.Pair
	session int64 // the session owning the lock node
	rec     lease.Record
	state   lease.State
	version int32    // the record node's version after our last acknowledged write
	pending [][]byte // writes sent since then whose answer never came
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
			return errs.New(errs.ErrWorker, "%s: the record %s is not an idgen record (%q); remove it once no process uses the pair", c.s.url.Where(), c.name, clip(data))
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
	return errs.New(errs.ErrWorker, "%s: the record %s keeps changing; is another holder still renewing it?", c.s.url.Where(), c.name)
}

func (c *claim) Pair() lease.Pair                         { return c.pair }
func (c *claim) Predecessor() (lease.Record, lease.State) { return c.rec, c.state }
func (c *claim) Where() string                            { return "znode " + c.name + " on " + c.s.url.Where() }

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
	if len(c.pending) == maxPending {
		c.pending = append(c.pending[:0], c.pending[1:]...)
	}
	c.pending = append(c.pending, data)
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
	c.version, c.pending = st.Version, c.pending[:0]
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
		if !c.sent(got) {
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

// sent reports whether data is one of the claim's unanswered writes.
func (c *claim) sent(data []byte) bool {
	for _, p := range c.pending {
		if string(p) == string(data) {
			return true
		}
	}
	return false
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

func format(r lease.Record) []byte        { return lease.FormatText(r) }
func parse(b []byte) (lease.Record, bool) { return lease.ParseText(b) }

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}
