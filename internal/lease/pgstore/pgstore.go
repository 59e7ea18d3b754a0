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
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// DefaultTable is the table name without lease_table=.
const DefaultTable = "idgen_lease"

// Interval is the bucket width for a lease_ttl: a quarter of it, in whole
// milliseconds, at least 1 ms.
func Interval(ttl time.Duration) time.Duration {
	return max(time.Millisecond, (ttl / 4).Truncate(time.Millisecond))
}

// Expiry is the bucketed expiry of a lease renewed at now (unix ms):
// (⌊(now + ttl) / interval⌋ + 1) · interval. The database computes the
// same in SQL (expirySQL); this is its specification and its unit test.
func Expiry(nowMs int64, ttl time.Duration) int64 {
	iv := Interval(ttl).Milliseconds()
	return ((nowMs+ttl.Milliseconds())/iv + 1) * iv
}

// Store is one connection to the database.
type Store struct {
	url   *config.StoreURL
	conn  *pgconn.PgConn
	table string // quoted
	index string // quoted
	ttl   time.Duration
	seq   bool // the table has next_seq and writer (an older table may not: see seq.go)

	mu     sync.Mutex // serialises the connection
	closed bool       // under mu: no more statements, no reconnecting
	done   chan struct{}
	once   sync.Once
}

// Open connects (within ttl plus a few seconds) and creates the table if
// it is missing (only then: a table that exists is used as it is). Errors
// name host, port and database, never the password.
func Open(u *config.StoreURL, table string, ttl time.Duration) (*Store, error) {
	if table == "" {
		table = DefaultTable
	}
	ctx, cancel := context.WithTimeout(context.Background(), ttl+3*time.Second)
	defer cancel()
	conn, err := pgconn.Connect(ctx, u.Raw)
	if err != nil {
		return nil, explainConnect(u, err)
	}
	s := &Store{url: u, conn: conn, table: quoteIdent(table), index: quoteIdent(table + "_expiry"), ttl: ttl, done: make(chan struct{})}
	if err := s.ensureTable(ctx, table); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	return s, nil
}

// quoteIdent quotes an identifier (config checked it is plain already).
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// explainConnect names what failed without the password.
func explainConnect(u *config.StoreURL, err error) error {
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
	return errs.New(errs.ErrWorker, "%s: %s", u.Where(), reason)
}

func (s *Store) fail(what string, err error) error {
	msg := err.Error()
	if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) && pe.Code == "42501" && s.table != "" {
		msg += fmt.Sprintf(" (the role needs: GRANT SELECT, INSERT, UPDATE ON %s TO %s)", s.table, quoteIdent(s.url.User))
	}
	if s.url.Password != "" {
		msg = strings.ReplaceAll(msg, s.url.Password, "***")
	}
	return errs.New(errs.ErrWorker, "%s: cannot %s: %s", s.url.Where(), what, msg)
}

// ensureTable uses the table when it exists, whoever made it: a role with
// only SELECT, INSERT and UPDATE on it runs no CREATE. A missing table is
// made with its expiry index, once even when many processes race to (an
// advisory transaction lock serialises them); when the role cannot, the
// error gives the statements to run beforehand.
func (s *Store) ensureTable(ctx context.Context, plain string) error {
	rows, err := s.query(ctx, "SELECT to_regclass($1) IS NOT NULL, current_schema()", s.table)
	if err != nil {
		return s.fail("look for table "+s.table, err)
	}
	if rows[0][0] == "t" {
		return s.checkSeq(ctx)
	}
	sql := "BEGIN; SELECT pg_advisory_xact_lock(hashtext('idgen ' || " + quoteLiteral(plain) + ")); " + s.ddl(true) + " COMMIT"
	if _, err := s.conn.Exec(ctx, sql).ReadAll(); err != nil {
		schema := "no schema on the role's search_path exists"
		if rows[0][1] != "" {
			schema = "the role's schema is " + quoteIdent(rows[0][1])
		}
		return s.fail(fmt.Sprintf("create table %s (%s), which is missing", s.table, schema), fmt.Errorf(
			"%s; have it created beforehand, where the role finds it, by a role that may: %s GRANT SELECT, INSERT, UPDATE ON %s TO %s;",
			strings.TrimSuffix(err.Error(), "."), s.ddl(false), s.table, quoteIdent(s.url.User)))
	}
	return s.checkSeq(ctx) // IF NOT EXISTS: a racer's older table may lack next_seq
}

