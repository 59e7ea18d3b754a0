package mysqlstore

// Segment counters in a peer's table (store=mysql://…?format=leaf or
// format=tinyid), taken with that server's own SQL, so that a Leaf or
// tinyid server still running hands out the same counter beside idgen
// without a value handed out twice:
//
//	Leaf (leaf_alloc: biz_tag, max_id, step; max_id is the next value not
//	yet handed out): in one transaction, Leaf's custom-step update
//	  UPDATE leaf_alloc SET max_id = max_id + n WHERE biz_tag = ?
//	then SELECT max_id: the segment is [max_id - n, max_id - 1].
//	tinyid (tiny_id_info: biz_type, max_id, step, delta, remainder,
//	version; max_id is the last value handed out): read the row, then its
//	compare-and-set
//	  UPDATE tiny_id_info SET max_id = M + n, update_time = now(),
//	  version = version + 1 WHERE id = ? AND max_id = M AND version = V
//	  AND biz_type = ?
//	up to 3 tries, as tinyid: the segment is [M + 1, M + n].
//
// The row must exist (neither server makes one); idgen makes no table and
// writes no row but the one counter's. n is idgen's segment size, as
// Leaf's dynamic step and tinyid's CAS allow any. A tinyid row with
// delta ≠ 1 (several tinyid databases, each its residue) is refused: idgen
// hands out every value of a segment. A give-back is a compare-and-set that
// matches only while nobody took since.

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// PeerCounters is a peer's counter table as a segment.Store.
type PeerCounters struct {
	s *Store
}

// OpenPeerCounters connects within timeout to u's peer table (u.Format,
// u.Table), which must exist: idgen makes none. Opening reads only.
func OpenPeerCounters(u *storeurl.StoreURL, timeout time.Duration) (*PeerCounters, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	s, err := connect(ctx, u, u.Table, timeout)
	if err != nil {
		return nil, err
	}
	var n int
	err = s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name = ?`, s.plain).Scan(&n)
	switch {
	case err != nil:
		s.db.Close()
		return nil, s.fail("look for table "+s.table, err)
	case n == 0:
		s.db.Close()
		return nil, errs.New(errs.ErrWorker, "%s: table %s (format=%s) is missing, or user %q may not see it; idgen makes no %s table: point table= at the one the %s servers use",
			u.Where, s.qualified(), u.Format, u.User, u.Format, u.Format)
	}
	return &PeerCounters{s: s}, nil
}

// Where names the server and the table, never the password.
func (c *PeerCounters) Where() string {
	return "table " + c.s.table + " (" + c.s.url.Format + "'s) on " + c.s.url.Where
}

// Close closes the connections.
func (c *PeerCounters) Close() error { return c.s.Close() }

// Take implements segment.Store: start is the row's, not the
// configuration's.
func (c *PeerCounters) Take(ctx context.Context, name string, _, n, mark int64) (int64, int64, error) {
	return c.peerTake(ctx, name, n, mark)
}

// GiveBack implements segment.Store.
func (c *PeerCounters) GiveBack(ctx context.Context, name string, last, to int64) (bool, error) {
	return c.peerGiveBack(ctx, name, last, to)
}

// Read implements segment.Store: the last value handed out.
func (c *PeerCounters) Read(ctx context.Context, name string) (int64, bool, error) {
	return c.peerRead(ctx, name)
}

// peerTake takes a segment of n from the peer's row name.
func (c *PeerCounters) peerTake(ctx context.Context, name string, n, mark int64) (int64, int64, error) {
	if c.s.url.Format == storeurl.FormatLeaf {
		return c.leafTake(ctx, name, n, mark)
	}
	for try := 0; try < sqlclaim.PeerTries; try++ {
		row, err := c.tinyidRow(ctx, name)
		if err != nil {
			return 0, 0, err
		}
		if err := c.peerCheck(name, row.maxID, mark, n); err != nil {
			return 0, 0, err
		}
		res, err := c.s.db.ExecContext(ctx, "UPDATE "+c.s.table+" SET max_id = ?, update_time = now(), version = version + 1 "+
			"WHERE id = ? AND max_id = ? AND version = ? AND biz_type = ?", row.maxID+n, row.id, row.maxID, row.version, name)
		if err != nil {
			return 0, 0, c.s.fail("take a segment of "+name+" in "+c.s.table, err)
		}
		if matched, _ := res.RowsAffected(); matched == 1 {
			return row.maxID, row.maxID + n, nil
		}
	}
	return 0, 0, errs.New(errs.ErrWorker, "%s: biz_type %s: the version compare-and-set lost %d times in a row to other takers; try again", c.Where(), name, sqlclaim.PeerTries)
}

// leafTake is Leaf's update and read, in one transaction.
func (c *PeerCounters) leafTake(ctx context.Context, name string, n, mark int64) (int64, int64, error) {
	tx, err := c.s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, c.s.fail("begin a take of "+name+" in "+c.s.table, err)
	}
	defer tx.Rollback()
	res, err := tx.ExecContext(ctx, "UPDATE "+c.s.table+" SET max_id = max_id + ? WHERE biz_tag = ? AND max_id <= ?", n, name, int64(math.MaxInt64)-n)
	if err != nil {
		return 0, 0, c.s.fail("take a segment of "+name+" in "+c.s.table, err)
	}
	if matched, _ := res.RowsAffected(); matched != 1 {
		next, found, err := c.peerRead(ctx, name)
		if err == nil && found {
			err = c.peerCheck(name, next, mark, n) // near INT64_MAX
		}
		return 0, 0, c.missing(name, found, err)
	}
	var maxID int64
	if err := tx.QueryRowContext(ctx, "SELECT max_id FROM "+c.s.table+" WHERE biz_tag = ?", name).Scan(&maxID); err != nil {
		return 0, 0, c.s.fail("read back "+name+" in "+c.s.table, err)
	}
	prev := maxID - n - 1 // the last value before the segment
	if err := c.peerCheck(name, prev, mark, n); err != nil {
		return 0, 0, err // rolled back: nothing written
	}
	if err := tx.Commit(); err != nil {
		return 0, 0, c.s.fail("commit a take of "+name+" in "+c.s.table, err)
	}
	return prev, maxID - 1, nil
}

// peerCheck is sqlclaim.PeerCheck for this table.
func (c *PeerCounters) peerCheck(name string, prev, mark, n int64) error {
	return sqlclaim.PeerCheck(c.Where(), name, prev, mark, n)
}

// missing is the error of a take that found no row to move: the row is
// not there (found false: neither peer makes one), or err.
func (c *PeerCounters) missing(name string, found bool, err error) error {
	if err != nil || found {
		if err == nil {
			err = errs.New(errs.ErrWorker, "%s: %s could not be moved", c.Where(), name)
		}
		return err
	}
	return sqlclaim.PeerMissing(c.Where(), c.s.url.Format, c.s.table, name, func(v string) string { return "'" + strings.ReplaceAll(v, "'", "''") + "'" })
}

type tinyidRow struct{ id, maxID, delta, remainder, version int64 }

func (c *PeerCounters) tinyidRow(ctx context.Context, name string) (tinyidRow, error) {
	var r tinyidRow
	err := c.s.db.QueryRowContext(ctx, "SELECT id, max_id, delta, remainder, version FROM "+c.s.table+" WHERE biz_type = ?", name).
		Scan(&r.id, &r.maxID, &r.delta, &r.remainder, &r.version)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return r, c.missing(name, false, nil)
	case err != nil:
		return r, c.s.fail("read "+name+" in "+c.s.table, err)
	case r.delta != 1:
		return r, errs.New(errs.ErrWorker, "%s: %s has delta %d, remainder %d (one residue of several tinyid databases): idgen hands out every value of its segments, so it serves only rows with delta 1", c.Where(), name, r.delta, r.remainder)
	}
	return r, nil
}

// peerRead is the last value handed out of row name (Leaf: max_id - 1).
func (c *PeerCounters) peerRead(ctx context.Context, name string) (int64, bool, error) {
	col, key, off := "max_id", "biz_type", int64(0)
	if c.s.url.Format == storeurl.FormatLeaf {
		key, off = "biz_tag", 1
	}
	var v int64
	err := c.s.db.QueryRowContext(ctx, "SELECT "+col+" FROM "+c.s.table+" WHERE "+key+" = ?", name).Scan(&v)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, c.s.fail("read "+name+" in "+c.s.table, err)
	}
	return v - off, true, nil
}

// peerGiveBack moves row name from last back to to, only while it still
// stands at last (nobody took since).
func (c *PeerCounters) peerGiveBack(ctx context.Context, name string, last, to int64) (bool, error) {
	q, args := "UPDATE "+c.s.table+" SET max_id = ? WHERE biz_tag = ? AND max_id = ?", []any{to + 1, name, last + 1}
	if c.s.url.Format == storeurl.FormatTinyid {
		q, args = "UPDATE "+c.s.table+" SET max_id = ?, update_time = now(), version = version + 1 WHERE biz_type = ? AND max_id = ?", []any{to, name, last}
	}
	res, err := c.s.db.ExecContext(ctx, q, args...)
	if err != nil {
		return false, c.s.fail("give back the rest of "+name+" in "+c.s.table, err)
	}
	matched, err := res.RowsAffected()
	return err == nil && matched == 1, nil
}
