package pgstore

// Segment counters in a peer's table on PostgreSQL (store=postgres://…?
// format=leaf or format=tinyid), for Leaf and tinyid deployments ported
// to PostgreSQL: the same statements as on MySQL (mysqlstore/peer.go has
// the rules), one at a time on the store's connection:
//
//	Leaf     UPDATE leaf_alloc SET max_id = max_id + n WHERE biz_tag = $1
//	         … RETURNING max_id: Leaf's update and its read-back in one
//	         statement (one transaction); the segment is [max_id - n,
//	         max_id - 1]. The WHERE also keeps the segment above the mark,
//	         non-negative and below INT64_MAX; a row it does not match is
//	         read to say why.
//	tinyid   SELECT … WHERE biz_type = $1, then the version compare-and-set,
//	         up to 3 tries; the segment is [max_id + 1, max_id + n].

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// PeerCounters is a peer's counter table as a segment.Store.
type PeerCounters struct{ s *Store }

// OpenPeerCounters connects within timeout to u's peer table, which must
// exist: idgen makes none. Opening reads only.
func OpenPeerCounters(u *storeurl.StoreURL, timeout time.Duration) (*PeerCounters, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	conn, err := pgconn.Connect(ctx, u.Raw)
	if err != nil {
		return nil, explainConnect(u, err)
	}
	s := &Store{url: u, conn: conn, table: quoteIdent(u.Table), ttl: timeout, done: make(chan struct{})}
	rows, err := s.query(ctx, "SELECT to_regclass($1) IS NOT NULL", s.table)
	switch {
	case err != nil:
		conn.Close(context.Background())
		return nil, s.fail("look for table "+s.table, err)
	case rows[0][0] != "t":
		conn.Close(context.Background())
		return nil, errs.New(errs.ErrWorker, "%s: table %s (format=%s) is missing, or user %q may not see it; idgen makes no %s table: point table= at the one the %s servers use",
			u.Where, s.table, u.Format, u.User, u.Format, u.Format)
	}
	return &PeerCounters{s: s}, nil
}

// Where names the server and the table, never the password.
func (c *PeerCounters) Where() string {
	return "table " + c.s.table + " (" + c.s.url.Format + "'s) on " + c.s.url.Where
}

// Close closes the connection.
func (c *PeerCounters) Close() error { return c.s.Close() }

// Take implements segment.Store: start is the row's, not the
// configuration's.
func (c *PeerCounters) Take(ctx context.Context, name string, _, n, mark int64) (int64, int64, error) {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	if c.s.url.Format == storeurl.FormatLeaf {
		return c.leafTake(ctx, name, n, mark)
	}
	for try := 0; try < sqlclaim.PeerTries; try++ {
		rows, err := c.s.query(ctx, "SELECT id, max_id, delta, remainder, version FROM "+c.s.table+" WHERE biz_type = $1", name)
		if err != nil {
			return 0, 0, c.s.fail("read "+name+" in "+c.s.table, err)
		}
		if len(rows) == 0 {
			return 0, 0, c.missing(name)
		}
		r := rows[0]
		if r[2] != "1" {
			return 0, 0, errs.New(errs.ErrWorker, "%s: %s has delta %s, remainder %s (one residue of several tinyid databases): idgen hands out every value of its segments, so it serves only rows with delta 1", c.Where(), name, r[2], r[3])
		}
		prev, err := strconv.ParseInt(r[1], 10, 64)
		if err != nil {
			return 0, 0, errs.New(errs.ErrWorker, "%s: %s holds max_id %q", c.Where(), name, r[1])
		}
		if err := c.check(name, prev, mark, n); err != nil {
			return 0, 0, err
		}
		rows, err = c.s.query(ctx, "UPDATE "+c.s.table+" SET max_id = $1::bigint, update_time = now(), version = version + 1 "+
			"WHERE id = $2::bigint AND max_id = $3::bigint AND version = $4::bigint AND biz_type = $5 RETURNING 1", itoa(prev+n), r[0], r[1], r[4], name)
		if err != nil {
			return 0, 0, c.s.fail("take a segment of "+name+" in "+c.s.table, err)
		}
		if len(rows) == 1 {
			return prev, prev + n, nil
		}
	}
	return 0, 0, errs.New(errs.ErrWorker, "%s: biz_type %s: the version compare-and-set lost %d times in a row to other takers; try again", c.Where(), name, sqlclaim.PeerTries)
}

// leafTake is Leaf's update with its read-back, in one statement.
func (c *PeerCounters) leafTake(ctx context.Context, name string, n, mark int64) (int64, int64, error) {
	lowest := int64(0) // the first value of the segment: never below 0, above the mark
	if mark > 0 {
		lowest = mark + 1
	}
	rows, err := c.s.query(ctx, "UPDATE "+c.s.table+" SET max_id = max_id + $1::bigint WHERE biz_tag = $2 "+
		"AND max_id >= $3::bigint AND max_id <= $4::bigint RETURNING max_id", itoa(n), name, itoa(lowest), itoa(math.MaxInt64-n))
	if err != nil {
		return 0, 0, c.s.fail("take a segment of "+name+" in "+c.s.table, err)
	}
	if len(rows) == 1 {
		maxID, err := strconv.ParseInt(rows[0][0], 10, 64)
		if err != nil {
			return 0, 0, errs.New(errs.ErrWorker, "%s: %s holds max_id %q", c.Where(), name, rows[0][0])
		}
		return maxID - n - 1, maxID - 1, nil
	}
	prev, found, err := c.read(ctx, name)
	switch {
	case err != nil:
		return 0, 0, err
	case !found:
		return 0, 0, c.missing(name)
	}
	if err := c.check(name, prev, mark, n); err != nil {
		return 0, 0, err
	}
	return 0, 0, errs.New(errs.ErrWorker, "%s: %s could not be moved", c.Where(), name)
}

// check is sqlclaim.PeerCheck for this table.
func (c *PeerCounters) check(name string, prev, mark, n int64) error {
	return sqlclaim.PeerCheck(c.Where(), name, prev, mark, n)
}

// missing is the error of a take that found no row.
func (c *PeerCounters) missing(name string) error {
	return sqlclaim.PeerMissing(c.Where(), c.s.url.Format, c.s.table, name, quoteLiteral)
}

// Read implements segment.Store: the last value handed out (Leaf:
// max_id - 1).
func (c *PeerCounters) Read(ctx context.Context, name string) (int64, bool, error) {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	return c.read(ctx, name)
}

func (c *PeerCounters) read(ctx context.Context, name string) (int64, bool, error) {
	key, off := "biz_type", int64(0)
	if c.s.url.Format == storeurl.FormatLeaf {
		key, off = "biz_tag", 1
	}
	rows, err := c.s.query(ctx, "SELECT max_id FROM "+c.s.table+" WHERE "+key+" = $1", name)
	if err != nil {
		return 0, false, c.s.fail("read "+name+" in "+c.s.table, err)
	}
	if len(rows) == 0 {
		return 0, false, nil
	}
	v, err := strconv.ParseInt(rows[0][0], 10, 64)
	if err != nil {
		return 0, false, errs.New(errs.ErrWorker, "%s: %s holds max_id %q", c.Where(), name, rows[0][0])
	}
	return v - off, true, nil
}

// GiveBack implements segment.Store: a compare-and-set that matches only
// while nobody took since.
func (c *PeerCounters) GiveBack(ctx context.Context, name string, last, to int64) (bool, error) {
	c.s.mu.Lock()
	defer c.s.mu.Unlock()
	q, args := "UPDATE "+c.s.table+" SET max_id = $1::bigint WHERE biz_tag = $2 AND max_id = $3::bigint RETURNING 1", []string{itoa(to + 1), name, itoa(last + 1)}
	if c.s.url.Format == storeurl.FormatTinyid {
		q = "UPDATE " + c.s.table + " SET max_id = $1::bigint, update_time = now(), version = version + 1 WHERE biz_type = $2 AND max_id = $3::bigint RETURNING 1"
		args = []string{itoa(to), name, itoa(last)}
	}
	rows, err := c.s.query(ctx, q, args...)
	if err != nil {
		return false, c.s.fail("give back the rest of "+name+" in "+c.s.table, err)
	}
	return len(rows) == 1, nil
}
