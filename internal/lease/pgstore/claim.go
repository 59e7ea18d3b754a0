package pgstore

// Taking a row: the lowest free or expired one, else the row of the
// lowest pair that has none. The claim on it is sqlclaim's, over rows.

import (
	"context"
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
)

// claims is the table as the store's claims see it.
func (s *Store) claims() *sqlclaim.Table {
	return &sqlclaim.Table{Where: "table " + s.table + " on " + s.url.Where, Expiry: s.expirySQL(), TTL: s.ttl, Done: s.done, Update: s.update}
}

// update runs one statement on the claim's row while it carries its token.
func (s *Store) update(ctx context.Context, c *sqlclaim.Claim, set string, rec *lease.Record) (bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	args := []string{c.Pool, itoa(c.At.DC), itoa(c.At.Worker), c.Token}
	if rec != nil {
		set += ", " + s.recordSet()
		args = append(args, s.recordArgs(*rec)...)
	}
	got, err := s.query(ctx, `UPDATE `+s.table+` SET `+set+`
		WHERE pool = $1 AND datacenter = $2::bigint AND worker = $3::bigint AND holder = $4 RETURNING 1`, args...)
	return len(got) > 0, err
}

// Acquire claims the lowest free or expired pair; when none is, it makes
// the row of the lowest pair that has none.
func (s *Store) Acquire(ctx context.Context, req lease.Request) (lease.Claim, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	token, sp := sqlclaim.NewToken(), sqlclaim.SpanOf(req)
	skipped := map[lease.Pair]bool{}
	for {
		c, err := s.claimFree(ctx, req.Pool.Name, token, sp, skipped)
		if err == nil && c == nil {
			var full bool
			c, full, err = s.makeRow(ctx, req.Pool.Name, token, sp)
			if err == nil && full {
				err = sqlclaim.PoolFull(req, s.claims(), len(skipped))
			}
		}
		if err != nil {
			return nil, err
		}
		if c == nil {
			continue // another process made that row first
		}
		if req.Skips(c.At, c.Rec, c.State) {
			skipped[c.At] = true
			s.mu.Unlock()
			_ = c.Abandon(ctx)
			s.mu.Lock()
			continue
		}
		c.Keep()
		return c, nil
	}
}

// claimFree claims a free or expired row, lowest first, skipping rows
// others are claiming right now and the skipped pairs; nil when none is.
func (s *Store) claimFree(ctx context.Context, pool, token string, sp sqlclaim.Span, skipped map[lease.Pair]bool) (*sqlclaim.Claim, error) {
	got, err := s.query(ctx, `WITH c AS (
			SELECT datacenter, worker FROM `+s.table+`
			WHERE pool = $1 AND datacenter BETWEEN $2::bigint AND $3::bigint AND worker < $4::bigint
			  AND (holder IS NULL OR expires_at <= clock_timestamp())
			  AND NOT (datacenter * $4::bigint + worker = ANY ($6::bigint[]))
			ORDER BY datacenter, worker LIMIT 1 FOR UPDATE SKIP LOCKED)
		UPDATE `+s.table+` t SET holder = $5, expires_at = `+s.expirySQL()+`
		FROM c WHERE t.pool = $1 AND t.datacenter = c.datacenter AND t.worker = c.worker
		RETURNING t.datacenter, t.worker, t.issued_up_to, t.backwards, `+s.seqColumn("t.")+``,
		pool, itoa(sp.Lo), itoa(sp.Hi), itoa(sp.W), token, "{"+strings.Join(sp.Indexes(skipped), ",")+"}")
	if err != nil {
		return nil, s.fail("claim a row of "+s.table, err)
	}
	if len(got) == 0 {
		return nil, nil
	}
	return s.newClaim(got[0], pool, token, false) // an existing row is a record, whatever its values
}

// makeRow makes the row of the lowest pair of sp that has none, held by
// token: a Fresh claim. It returns nil when another process made that row
// first, and full when every pair has a row.
func (s *Store) makeRow(ctx context.Context, pool, token string, sp sqlclaim.Span) (c *sqlclaim.Claim, full bool, err error) {
	got, err := s.query(ctx, `INSERT INTO `+s.table+` (pool, datacenter, worker, holder, expires_at)
		SELECT $1, g / $4::bigint, g % $4::bigint, $5, `+s.expirySQL()+`
		FROM generate_series($2::bigint * $4::bigint, $3::bigint * $4::bigint + $4::bigint - 1) g
		WHERE NOT EXISTS (SELECT 1 FROM `+s.table+` x WHERE x.pool = $1 AND x.datacenter = g / $4::bigint AND x.worker = g % $4::bigint)
		LIMIT 1
		ON CONFLICT DO NOTHING
		RETURNING datacenter, worker, issued_up_to, backwards, `+s.seqColumn("")+``,
		pool, itoa(sp.Lo), itoa(sp.Hi), itoa(sp.W), token)
	if err != nil {
		return nil, false, s.fail("add a row to "+s.table, err)
	}
	if len(got) > 0 {
		c, err = s.newClaim(got[0], pool, token, true) // made just now: the pair had no record
		return c, false, err
	}
	full, err = s.full(ctx, pool, sp)
	return nil, full, err
}

// full reports whether every pair of the span has a row.
func (s *Store) full(ctx context.Context, pool string, sp sqlclaim.Span) (bool, error) {
	got, err := s.query(ctx, `SELECT count(*) FROM `+s.table+` WHERE pool = $1 AND datacenter BETWEEN $2::bigint AND $3::bigint AND worker < $4::bigint`,
		pool, itoa(sp.Lo), itoa(sp.Hi), itoa(sp.W))
	if err != nil {
		return false, s.fail("count rows of "+s.table, err)
	}
	n, _ := strconv.ParseInt(got[0][0], 10, 64)
	return n >= (sp.Hi-sp.Lo+1)*sp.W, nil
}

// newClaim reads a claimed row: pair, record and the seq columns.
func (s *Store) newClaim(row []string, pool, token string, fresh bool) (*sqlclaim.Claim, error) {
	var v [6]int64
	for i := range v {
		n, err := strconv.ParseInt(row[i], 10, 64)
		if err != nil {
			return nil, errs.New(errs.ErrWorker, "%s: table %s holds a bad value %q", s.url.Where, s.table, row[i])
		}
		v[i] = n
	}
	c := sqlclaim.New(s.claims(), pool, token, lease.Pair{DC: v[0], Worker: v[1]})
	c.Rec, c.State = lease.Record{IssuedUpTo: v[2], Backwards: v[3], Seq: v[4], Holder: v[5]}, lease.Present
	if fresh {
		c.State = lease.Fresh
	}
	return c, nil
}
