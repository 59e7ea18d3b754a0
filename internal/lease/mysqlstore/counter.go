package mysqlstore

// Segment counters (preset=segment store=mysql://… or mariadb://…): one
// row per counter in an InnoDB table of their own (idgen_segment, or
// lease_table's name + _segment), created on first use like the lease
// table:
//
//	name   the counter (primary key)
//	last   the last value taken: start-1 for a new counter
//
// MySQL has no UPDATE … RETURNING; a take is still one autocommitted
// statement on one row:
//
//	UPDATE t SET last = CASE WHEN LAST_INSERT_ID(last) > MAX - n THEN MAX ELSE last + n END
//	WHERE name = ? AND last BETWEEN 0 AND MAX - 1
//
// LAST_INSERT_ID(expr) makes the server send the value the row held before
// back in the statement's OK packet, beside the rows matched, so the taker
// knows its segment from one round trip: prev+1 .. segment.Advance(prev,
// n). Racing takers queue on the row lock and each gets its own range. A
// missing row is inserted first (a racing maker's duplicate key is the
// same); a take with a mark (segment.Store) matches only a row at or
// above it and never inserts: a row deleted (an operator's DELETE) or
// rolled back under a live generator is refused until it is restored. A
// give-back is an UPDATE that matches only while the row still
// stands at the end of the giver's last segment.

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
	"github.com/idgen/idgen/internal/segment"
)

// OpenCounters connects within timeout and makes the counter table when
// it is missing.
func OpenCounters(u *storeurl.StoreURL, table string, timeout time.Duration) (c *Counters, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c = &Counters{}
	if c.s, err = connect(ctx, u, table, timeout); err != nil {
		return nil, err
	}
	if err = c.ensureTable(ctx); err != nil {
		c.s.db.Close()
		return nil, err
	}
	return c, nil
}

// Counters is a MySQL/MariaDB database as a segment.Store: a pool of a
// few connections, every take and give-back one autocommitted statement.
type Counters struct {
	s *Store
}

// ensureTable uses the table when it exists (a user with only SELECT,
// INSERT and UPDATE on it runs no CREATE) and makes it otherwise; racing
// makers are serialised by the server's metadata lock, and the lock
// errors a race may still raise are tried again.
func (c *Counters) ensureTable(ctx context.Context) error {
	s := c.s
	var found string
	err := s.db.QueryRowContext(ctx, "SHOW TABLES LIKE ?", strings.ReplaceAll(s.plain, "_", `\_`)).Scan(&found)
	if err == nil {
		return nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return s.fail("look for table "+s.table, err)
	}
	for try := 1; ; try++ {
		_, err = s.db.ExecContext(ctx, c.ddl(true))
		num := errNumber(err)
		if err == nil || num == errTableExists {
			return nil
		}
		if try > 5 || num != errDeadlock && num != errLockWait && num != errTableDefChange {
			return errs.New(errs.ErrWorker, "%s: cannot create counter table %s, which is missing: %s; have it created beforehand: %s GRANT SELECT, INSERT, UPDATE ON %s TO %s;",
				s.url.Where, s.qualified(), reason(s.url, err), c.ddl(false), s.qualified(), s.account())
		}
		time.Sleep(time.Duration(try) * 50 * time.Millisecond)
	}
}

func (c *Counters) ddl(ifNotExists bool) string {
	ine := ""
	if ifNotExists {
		ine = "IF NOT EXISTS "
	}
	return "CREATE TABLE " + ine + c.s.table + " (name VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY, " +
		"last BIGINT NOT NULL) ENGINE=InnoDB;"
}

// Where names the server and the table, never the password.
func (c *Counters) Where() string { return "table " + c.s.table + " on " + c.s.url.Where }

// Close closes the connections.
func (c *Counters) Close() error { return c.s.Close() }

