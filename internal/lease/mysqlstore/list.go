package mysqlstore

import (
	"context"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

const errNoTable = 1146

// OpenReadOnly connects without creating or altering the table (idgen
// leases): a missing table lists as an empty pool.
func OpenReadOnly(u *storeurl.StoreURL, table string, ttl time.Duration) (*Store, error) {
	return sqlclaim.Open(ttl, func(ctx context.Context) (*Store, error) { return connect(ctx, u, table, ttl) }, func(s *Store, ctx context.Context) error {
		s.checkSeq(ctx)
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

// OpenCountersReadOnly connects without creating the counter table (idgen
// leases on a segment configuration): a missing table reads as a counter
// never begun.
func OpenCountersReadOnly(u *storeurl.StoreURL, table string, timeout time.Duration) (*CounterReader, error) {
	s, err := sqlclaim.Open(timeout, func(ctx context.Context) (*Store, error) { return connect(ctx, u, table, timeout) }, nil)
	if err != nil {
		return nil, err
	}
	return &CounterReader{Counters{s: s}}, nil
}

// CounterReader reads counters, writing and creating nothing.
type CounterReader struct{ c Counters }

// Where names the server and the table.
func (r *CounterReader) Where() string { return r.c.Where() }

// Close closes the connections.
func (r *CounterReader) Close() error { return r.c.s.Close() }

// Read is Counters.Read; without the table, no counter was ever begun.
func (r *CounterReader) Read(ctx context.Context, name string) (int64, bool, error) {
	var n int
	err := r.c.s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM information_schema.tables
		WHERE table_schema = DATABASE() AND table_name = ?`, r.c.s.plain).Scan(&n)
	if err != nil {
		return 0, false, r.c.s.fail("look for table "+r.c.s.table, err)
	}
	if n == 0 {
		return 0, false, nil
	}
	return r.c.Read(ctx, name)
}
