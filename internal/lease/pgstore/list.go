package pgstore

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// OpenReadOnly connects without creating the table (idgen leases): a
// missing table lists as an empty pool.
func OpenReadOnly(u *storeurl.StoreURL, table string, ttl time.Duration) (*Store, error) {
	return sqlclaim.Open(ttl, func(ctx context.Context) (*Store, error) { return connect(ctx, u, table, ttl) }, func(s *Store, ctx context.Context) error {
		return s.checkSeq(ctx) // a SELECT ... LIMIT 0: whether the listing can show next_seq and writer
	})
}

// List reads a pool's rows, writing nothing.
func (s *Store) List(ctx context.Context, pool lease.Pool) ([]lease.Entry, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rows, err := s.query(ctx, `SELECT datacenter, worker, issued_up_to, backwards, `+s.seqColumn("")+`,
			holder IS NOT NULL AND expires_at > clock_timestamp(), coalesce(holder, '')
		FROM `+s.table+` WHERE pool = $1 ORDER BY datacenter, worker`, pool.Name)
	if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) && pe.Code == "42P01" {
		return nil, nil // no table: nothing was ever leased here
	}
	if err != nil {
		return nil, s.fail("read "+s.table, err)
	}
	out := make([]lease.Entry, 0, len(rows))
	for _, r := range rows {
		var v [6]int64
		for i := range v {
			if v[i], err = strconv.ParseInt(r[i], 10, 64); err != nil {
				return nil, s.fail("read "+s.table, err)
			}
		}
		rec := lease.Record{IssuedUpTo: v[2], Backwards: v[3], Seq: v[4], Holder: v[5]}
		e := lease.Entry{Pair: lease.Pair{DC: v[0], Worker: v[1]}, Record: rec, Held: r[6] == "t"}
		if _, h, ok := strings.Cut(r[7], "@"); ok {
			e.Holder = h
		}
		out = append(out, e)
	}
	return out, nil
}

// StoreNow is the database's clock (clock_timestamp(), not the
// transaction's now()).
func (s *Store) StoreNow(ctx context.Context) (time.Time, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rows, err := s.query(ctx, "SELECT (extract(epoch from clock_timestamp()) * 1000000)::bigint")
	if err != nil {
		return time.Time{}, s.fail("read the database clock", err)
	}
	us, err := strconv.ParseInt(rows[0][0], 10, 64)
	if err != nil {
		return time.Time{}, s.fail("read the database clock", err)
	}
	return time.UnixMicro(us), nil
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

// Close closes the connection.
func (r *CounterReader) Close() error { return r.c.s.Close() }

// Read is Counters.Read; without the table, no counter was ever begun.
func (r *CounterReader) Read(ctx context.Context, name string) (int64, bool, error) {
	rows, err := r.c.s.query(ctx, "SELECT to_regclass($1) IS NOT NULL", r.c.s.table)
	if err != nil {
		return 0, false, r.c.s.fail("look for table "+r.c.s.table, err)
	}
	if rows[0][0] != "t" {
		return 0, false, nil
	}
	return r.c.Read(ctx, name)
}
