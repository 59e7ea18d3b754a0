// Package pgstore is the PostgreSQL lease store (worker=postgres://…): one
// row per (pool, datacenter, worker) in one table (idgen_lease, or
// lease_table=), created on first use unless it exists (a DBA may create
// it beforehand for a role that may only SELECT, INSERT and UPDATE it;
// Open then creates nothing, and says what to create when it is missing
// and the role cannot create it):
//
//	pool, datacenter, worker   the pair (primary key)
//	holder                     the holder's random token; NULL when free
//	expires_at                 the lease expiry in database time; NULL when free
//	issued_up_to, backwards    the record
//
// Expiries are rounded up to bucket boundaries the way ZooKeeper's session
// tracker rounds session expiries: expires = (⌊(now + ttl) / interval⌋ + 1)
// · interval, with interval = lease_ttl/4. All leases renewed within one
// interval expire together, and a taker finds expired rows by an index on
// (pool, expires_at). A dead holder's row is free within lease_ttl plus one
// interval.
//
// A taker claims a free or expired row with FOR UPDATE SKIP LOCKED, so
// racing takers never wait on each other; renewals and releases update the
// row only while it still carries the holder's token. A row with no record
// is new (Fresh) only when the taker made it; an existing row is the
// predecessor's record whatever its value. Until its first renewal a claim
// keeps its row from expiring by itself (every lease_ttl/3), as a
// ZooKeeper session keeps a lock: a taker may wait for the predecessor's
// record longer than lease_ttl before it writes anything.
package pgstore

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// DefaultTable is the table name without lease_table=.
const DefaultTable = "idgen_lease"

// Interval and Expiry are the SQL stores' buckets (sqlclaim's).
var (
	Interval = sqlclaim.Interval
	Expiry   = sqlclaim.Expiry
)

// Store is one connection to the database.
type Store struct {
	url   *storeurl.StoreURL
	conn  *pgconn.PgConn
	table string // quoted
	plain string // as given
	index string // quoted
	ttl   time.Duration
	seq   bool // the table has next_seq and writer (an older table may not: see seq.go)

	mu     sync.Mutex // serialises the connection
	closed bool       // under mu: no more statements, no reconnecting
	done   chan struct{}
	once   sync.Once
}

// connect makes the connection within ctx. Errors name host, port and
// database, never the password.
func connect(ctx context.Context, u *storeurl.StoreURL, table string, ttl time.Duration) (*Store, error) {
	if table == "" {
		table = DefaultTable
	}
	conn, err := pgconn.Connect(ctx, u.Raw)
	if err != nil {
		return nil, explainConnect(u, err)
	}
	return &Store{url: u, conn: conn, table: quoteIdent(table), plain: table, index: quoteIdent(table + "_expiry"), ttl: ttl, done: make(chan struct{})}, nil
}

// quoteIdent quotes an identifier (config checked it is plain already).
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// explainConnect names what failed without the password.
func explainConnect(u *storeurl.StoreURL, err error) error {
	var pe *pgconn.PgError
	reason := "unreachable"
	switch {
	case errors.As(err, &pe) && (pe.Code == "28P01" || pe.Code == "28000"):
		reason = "authentication failed for user " + strconv.Quote(u.User)
	case errors.As(err, &pe) && pe.Code == "3D000":
		reason = "the database does not exist"
	case errors.As(err, &pe):
		reason = pe.Message + " (" + pe.Code + ")"
	case strings.Contains(err.Error(), "connection refused"):
		reason = "connection refused"
	case errors.Is(err, context.DeadlineExceeded) || pgconn.Timeout(err):
		reason = "no answer in time"
	}
	return errs.New(errs.ErrWorker, "%s: %s", u.Where, u.Scrub(reason))
}

func (s *Store) fail(what string, err error) error {
	msg := err.Error()
	if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) && pe.Code == "42501" && s.table != "" {
		msg += fmt.Sprintf(" (the role needs: GRANT SELECT, INSERT, UPDATE ON %s TO %s)", s.table, quoteIdent(s.url.User))
	}
	return errs.New(errs.ErrWorker, "%s: cannot %s: %s", s.url.Where, what, s.url.Scrub(msg))
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// expirySQL is Expiry in database time.
func (s *Store) expirySQL() string {
	iv := Interval(s.ttl).Milliseconds()
	return fmt.Sprintf("to_timestamp(((floor((extract(epoch from clock_timestamp()) * 1000 + %d) / %d) + 1) * %d) / 1000.0)",
		s.ttl.Milliseconds(), iv, iv)
}

// query runs one statement with text parameters and returns its rows,
// connecting again first if the connection was lost (a lease outlives a
// connection: the row carries the holder's token).
func (s *Store) query(ctx context.Context, sql string, args ...string) ([][]string, error) {
	if s.closed {
		return nil, errors.New("the store is closed")
	}
	if s.conn.IsClosed() {
		conn, err := pgconn.Connect(ctx, s.url.Raw)
		if err != nil {
			return nil, explainConnect(s.url, err)
		}
		s.conn = conn
	}
	params := make([][]byte, len(args))
	for i, a := range args {
		params[i] = []byte(a)
	}
	res := s.conn.ExecParams(ctx, sql, params, nil, nil, nil).Read()
	if res.Err != nil {
		return nil, res.Err
	}
	rows := make([][]string, len(res.Rows))
	for i, r := range res.Rows {
		rows[i] = make([]string, len(r))
		for j, v := range r {
			rows[i][j] = string(v)
		}
	}
	return rows, nil
}

// Close closes the connection; claims stop keeping their rows.
func (s *Store) Close() error {
	s.once.Do(func() { close(s.done) })
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	return s.conn.Close(ctx)
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }
