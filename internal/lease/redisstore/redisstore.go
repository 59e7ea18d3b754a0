// Package redisstore is the Redis lease store (worker=redis://… or
// rediss://…, Redis ≥ 6). Per pool, all under one hash tag so that every
// script touches one cluster slot:
//
//	idgen:{pool}:lock:D:W   the lock: the holder's random token, set only
//	                        if absent, expiring lease_ttl after its last
//	                        renewal by the server's clock (PX)
//	idgen:{pool}:rec:D:W    the record, a hash: fence, backwards, and the
//	                        writer's token, write number, epoch, host,
//	                        pid, time
//	idgen:{pool}:pool       the pool's marker: its incarnation (a random
//	                        id), when it was made, when the latest loss was
//	                        seen (the epoch), the server's replication id
//
// Renewals, fence writes and releases are scripts (EVALSHA) that check the
// holder's token and write in one atomic step; expiry and the skew
// estimate use Redis's clock (TIME). With ?wait=N every record write then
// waits for N replicas (WAIT) before it counts as acknowledged. The client
// speaks to one address (a server, a primary behind a virtual IP or a
// proxy); it follows no Cluster or Sentinel redirects.
//
// # Losing data
//
// Redis can lose what it held: a restart without persistence, FLUSHALL, a
// failover to a replica that lagged. A record lost that way was a fence,
// up to max_outage ahead of the time it was written, and nothing else
// remembers it; a stale one (a lagging replica's) is below the fence its
// holder has. The marker tells a taker what a record, or its absence,
// means:
//
//   - No marker: the pool is new here, or the whole database was lost. The
//     taker makes one (a new incarnation) and, like every taker that finds
//     the marker younger than lease_ttl, waits until it is lease_ttl old
//     before it reads what a missing record means. Every live holder
//     renews within lease_ttl/3, and marks a loss when it finds the marker
//     gone or of another incarnation, its record gone, or its record older
//     than its last acknowledged write.
//   - The marker keeps the server's replication id: a marker written under
//     another one outlived its server (a replica was promoted, or a server
//     restarted), and whoever sees that first, taker or holder, marks a
//     loss.
//   - A loss starts a new incarnation and epoch (the marker's lost time);
//     every record carries the epoch it was written in. A taker waits
//     until lease_ttl has passed since the latest loss, so that every live
//     holder has set its lock and published its fence again; then a pair
//     without a record, or whose record is older than the epoch, is
//     lease.Missing, its fence up to max_outage ahead: a time generator
//     takes it only once its clock is past that (the Keeper prefers pairs
//     with a record behind its clock, and waits when there are none); a
//     counter layout, which cannot wait, refuses it. Each such pair pays
//     that wait once: its first taker writes a record of the new epoch.
//   - No loss seen: a pair without a record never had one, lease.Fresh. The
//     first use of a new Redis waits for no fence, only for lease_ttl.
//
// Live holders meanwhile keep their pairs: while a holder's lock is its own
// or free, and its record is its own or gone, its renewal sets the lock
// again and publishes its fence; a pair that another holder holds or wrote
// is lease.ErrGone (the holder rides to its fence, which takers after the
// loss wait past, then leases again), never ErrRemoved.
//
// What is not covered: a loss of every holder's memory at once (all
// processes and the data, or a holder frozen or cut off for longer than
// lease_ttl exactly while Redis lost its data) looks like a new Redis;
// FLUSHALL on a server that keeps its replication id is seen only through
// the holders. ?wait=N makes a lock and a fence count only once N replicas
// have them, so a failover to one of those replicas loses nothing a holder
// relies on.
package redisstore

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// Store is one connection to a Redis server, made again when it breaks.
type Store struct {
	url       *config.StoreURL
	ttl       time.Duration
	probation time.Duration // how old a marker must be before a taker trusts it
	host, pid string

	mu     sync.Mutex // serialises the connection
	c      *conn      // nil while broken
	closed bool
	done   chan struct{}
	once   sync.Once
	clock  atomic.Pointer[clockNote] // the last clock a script returned
}

// Open connects (within ttl plus a few seconds) and reads the server's
// clock. Errors name host, port and db, never the password.
func Open(u *config.StoreURL, ttl time.Duration) (*Store, error) {
	host, _ := os.Hostname()
	s := &Store{url: u, ttl: ttl, probation: ttl, host: host, pid: strconv.Itoa(os.Getpid()), done: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), ttl+3*time.Second)
	defer cancel()
	if _, err := s.StoreNow(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// explain names what failed without the password.
func (s *Store) explain(err error) error {
	var re redisError
	reason := err.Error()
	switch {
	case errors.As(err, &re) && (re.prefix() == "WRONGPASS" || re.prefix() == "NOAUTH" || strings.Contains(string(re), "invalid password")):
		user := s.url.User
		if user == "" {
			user = "default"
		}
		reason = "authentication failed for user " + strconv.Quote(user) + " (" + string(re) + ")"
	case errors.Is(err, syscall.ECONNREFUSED):
		reason = "connection refused"
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded):
		reason = "no answer in time"
	}
	if s.url.Password != "" {
		reason = strings.ReplaceAll(reason, s.url.Password, "***")
	}
	return errs.New(errs.ErrWorker, "%s: %s", s.url.Where, reason)
}