// ddl is the table and its index, as created on first use.
func (s *Store) ddl(ifNotExists bool) string {
	ine := ""
	if ifNotExists {
		ine = "IF NOT EXISTS "
	}
	return "CREATE TABLE " + ine + s.table + " (" +
		"pool text NOT NULL, datacenter bigint NOT NULL, worker bigint NOT NULL, " +
		"holder text, expires_at timestamptz, " +
		"issued_up_to bigint NOT NULL DEFAULT 0, backwards bigint NOT NULL DEFAULT 0, next_seq bigint NOT NULL DEFAULT 0, writer bigint NOT NULL DEFAULT 0, " +
		"PRIMARY KEY (pool, datacenter, worker)); " +
		"CREATE INDEX " + ine + s.index + " ON " + s.table + " (pool, expires_at);"
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

// Acquire claims the lowest free or expired pair; when none is, it makes
// the row of the lowest pair that has none.
func (s *Store) Acquire(ctx context.Context, req lease.Request) (lease.Claim, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	tokenBytes := make([]byte, 16)
	_, _ = rand.Read(tokenBytes)
	token := hex.EncodeToString(tokenBytes) + "@" + lease.HolderID() // who holds it, for idgen leases
	dcLo, dcHi := int64(0), req.Pool.DCs-1
	if req.DC >= 0 {
		dcLo, dcHi = req.DC, req.DC
	}
	pool, w := req.Pool.Name, req.Pool.Workers
	skipped := map[lease.Pair]bool{}
	for {
		// A free or expired row, lowest first, skipping rows others are
		// claiming right now.
		rows, err := s.query(ctx, `WITH c AS (
				SELECT datacenter, worker FROM `+s.table+`
				WHERE pool = $1 AND datacenter BETWEEN $2::bigint AND $3::bigint AND worker < $4::bigint
				  AND (holder IS NULL OR expires_at <= clock_timestamp())
				  AND NOT (datacenter * $4::bigint + worker = ANY ($6::bigint[]))
				ORDER BY datacenter, worker LIMIT 1 FOR UPDATE SKIP LOCKED)
			UPDATE `+s.table+` t SET holder = $5, expires_at = `+s.expirySQL()+`
			FROM c WHERE t.pool = $1 AND t.datacenter = c.datacenter AND t.worker = c.worker
			RETURNING t.datacenter, t.worker, t.issued_up_to, t.backwards, `+s.seqColumn("t.")+``,
			pool, itoa(dcLo), itoa(dcHi), itoa(w), token, pgArray(skipped, w))
		if err != nil {
			return nil, s.fail("claim a row of "+s.table, err)
		}
		fresh := false // an existing row is a record, whatever its values
		if len(rows) == 0 {
			// Make the row of the lowest pair that has none.
			rows, err = s.query(ctx, `INSERT INTO `+s.table+` (pool, datacenter, worker, holder, expires_at)
				SELECT $1, g / $4::bigint, g % $4::bigint, $5, `+s.expirySQL()+`
				FROM generate_series($2::bigint * $4::bigint, $3::bigint * $4::bigint + $4::bigint - 1) g
				WHERE NOT EXISTS (SELECT 1 FROM `+s.table+` x WHERE x.pool = $1 AND x.datacenter = g / $4::bigint AND x.worker = g % $4::bigint)
				LIMIT 1
				ON CONFLICT DO NOTHING
				RETURNING datacenter, worker, issued_up_to, backwards, `+s.seqColumn("")+``,
				pool, itoa(dcLo), itoa(dcHi), itoa(w), token)
			if err != nil {
				return nil, s.fail("add a row to "+s.table, err)
			}
			fresh = len(rows) > 0 // made just now: the pair had no record
			if len(rows) == 0 {
				full, err := s.full(ctx, pool, dcLo, dcHi, w)
				if err != nil {
					return nil, err
				}
				if full {
					return nil, s.poolFull(req, len(skipped))
				}
				continue // another process made that row first
			}
		}
		c, err := s.newClaim(rows[0], pool, token, fresh)
		if err != nil {
			return nil, err
		}
		if req.Skips(c.pair, c.rec, c.state) {
			skipped[c.pair] = true
			s.mu.Unlock()
			_ = c.Abandon(ctx)
			s.mu.Lock()
			continue
		}
		go c.keep()
		return c, nil
	}
}

// full reports whether every pair of the range has a row.
func (s *Store) full(ctx context.Context, pool string, dcLo, dcHi, w int64) (bool, error) {
	rows, err := s.query(ctx, `SELECT count(*) FROM `+s.table+` WHERE pool = $1 AND datacenter BETWEEN $2::bigint AND $3::bigint AND worker < $4::bigint`,
		pool, itoa(dcLo), itoa(dcHi), itoa(w))
	if err != nil {
		return false, s.fail("count rows of "+s.table, err)
	}
	n, _ := strconv.ParseInt(rows[0][0], 10, 64)
	return n >= (dcHi-dcLo+1)*w, nil
}

func (s *Store) poolFull(req lease.Request, skipped int) error {
	n := req.Count()
	what := fmt.Sprintf("all %d pairs of pool %s", n, req.Pool.Name)
	if req.DC >= 0 {
		what = fmt.Sprintf("all %d workers of datacenter %d in pool %s (%d pairs)", n, req.DC, req.Pool.Name, req.Pool.Size())
	}
	msg := fmt.Sprintf("%s are taken in table %s on %s", what, s.table, s.url.Where())
	if skipped > 0 {
		msg += fmt.Sprintf(" (%d skipped: records ahead of the clock)", skipped)
	}
	return errs.New(errs.ErrWorker, "%s", msg)
}

func (s *Store) newClaim(row []string, pool, token string, fresh bool) (*claim, error) {
	var v [6]int64
	for i := range v {
		n, err := strconv.ParseInt(row[i], 10, 64)
		if err != nil {
			return nil, errs.New(errs.ErrWorker, "%s: table %s holds a bad value %q", s.url.Where(), s.table, row[i])
		}
		v[i] = n
	}
	c := &claim{s: s, pool: pool, token: token, pair: lease.Pair{DC: v[0], Worker: v[1]},
		rec: lease.Record{IssuedUpTo: v[2], Backwards: v[3], Seq: v[4], Holder: v[5]}, state: lease.Present, held: make(chan struct{})}
	if fresh {
		c.state = lease.Fresh
	}
	return c, nil
}

func itoa(v int64) string { return strconv.FormatInt(v, 10) }

// pgArray writes the skipped pairs as a bigint[] literal of pair indexes.
func pgArray(m map[lease.Pair]bool, w int64) string {
	parts := make([]string, 0, len(m))
	for p := range m {
		parts = append(parts, itoa(p.DC*w+p.Worker))
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// claim is one held row.
type claim struct {
	s     *Store
	pool  string
	token string
	pair  lease.Pair
	rec   lease.Record
	state lease.State
	held  chan struct{} // closed at the first renewal, or when given up: keep stops
	once  sync.Once
}

// keep moves the row's expiry every lease_ttl/3 until the claim is renewed
// or given up (or the store closed): a taker holds its claim however long
// it waits before its first renewal.
func (c *claim) keep() {
	t := time.NewTicker(max(c.s.ttl/3, time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-c.held:
			return
		case <-c.s.done:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), max(c.s.ttl/3, time.Millisecond))
		err := c.update(ctx, "expires_at = "+c.s.expirySQL())
		cancel()
		if errors.Is(err, lease.ErrGone) {
			return
		}
	}
}

// kept stops keep.
func (c *claim) kept() { c.once.Do(func() { close(c.held) }) }

func (c *claim) Pair() lease.Pair                         { return c.pair }
func (c *claim) Predecessor() (lease.Record, lease.State) { return c.rec, c.state }
func (c *claim) Where() string {
	return fmt.Sprintf("row (%s, %d, %d) of table %s on %s", c.pool, c.pair.DC, c.pair.Worker, c.s.table, c.s.url.Where())
}

// update runs one statement on the row while it carries our token.
func (c *claim) update(ctx context.Context, set string, args ...string) error {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	all := append([]string{c.pool, itoa(c.pair.DC), itoa(c.pair.Worker), c.token}, args...)
	rows, err := c.s.query(ctx, `UPDATE `+c.s.table+` SET `+set+`
		WHERE pool = $1 AND datacenter = $2::bigint AND worker = $3::bigint AND holder = $4 RETURNING 1`, all...)
	if err != nil {
		return err
	}
	if len(rows) == 0 {
		return lease.Gone("the row now has another holder")
	}
	return nil
}

// Renew writes the record and moves the expiry to the next bucket; from
// the first one on, the holder's renewals alone keep the row.
func (c *claim) Renew(ctx context.Context, rec lease.Record) error {
	err := c.update(ctx, "expires_at = "+c.s.expirySQL()+", "+c.s.recordSet(), c.s.recordArgs(rec)...)
	if err == nil || errors.Is(err, lease.ErrGone) {
		c.kept()
	}
	return err
}

// Release writes the final record and frees the row.
func (c *claim) Release(ctx context.Context, rec lease.Record) error {
	c.kept()
	return c.update(ctx, "holder = NULL, expires_at = NULL, "+c.s.recordSet(), c.s.recordArgs(rec)...)
}

// Abandon frees the row without writing the record.
func (c *claim) Abandon(ctx context.Context) error {
	c.kept()
	return c.update(ctx, "holder = NULL, expires_at = NULL")
}