// Take implements segment.Store.
func (c *Counters) Take(ctx context.Context, name string, start, n, mark int64) (int64, int64, error) {
	s := c.s
	for try := 0; try < 3; try++ {
		res, err := s.db.ExecContext(ctx, "UPDATE "+s.table+" SET last = CASE WHEN LAST_INSERT_ID(last) > ? THEN ? ELSE last + ? END "+
			"WHERE name = ? AND last BETWEEN ? AND ?", int64(math.MaxInt64)-n, int64(math.MaxInt64), n, name, mark, int64(math.MaxInt64-1))
		if err != nil {
			return 0, 0, s.fail("take a segment of counter "+name+" in "+s.table, err)
		}
		if matched, _ := res.RowsAffected(); matched == 1 {
			prev, err := res.LastInsertId()
			if err != nil || prev < 0 {
				return 0, 0, errs.New(errs.ErrWorker, "%s: counter %s: the server did not say where the segment began (LAST_INSERT_ID)", c.Where(), name)
			}
			last, err := segment.Advance(prev, n)
			return prev, last, err
		}
		// No row, one used up, one an operator broke, or one below the mark.
		if mark > 0 {
			if err := c.refuse(ctx, name, mark); err != nil {
				return 0, 0, err
			}
			continue // a racing take moved it: take again
		}
		_, err = s.db.ExecContext(ctx, "INSERT INTO "+s.table+" (name, last) VALUES (?, ?)", name, start-1)
		if err == nil || errNumber(err) == errDupKey {
			if err := c.check(ctx, name); err != nil {
				return 0, 0, err
			}
			continue // made, by us or a racer: take again
		}
		return 0, 0, s.fail("add counter "+name+" to "+s.table, err)
	}
	return 0, 0, errs.New(errs.ErrWorker, "%s: counter %s could not be taken from", c.Where(), name)
}

// check fails when the counter's row stands where no take matches it: at
// INT64_MAX (used up) or below 0 (not a counter idgen wrote).
func (c *Counters) check(ctx context.Context, name string) error {
	last, found, err := c.Read(ctx, name)
	switch {
	case err != nil || !found:
		return err // not found: deleted under us, made again at the next try
	case last == math.MaxInt64:
		_, err = segment.Advance(last, 1)
		return err
	case last < 0:
		return errs.New(errs.ErrWorker, "%s: counter %s holds %d, which is not a counter idgen wrote (never below 0); idgen never guesses one", c.Where(), name, last)
	}
	return nil
}

// refuse is the failure of a take with a mark that matched no row (nil
// when the row stands at or above the mark by now: take again): the
// counter used up or broken (check), or missing or below the mark
// (nothing is written).
func (c *Counters) refuse(ctx context.Context, name string, mark int64) error {
	if err := c.check(ctx, name); err != nil {
		return err
	}
	last, found, err := c.Read(ctx, name)
	switch {
	case err != nil:
		return err
	case found && last >= mark:
		return nil // it stands at or above the mark now
	}
	fix := fmt.Sprintf("INSERT INTO %s (name, last) VALUES ('%s', %d) ON DUPLICATE KEY UPDATE last = %d", c.s.table, name, mark, mark)
	return segment.WentBack(c.Where(), name, mark, last, found, fix)
}

// GiveBack implements segment.Store.
func (c *Counters) GiveBack(ctx context.Context, name string, last, to int64) (bool, error) {
	s := c.s
	res, err := s.db.ExecContext(ctx, "UPDATE "+s.table+" SET last = ? WHERE name = ? AND last = ?", to, name, last)
	if err != nil {
		return false, s.fail("give back the rest of counter "+name+" in "+s.table, err)
	}
	matched, err := res.RowsAffected()
	return err == nil && matched == 1, nil
}

// Read implements segment.Store.
func (c *Counters) Read(ctx context.Context, name string) (int64, bool, error) {
	var last int64
	err := c.s.db.QueryRowContext(ctx, "SELECT last FROM "+c.s.table+" WHERE name = ?", name).Scan(&last)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return 0, false, nil
	case err != nil:
		return 0, false, c.s.fail("read counter "+name+" in "+c.s.table, err)
	}
	return last, true, nil
}
