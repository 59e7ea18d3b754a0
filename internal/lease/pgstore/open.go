package pgstore

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// Open connects (within ttl plus a few seconds) and creates the table if
// it is missing (only then: a table that exists is used as it is). Errors
// name host, port and database, never the password.
func Open(u *storeurl.StoreURL, table string, ttl time.Duration) (*Store, error) {
	if u.Format != "" {
		return nil, errs.Key("worker", "format=%s names a segment counter table: it applies to store= of preset=segment, not to a lease pool", u.Format)
	}
	return sqlclaim.Open(ttl, func(ctx context.Context) (*Store, error) { return connect(ctx, u, table, ttl) }, (*Store).ensureTable)
}

// ensureTable uses the table when it exists, whoever made it: a role with
// only SELECT, INSERT and UPDATE on it runs no CREATE. A missing table is
// made with its expiry index, once even when many processes race to (an
// advisory transaction lock serialises them); when the role cannot, the
// error gives the statements to run beforehand.
func (s *Store) ensureTable(ctx context.Context) error {
	rows, err := s.query(ctx, "SELECT to_regclass($1) IS NOT NULL, current_schema()", s.table)
	if err != nil {
		return s.fail("look for table "+s.table, err)
	}
	if rows[0][0] == "t" {
		return s.checkSeq(ctx)
	}
	sql := "BEGIN; SELECT pg_advisory_xact_lock(hashtext('idgen ' || " + quoteLiteral(s.plain) + ")); " + s.ddl(true) + " COMMIT"
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
