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
	"strings"
	"time"

	"github.com/go-zookeeper/zk"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// Store is a connection to an ensemble.
type Store struct {
	url  *storeurl.StoreURL
	conn *zk.Conn
	acl  []zk.ACL
	ttl  time.Duration
}

type quiet struct{}

func (quiet) Printf(string, ...any) {}

// Open connects and waits, for at most ttl plus a few seconds, for a
// session. An unreachable ensemble is errs.ErrWorker naming it.
func Open(u *storeurl.StoreURL, ttl time.Duration) (*Store, error) {
	conn, events, err := zk.Connect(u.Servers, ttl, zk.WithLogger(quiet{}), zk.WithLogInfo(false))
	if err != nil {
		return nil, errs.New(errs.ErrWorker, "%s: %v", u.Where, err)
	}
	deadline := time.NewTimer(ttl + 3*time.Second)
	defer deadline.Stop()
	for conn.State() != zk.StateHasSession {
		select {
		case ev := <-events:
			if ev.State == zk.StateAuthFailed {
				conn.Close()
				return nil, errs.New(errs.ErrWorker, "%s: authentication failed", u.Where)
			}
		case <-deadline.C:
			conn.Close()
			return nil, errs.New(errs.ErrWorker, "%s is unreachable: no session within %s (lease_ttl + 3s)", u.Where, ttl+3*time.Second)
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
			return nil, errs.New(errs.ErrWorker, "%s: digest authentication failed: %v", u.Where, err)
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
	// A panic in the client (a bug) fails the call, never the host.
	go errs.Guard(s.url.Where, func() { done <- f() }, func(err error) { done <- err })
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("no answer from %s: %w", s.url.Where, ctx.Err())
	}
}

// explain turns a client error into words for an operator.
func (s *Store) explain(what string, err error) error {
	switch {
	case errors.Is(err, zk.ErrNoAuth):
		return errs.New(errs.ErrWorker, "%s: not authorized to %s (the nodes under %s belong to another identity: wrong user or password?)", s.url.Where, what, s.url.Root)
	case errors.Is(err, zk.ErrAuthFailed):
		return errs.New(errs.ErrWorker, "%s: authentication failed", s.url.Where)
	}
	return errs.New(errs.ErrWorker, "%s: cannot %s: %v", s.url.Where, what, err)
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

func format(r lease.Record) []byte        { return lease.FormatText(r) }
func parse(b []byte) (lease.Record, bool) { return lease.ParseText(b) }

func clip(b []byte) string {
	if len(b) > 40 {
		return string(b[:40]) + "…"
	}
	return string(b)
}
