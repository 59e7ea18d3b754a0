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
// claim fail and the taker read again. The Go client silently opens a new
// session after one expires; a holder compares session ids and treats a
// new session as a lost lease.
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
	url     *config.StoreURL
	conn    *zk.Conn
	session int64
	acl     []zk.ACL
	ttl     time.Duration
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
	s := &Store{url: u, conn: conn, session: conn.SessionID(), ttl: ttl, acl: zk.WorldACL(zk.PermAll)}
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

func (s *Store) sessionOK() error {
	if id := s.conn.SessionID(); id != s.session {
		return lease.Gone("the ZooKeeper session %#x expired (the client now has %#x)", s.session, id)
	}
	return nil
}

// Acquire takes the lowest pair whose lock node it can create.
func (s *Store) Acquire(ctx context.Context, req lease.Request) (lease.Claim, error) {
	if err := s.sessionOK(); err != nil {
		return nil, errs.New(errs.ErrWorker, "%s: %v", s.url.Where(), err)
	}
	poolPath := s.url.Root + "/" + req.Pool.Name
	if err := s.ensure(ctx, poolPath); err != nil {
		return nil, err
	}
	held, skipped := 0, 0
	for _, p := range req.Candidates() {
		name := poolPath + "/" + strconv.FormatInt(p.DC, 10) + "." + strconv.FormatInt(p.Worker, 10)
		err := s.call(ctx, func() error {
			_, err := s.conn.Create(name+".lock", []byte(fmt.Sprintf("session %#x", s.session)), zk.FlagEphemeral, s.acl)
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
	rec     lease.Record
	state   lease.State
	version int32 // the record node's version after our last write
	done    bool
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
		err = c.s.call(ctx, func() error {
			st2, err := c.s.conn.Set(c.name, data, st.Version)
			if err == nil {
				c.version = st2.Version
			}
			return err
		})
		if errors.Is(err, zk.ErrBadVersion) {
			continue // the previous holder renewed meanwhile: read again
		}
		if err != nil {
			return c.s.explain("claim the record "+c.name, err)
		}
		c.rec, c.state = rec, lease.Present
		if rec.IssuedUpTo == 0 && rec.Backwards == 0 {
			c.state = lease.Fresh // made but never used
		}
		return nil
	}
	return errs.New(errs.ErrWorker, "%s: the record %s keeps changing; is another holder still renewing it?", c.s.url.Where(), c.name)
}

func (c *claim) Pair() lease.Pair                         { return c.pair }
func (c *claim) Predecessor() (lease.Record, lease.State) { return c.rec, c.state }
func (c *claim) Where() string                            { return "znode " + c.name + " on " + c.s.url.Where() }

// Renew writes the record with a version check, in our session only.
func (c *claim) Renew(ctx context.Context, rec lease.Record) error {
	if c.done {
		return lease.Gone("released")
	}
	if err := c.s.sessionOK(); err != nil {
		return err
	}
	err := c.s.call(ctx, func() error {
		st, err := c.s.conn.Set(c.name, format(rec), c.version)
		if err == nil {
			c.version = st.Version
		}
		return err
	})
	switch {
	case errors.Is(err, zk.ErrBadVersion), errors.Is(err, zk.ErrNoNode):
		return lease.Gone("the record %s was written by someone else", c.name)
	case errors.Is(err, zk.ErrSessionExpired):
		return lease.Gone("the ZooKeeper session expired")
	case err != nil:
		return err
	}
	// The session may have been replaced while the write was under way;
	// then the write went out in the new session and proves nothing.
	return c.s.sessionOK()
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
	if c.s.sessionOK() != nil {
		return nil // the lock went with the old session
	}
	return c.s.call(ctx, func() error { return c.s.conn.Delete(c.name+".lock", -1) })
}

func format(r lease.Record) []byte {
	return []byte(fmt.Sprintf("idgen-lease 1 %d %d", r.IssuedUpTo, r.Backwards))
}

func parse(b []byte) (lease.Record, bool) {
	f := strings.Fields(string(b))
	if len(f) != 4 || f[0] != "idgen-lease" || f[1] != "1" {
		return lease.Record{}, false
	}
	v, err1 := strconv.ParseInt(f[2], 10, 64)
	bw, err2 := strconv.ParseInt(f[3], 10, 64)
	if err1 != nil || err2 != nil || v < 0 || bw < 0 || string(b) != string(format(lease.Record{IssuedUpTo: v, Backwards: bw})) {
		return lease.Record{}, false
	}
	return lease.Record{IssuedUpTo: v, Backwards: bw}, true
}

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}
