// Package etcdstore is the etcd lease store (worker=etcd://… or
// etcds://…), spoken through etcd's JSON gateway (/v3/…) with net/http:
// etcd's own Go client would double the library. Under the prefix
// (default /idgen), each pair of a pool has two keys:
//
//	<prefix>/<pool>/<dc>.<worker>        the record (lease.FormatText)
//	<prefix>/<pool>/<dc>.<worker>.lock   the lock, attached to the holder's etcd lease
//
// A taker grants an etcd lease of lease_ttl (in whole seconds, rounded
// up; etcd raises it to its own minimum, 1.5 election timeouts) and
// creates the lock only if it is absent (a transaction on its create
// revision), reading the record in the same transaction. A pair without
// a record is new: the taker makes the record (only while its lock is
// there) before Acquire returns. Every later write of the record is a
// transaction on its mod revision and on the lock still being attached to
// the holder's lease, so a holder whose lease expired can no longer write,
// and a taker reads a record no earlier holder changes after it.
//
// Renewal is a keep-alive of the lease plus that fenced write; a released
// claim writes its record and revokes its lease (the lock goes with it).
// A lease that expired is a lost lock (lease.ErrGone: the holder rides to
// its fence and leases again); a record deleted or made again under its
// holder bounds nothing any more (lease.ErrRemoved: it stops at once).
//
// etcd keeps leases alive across a leader change (the new leader renews
// them all), and the client fails over between the members given. With a
// user, the client authenticates (/v3/auth/authenticate) and sends the
// token; when the token expires it authenticates again. etcd 3.4 or later
// (the /v3 gateway paths); etcds:// verifies the server's certificate
// against the system's roots. etcd has no clock a holder could compare
// with: no skew estimate.
package etcdstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// Store is a connection to one cluster.
type Store struct {
	url *storeurl.StoreURL
	c   *client
	ttl time.Duration

	mu     sync.Mutex
	claims map[lease.Claim]struct{} // not yet given up: Close revokes their leases
}

// Open checks, within lease_ttl plus a few seconds, that the cluster
// answers a linearizable read (it has a leader) and, with a user, that the
// credentials are accepted. Errors name the members and the reason, never
// the password.
func Open(u *storeurl.StoreURL, ttl time.Duration) (*Store, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ttl+3*time.Second)
	defer cancel()
	s := &Store{url: u, c: newClient(u), ttl: ttl, claims: map[lease.Claim]struct{}{}}
	if _, err := s.c.read(ctx, u.Root+"/"); err != nil {
		s.c.close()
		return nil, s.fail("connect", err)
	}
	return s, nil
}

// fail is an errs.ErrWorker naming the cluster, what failed and why.
func (s *Store) fail(what string, err error) error {
	msg := err.Error()
	if re := (*rpcError)(nil); errors.As(err, &re) && re.Code == codePermissionDenied {
		msg += fmt.Sprintf(" (user %q needs read-write access to the keys under %s/)", s.url.User, s.url.Root)
	}
	if re := (*rpcError)(nil); errors.As(err, &re) && strings.Contains(re.Error(), "user name is empty") {
		msg += " (the cluster has authentication on: give user:password@ in the URL)"
	}
	if s.url.Password != "" {
		msg = strings.ReplaceAll(msg, s.url.Password, "***") // never, but surely never
	}
	return errs.New(errs.ErrWorker, "%s: cannot %s: %s", s.url.Where, what, msg)
}

// Close revokes the leases of claims still held and drops the
// connections.
func (s *Store) Close() error {
	s.mu.Lock()
	held := make([]lease.Claim, 0, len(s.claims))
	for c := range s.claims {
		held = append(held, c)
	}
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), max(s.ttl, time.Second))
	defer cancel()
	for _, c := range held {
		_ = c.Abandon(ctx)
	}
	s.c.close()
	return nil
}
