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

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// Store is one connection to a Redis server, made again when it breaks.
type Store struct {
	url       *storeurl.StoreURL
	ttl       time.Duration
	probation time.Duration // how old a marker must be before a taker trusts it
	horizon   time.Duration // how long after a loss a lost record may hide a fence (forever: a counter layout)
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
// Its lease takers assume lost fences run at most 2·ttl ahead (the least
// max_outage, ttl, twice for clocks apart): OpenLeases says how far.
func Open(u *storeurl.StoreURL, ttl time.Duration) (*Store, error) {
	return OpenLeases(u, ttl, 2*ttl)
}

// OpenLeases is Open for a lease pool whose lost records may hide fences
// up to horizon past the moment the loss was seen (2·max_outage plus
// max_drift for a generator with a clock; forever for a counter layout,
// which no wait passes: Forever).
func OpenLeases(u *storeurl.StoreURL, ttl, horizon time.Duration) (*Store, error) {
	host, _ := os.Hostname()
	s := &Store{url: u, ttl: ttl, probation: ttl, horizon: horizon, host: host, pid: strconv.Itoa(os.Getpid()), done: make(chan struct{})}
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
func (s *Store) call(ctx context.Context, args ...string) (_ any, err error) {
	defer errs.Catch(&err, s.url.Where)
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
		switch a {
		case replidArg:
			args[i] = s.c.facts.replid
		case lossArg:
			if why := s.c.facts.unfit(s.url.User); why != "" {
				return nil, errs.New(errs.ErrWorker, "%s: %s", s.url.Where, why)
			}
			args[i] = flag(s.c.facts.mayHaveLost(s.horizon))
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
// read when it was made (so a command never carries another server's);
// lossArg for whether a pool this server has no marker of may have lost
// its data (facts.mayHaveLost), and a command carrying it is refused on a
// server the lease store cannot rely on (facts.unfit).
const (
	replidArg = "\x00replid"
	lossArg   = "\x00loss"
)

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
	return s.serverTime(ctx)
}

// MayLoseRecords implements lease.Lossy: any Redis may lose what it holds
// without a trace a taker can read (a restart without appendonly, a
// failover to a replica behind, FLUSHALL). The incarnation marker tells a
// taker that a loss happened, not what the lost records said.
func (s *Store) MayLoseRecords() bool { return true }

var _ lease.Lossy = (*Store)(nil)

// serverTime is the server's TIME.
func (s *Store) serverTime(ctx context.Context) (time.Time, error) {
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
