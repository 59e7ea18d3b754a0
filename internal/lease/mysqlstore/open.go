package mysqlstore

import (
	"context"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// Open connects (within ttl plus a few seconds) and creates the table if it
// is missing (only then: a table that exists is used as it is). Errors name
// host, port and database, never the password.
func Open(u *storeurl.StoreURL, table string, ttl time.Duration) (*Store, error) {
	if u.Format != "" {
		return nil, errs.Key("worker", "format=%s names a segment counter table: it applies to store= of preset=segment, not to a lease pool", u.Format)
	}
	return sqlclaim.Open(ttl, func(ctx context.Context) (*Store, error) { return connect(ctx, u, table, ttl) }, (*Store).ensureTable)
}

// ensureTable uses the table when it exists, whoever made it: a user with
// only SELECT, INSERT and UPDATE on it runs no CREATE. A missing table is
// made in one statement with its index (CREATE TABLE IF NOT EXISTS: the
// server's metadata lock serialises racing processes; the errors a race
// may still raise are retried); when the user cannot, the error gives the
// statements to run beforehand.
func (s *Store) ensureTable(ctx context.Context) error {
	for attempt := 0; ; attempt++ {
		var n int
		err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM information_schema.tables
			WHERE table_schema = DATABASE() AND table_name = ?`, s.plain).Scan(&n)
		if err != nil {
			return s.fail("look for table "+s.table, err)
		}
		if n > 0 {
			s.checkSeq(ctx)
			return nil
		}
		_, err = s.db.ExecContext(ctx, s.ddl(true))
		switch num := errNumber(err); {
		case err == nil || num == errTableExists:
			s.checkSeq(ctx) // IF NOT EXISTS: a racer's older table may lack next_seq
			return nil
		case (num == errDeadlock || num == errLockWait || num == errTableDefChange) && attempt < 5:
			time.Sleep(time.Duration(attempt+1) * 50 * time.Millisecond)
			continue
		}
		return errs.New(errs.ErrWorker, "%s: cannot create table %s, which is missing (or user %q may not see it): %s; have it created beforehand by a user that may: %s; GRANT SELECT, INSERT, UPDATE ON %s TO %s;",
			s.url.Where, s.qualified(), s.url.User, reason(s.url, err), s.ddl(false), s.qualified(), s.account())
	}
}

// ddl is the table and its index, as created on first use.
func (s *Store) ddl(ifNotExists bool) string {
	ine := ""
	if ifNotExists {
		ine = "IF NOT EXISTS "
	}
	return "CREATE TABLE " + ine + s.table + " (" +
		"pool VARCHAR(191) CHARACTER SET ascii COLLATE ascii_bin NOT NULL, " +
		"datacenter BIGINT NOT NULL, worker BIGINT NOT NULL, " +
		"holder VARCHAR(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL, expires_at DATETIME(6) NULL, " +
		"issued_up_to BIGINT NOT NULL DEFAULT 0, backwards BIGINT NOT NULL DEFAULT 0, next_seq BIGINT NOT NULL DEFAULT 0, writer BIGINT NOT NULL DEFAULT 0, " +
		"PRIMARY KEY (pool, datacenter, worker), KEY expiry (pool, expires_at)) ENGINE=InnoDB"
}
