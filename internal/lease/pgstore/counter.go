package pgstore

// Segment counters (preset=segment store=postgres://…): one row per
// counter in a table of their own (idgen_segment, or lease_table's name +
// _segment), created on first use like the lease table:
//
//	name   the counter (primary key)
//	last   the last value taken: start-1 for a new counter
//	prev   last before the latest take (so one UPDATE … RETURNING names
//	       the segment it took)
//
// A take is one statement on one row: UPDATE … SET prev = last, last =
// last + n … RETURNING prev, last. Racing takers queue on the row lock and
// each gets its own range; a missing row is inserted with ON CONFLICT DO
// NOTHING first. A take with a mark (segment.Store) matches only a row at
// or above it, and never inserts: a row deleted (an operator's DELETE) or
// rolled back under a live generator is refused until it is restored.

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
	"github.com/idgen/idgen/internal/segment"
)

// Counters is PostgreSQL as a segment.Store.
type Counters struct{ s *Store }

// OpenCounters connects (within timeout) and creates the counter table if
// it is missing.
func OpenCounters(u *storeurl.StoreURL, table string, timeout time.Duration) (*Counters, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	conn, err := pgconn.Connect(ctx, u.Raw)
	if err != nil {
		return nil, explainConnect(u, err)
	}
	s := &Store{url: u, conn: conn, table: quoteIdent(table), ttl: timeout, done: make(chan struct{})}
	c := &Counters{s: s}
	if err := c.ensureTable(ctx, table); err != nil {
		conn.Close(context.Background())
		return nil, err
	}
	return c, nil
}

// ensureTable makes the table when it is missing, once even when many
// processes race to (an advisory transaction lock serialises them).
func (c *Counters) ensureTable(ctx context.Context, plain string) error {
	s := c.s
	rows, err := s.query(ctx, "SELECT to_regclass($1) IS NOT NULL", s.table)
	if err != nil {
		return s.fail("look for table "+s.table, err)
	}
	if rows[0][0] == "t" {
		return nil
	}
	sql := "BEGIN; SELECT pg_advisory_xact_lock(hashtext('idgen ' || " + quoteLiteral(plain) + ")); " + c.ddl(true) + " COMMIT"
	if _, err := s.conn.Exec(ctx, sql).ReadAll(); err != nil {
		return s.fail("create table "+s.table+", which is missing (have it created beforehand: "+c.ddl(false)+
			" GRANT SELECT, INSERT, UPDATE ON "+s.table+" TO "+quoteIdent(s.url.User)+";)", err)
	}
	return nil
}

func (c *Counters) ddl(ifNotExists bool) string {
	ine := ""
	if ifNotExists {
		ine = "IF NOT EXISTS "
	}
	return "CREATE TABLE " + ine + c.s.table + " (name text PRIMARY KEY, last bigint NOT NULL, prev bigint NOT NULL);"
}

// Where names the server and the table, never the password.
func (c *Counters) Where() string { return "table " + c.s.table + " on " + c.s.url.Where }

// Close closes the connection.
func (c *Counters) Close() error { return c.s.Close() }

const maxText = "9223372036854775807"

// Take implements segment.Store.
func (c *Counters) Take(ctx context.Context, name string, start, n, mark int64) (int64, int64, error) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	for try := 0; try < 2; try++ {
		rows, err := s.query(ctx, `UPDATE `+s.table+` SET prev = last,
				last = CASE WHEN last > `+maxText+` - $2::bigint THEN `+maxText+` ELSE last + $2::bigint END
			WHERE name = $1 AND last < `+maxText+` AND last >= $3::bigint RETURNING prev, last`, name, itoa(n), itoa(mark))
		if err != nil {
			return 0, 0, s.fail("take a segment of counter "+name+" in "+s.table, err)
		}
		if len(rows) == 1 {
			prev, err1 := strconv.ParseInt(rows[0][0], 10, 64)
			last, err2 := strconv.ParseInt(rows[0][1], 10, 64)
			if err1 != nil || err2 != nil {
				return 0, 0, errs.New(errs.ErrWorker, "%s: counter %s holds a bad value %q", c.Where(), name, rows[0])
			}
			return prev, last, nil
		}
		// No row, one used up, or one below the mark.
		if mark > 0 {
			if err := c.refuse(ctx, name, n, mark); err != nil {
				return 0, 0, err
			}
			continue // a racing take moved it: take again
		}
		rows, err = s.query(ctx, `INSERT INTO `+s.table+` (name, last, prev) VALUES ($1, $2::bigint, $2::bigint)
			ON CONFLICT (name) DO NOTHING RETURNING 1`, name, itoa(start-1))
		if err != nil {
			return 0, 0, s.fail("add counter "+name+" to "+s.table, err)
		}
		if len(rows) == 0 && try == 0 {
			if used, err := c.usedUp(ctx, name); err != nil || used {
				if err == nil {
					_, err = segment.Advance(math.MaxInt64, n)
				}
				return 0, 0, err
			}
		}
	}
	return 0, 0, errs.New(errs.ErrWorker, "%s: counter %s could not be taken from", c.Where(), name)
}

// refuse is the failure of a take with a mark that matched no row (nil
// when the row stands at or above the mark by now: take again): the
// counter used up, or missing or below the mark (nothing is written).
func (c *Counters) refuse(ctx context.Context, name string, n, mark int64) error {
	last, found, err := c.Read(ctx, name)
	switch {
	case err != nil:
		return err
	case found && last == math.MaxInt64:
		_, err = segment.Advance(last, n)
		return err
	case found && last >= mark:
		return nil // it stands at or above the mark now
	}
	fix := fmt.Sprintf("INSERT INTO %s (name, last, prev) VALUES (%s, %d, %d) ON CONFLICT (name) DO UPDATE SET last = %d, prev = %d",
		c.s.table, quoteLiteral(name), mark, mark, mark, mark)
	return segment.WentBack(c.Where(), name, mark, last, found, fix)
}

// usedUp reports whether the counter stands at INT64_MAX.
func (c *Counters) usedUp(ctx context.Context, name string) (bool, error) {
	last, found, err := c.Read(ctx, name)
	return found && last == math.MaxInt64, err
}

// GiveBack implements segment.Store.
func (c *Counters) GiveBack(ctx context.Context, name string, last, to int64) (bool, error) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	rows, err := s.query(ctx, `UPDATE `+s.table+` SET prev = last, last = $3::bigint WHERE name = $1 AND last = $2::bigint RETURNING 1`,
		name, itoa(last), itoa(to))
	if err != nil {
		return false, s.fail("give back the rest of counter "+name+" in "+s.table, err)
	}
	return len(rows) == 1, nil
}

// Read implements segment.Store.
func (c *Counters) Read(ctx context.Context, name string) (int64, bool, error) {
	rows, err := c.s.query(ctx, `SELECT last FROM `+c.s.table+` WHERE name = $1`, name)
	if err != nil {
		return 0, false, c.s.fail("read counter "+name+" in "+c.s.table, err)
	}
	if len(rows) != 1 {
		return 0, false, nil
	}
	v, perr := strconv.ParseInt(rows[0][0], 10, 64)
	if perr != nil {
		return 0, false, errs.New(errs.ErrWorker, "%s: counter %s holds %q", c.Where(), name, rows[0][0])
	}
	return v, true, nil
}