// call runs one command, connecting first when there is no connection (a
// lease outlives a connection: the lock carries the holder's token).
func (s *Store) call(ctx context.Context, args ...string) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errs.New(errs.ErrWorker, "%s: the store is closed", s.url.Where)
	}
	if s.c == nil {
		c, err := dial(ctx, s.url.Servers[0], s.url.TLS, s.url.User, s.url.Password, s.url.DB)
		if err != nil {
			return nil, s.explain(err)
		}
		s.c = c
	}
	for i, a := range args {
		if a == replidArg {
			args[i] = s.c.replid
		}
	}
	v, err := s.c.do(ctx, args...)
	var re redisError
	if err != nil && !errors.As(err, &re) {
		s.c.close()
		s.c = nil
	}
	if err != nil {
		return nil, s.explain(err)
	}
	return v, nil
}

// replidArg in a command stands for the connection's replication id,
// read when it was made (so a command never carries another server's).
const replidArg = "\x00replid"

// eval runs a script by its SHA-1, sending it whole when the server does
// not know it (a restarted server forgot its scripts).
func (s *Store) eval(ctx context.Context, sc *script, keys []string, args ...string) ([]any, error) {
	tail := append(append([]string{strconv.Itoa(len(keys))}, keys...), args...)
	v, err := s.call(ctx, append([]string{"EVALSHA", sc.sha}, tail...)...)
	if err != nil && strings.Contains(err.Error(), "NOSCRIPT") {
		v, err = s.call(ctx, append([]string{"EVAL", sc.src}, tail...)...)
	}
	if err != nil {
		return nil, err
	}
	a, ok := v.([]any)
	if !ok || len(a) == 0 {
		return nil, errs.New(errs.ErrWorker, "%s: unexpected script reply %v", s.url.Where, v)
	}
	return a, nil
}

// clockNote is Redis's clock as a script last returned it: ms at local
// (monotonic) time at, the middle of the script's round trip.
type clockNote struct {
	ms int64
	at time.Time
}

// noteClock keeps the clock a script returned (ms, in decimal) for
// StoreNow; sent is when the script was sent.
func (s *Store) noteClock(ms string, sent time.Time) {
	v, err := strconv.ParseInt(ms, 10, 64)
	if err != nil {
		return
	}
	s.clock.Store(&clockNote{ms: v, at: sent.Add(time.Since(sent) / 2)})
}

// clockFresh is how long a clock a script returned stands in for TIME.
const clockFresh = time.Second

// StoreNow reads Redis's clock: as the last renewal script returned it,
// moved on by the time since, when that was within clockFresh (the
// Keeper reads it right after a renewal, so a renewal costs one command);
// else by TIME.
func (s *Store) StoreNow(ctx context.Context) (time.Time, error) {
	if n := s.clock.Load(); n != nil && time.Since(n.at) < clockFresh {
		return time.UnixMilli(n.ms).Add(time.Since(n.at)), nil
	}
	v, err := s.call(ctx, "TIME")
	if err != nil {
		return time.Time{}, err
	}
	a, _ := v.([]any)
	if len(a) != 2 {
		return time.Time{}, errs.New(errs.ErrWorker, "%s: unexpected TIME reply", s.url.Where)
	}
	sec, err1 := strconv.ParseInt(str(a[0]), 10, 64)
	us, err2 := strconv.ParseInt(str(a[1]), 10, 64)
	if err1 != nil || err2 != nil {
		return time.Time{}, errs.New(errs.ErrWorker, "%s: unexpected TIME reply", s.url.Where)
	}
	return time.Unix(sec, us*1000), nil
}

// Close drops the connection; claims stop keeping their locks.
func (s *Store) Close() error {
	s.once.Do(func() { close(s.done) })
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.c != nil {
		s.c.close()
		s.c = nil
	}
	return nil
}

// waitReplicas waits for ?wait=N replicas to have every write so far.
func (s *Store) waitReplicas(ctx context.Context) error {
	if s.url.Wait == 0 {
		return nil
	}
	ms := int64(1000)
	if d, ok := ctx.Deadline(); ok {
		ms = max(1, time.Until(d).Milliseconds()*3/4) // the rest for the answer to come back
	}
	v, err := s.call(ctx, "WAIT", strconv.Itoa(s.url.Wait), strconv.FormatInt(ms, 10))
	if err != nil {
		return err
	}
	if n, _ := v.(int64); n < int64(s.url.Wait) {
		return errs.New(errs.ErrWorker, "%s: only %d of %d replicas (?wait=%d) acknowledged the write within %d ms", s.url.Where, n, s.url.Wait, s.url.Wait, ms)
	}
	return nil
}

func newToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// keys of a pool and its pairs.
func markerKey(pool string) string { return "idgen:{" + pool + "}:pool" }
func lockKey(pool string, p lease.Pair) string {
	return fmt.Sprintf("idgen:{%s}:lock:%d:%d", pool, p.DC, p.Worker)
}
func recKey(pool string, p lease.Pair) string {
	return fmt.Sprintf("idgen:{%s}:rec:%d:%d", pool, p.DC, p.Worker)
}

func ms(d time.Duration) string { return strconv.FormatInt(max(1, d.Milliseconds()), 10) }

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
