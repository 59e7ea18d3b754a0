package mysqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
)

const errNoTable = 1146

// OpenReadOnly connects without creating or altering the table (idgen
// leases): a missing table lists as an empty pool.
func OpenReadOnly(u *config.StoreURL, table string, ttl time.Duration) (*Store, error) {
	return sqlclaim.Open(ttl, func(ctx context.Context) (*Store, error) { return connect(ctx, u, table, ttl) }, func(s *Store, ctx context.Context) error {
		_, err := s.db.ExecContext(ctx, "SELECT next_seq, writer FROM "+s.table+" LIMIT 0")
		s.seq = err == nil
		return nil
	})
}

// List reads a pool's rows, writing nothing (lease.Lister).
func (s *Store) List(ctx context.Context, pool lease.Pool) ([]lease.Entry, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT datacenter, worker, issued_up_to, backwards, `+s.seqColumn()+`,
			COALESCE(holder IS NOT NULL AND expires_at > UTC_TIMESTAMP(6), 0), COALESCE(holder, '')
		FROM `+s.table+` WHERE pool = ? ORDER BY datacenter, worker`, pool.Name)
	if errNumber(err) == errNoTable {
		return nil, nil // no table: nothing was ever leased here
	}
	if err != nil {
		return nil, s.fail("read "+s.table, err)
	}
	defer rows.Close()
	var out []lease.Entry
	for rows.Next() {
		var e lease.Entry
		var holder string
		if err := rows.Scan(&e.Pair.DC, &e.Pair.Worker, &e.Record.IssuedUpTo, &e.Record.Backwards, &e.Record.Seq, &e.Record.Holder, &e.Held, &holder); err != nil {
			return nil, s.fail("read "+s.table, err)
		}
		if _, h, ok := strings.Cut(holder, "@"); ok {
			e.Holder = h
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fail("read "+s.table, err)
	}
	return out, nil
}
