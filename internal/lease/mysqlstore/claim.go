package mysqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/sqlclaim"
)

var (
	_ lease.Store   = (*Store)(nil)
	_ lease.Clocked = (*Store)(nil)
	_ lease.Lister  = (*Store)(nil)
)

// claims is the table as the store's claims see it.
func (s *Store) claims() *sqlclaim.Table {
	return &sqlclaim.Table{Where: "table " + s.table + " on " + s.url.Where, Expiry: s.expirySQL(), TTL: s.ttl, Done: s.done, Update: s.update}
}

// update changes the claim's row while it carries its token (the
// connection counts matched rows: an update that changes nothing still
// finds the row).
func (s *Store) update(ctx context.Context, c *sqlclaim.Claim, set string, rec *lease.Record) (bool, error) {
	var args []any
	if rec != nil {
		set += ", " + s.recordSet()
		args = s.recordArgs(*rec)
	}
	args = append(args, c.Pool, c.At.DC, c.At.Worker, c.Token)
	res, err := s.db.ExecContext(ctx, `UPDATE `+s.table+` SET `+set+`
		WHERE pool = ? AND datacenter = ? AND worker = ? AND holder = ?`, args...)
	if err != nil {
		return false, errors.New(reason(s.url, err))
	}
	n, err := res.RowsAffected()
	return err != nil || n > 0, nil
}

// Acquire claims req.First when it is free, else the lowest free or
// expired pair; when none is, it makes the row of the lowest pair that has
// none.
func (s *Store) Acquire(ctx context.Context, req lease.Request) (lease.Claim, error) {
	token := sqlclaim.NewToken()
	token = token[:min(len(token), 255)]
	sp := sqlclaim.SpanOf(req)
	skipped := map[lease.Pair]bool{}
	first := req.First
	for {
		if err := ctx.Err(); err != nil {
			return nil, s.fail("claim a row of "+s.table, err)
		}
		if req.Limit > 0 && int64(len(skipped)) >= req.Limit {
			return nil, sqlclaim.PoolFull(req, s.claims(), len(skipped))
		}
		var c *sqlclaim.Claim
		var err error
		if first != nil && first.DC >= sp.Lo && first.DC <= sp.Hi && first.Worker >= 0 && first.Worker < sp.W {
			c, err = s.claimFree(ctx, req.Pool.Name, token, sp, skipped, first)
		}
		first = nil
		if c == nil && err == nil {
			c, err = s.claimFree(ctx, req.Pool.Name, token, sp, skipped, nil)
		}
		if err != nil {
			return nil, err
		}
		if c == nil {
			full := false
			if c, full, err = s.makeRow(ctx, req.Pool.Name, token, sp); err != nil {
				return nil, err
			}
			if full {
				return nil, sqlclaim.PoolFull(req, s.claims(), len(skipped))
			}
			if c == nil {
				continue // another process made that row first
			}
		}
		if req.Skips(c.At, c.Rec, c.State) {
			skipped[c.At] = true
			_ = c.Abandon(ctx)
			continue
		}
		c.Keep()
		return c, nil
	}
}

// claimFree takes a free or expired row (only's, when given), lowest
// first, skipping rows others are claiming right now, in one short READ
// COMMITTED transaction: rows it passes over are not left locked.
func (s *Store) claimFree(ctx context.Context, pool, token string, sp sqlclaim.Span, skipped map[lease.Pair]bool, only *lease.Pair) (*sqlclaim.Claim, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return nil, s.fail("claim a row of "+s.table, err)
	}
	defer tx.Rollback()
	q := `SELECT datacenter, worker, issued_up_to, backwards, ` + s.seqColumn() + ` FROM ` + s.table + `
		WHERE pool = ? AND datacenter BETWEEN ? AND ? AND worker < ?
		  AND (holder IS NULL OR expires_at <= UTC_TIMESTAMP(6))`
	args := []any{pool, sp.Lo, sp.Hi, sp.W}
	if only != nil {
		q += ` AND datacenter = ? AND worker = ?`
		args = append(args, only.DC, only.Worker)
	}
	if len(skipped) > 0 {
		q += ` AND datacenter * ` + strconv.FormatInt(sp.W, 10) + ` + worker NOT IN (` + strings.Join(sp.Indexes(skipped), ",") + `)`
	}
	q += ` ORDER BY datacenter, worker LIMIT 1 FOR UPDATE SKIP LOCKED`
	c := sqlclaim.New(s.claims(), pool, token, lease.Pair{})
	c.State = lease.Present
	err = tx.QueryRowContext(ctx, q, args...).Scan(&c.At.DC, &c.At.Worker, &c.Rec.IssuedUpTo, &c.Rec.Backwards, &c.Rec.Seq, &c.Rec.Holder)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err == nil {
		_, err = tx.ExecContext(ctx, `UPDATE `+s.table+` SET holder = ?, expires_at = `+s.expirySQL()+`
			WHERE pool = ? AND datacenter = ? AND worker = ?`, token, pool, c.At.DC, c.At.Worker)
	}
	if err == nil {
		err = tx.Commit()
	}
	if err != nil {
		return nil, s.fail("claim a row of "+s.table, err)
	}
	return c, nil
}

// makeRow makes the row of the lowest pair of sp that has none, held by
// token: a Fresh claim. It returns nil when another process made that row
// first, and full when every pair has a row.
func (s *Store) makeRow(ctx context.Context, pool, token string, sp sqlclaim.Span) (c *sqlclaim.Claim, full bool, err error) {
	var g int64
	err = s.db.QueryRowContext(ctx, `SELECT x.g FROM (
			SELECT ? AS g UNION ALL
			SELECT datacenter * ? + worker + 1 FROM `+s.table+` WHERE pool = ? AND datacenter BETWEEN ? AND ? AND worker < ?) x
		WHERE x.g <= ? AND NOT EXISTS (SELECT 1 FROM `+s.table+` y
			WHERE y.pool = ? AND y.datacenter = x.g DIV ? AND y.worker = x.g MOD ?)
		ORDER BY x.g LIMIT 1`,
		sp.Lo*sp.W, sp.W, pool, sp.Lo, sp.Hi, sp.W, sp.Hi*sp.W+sp.W-1, pool, sp.W, sp.W).Scan(&g)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, s.fail("look for a pair without a row in "+s.table, err)
	}
	p := lease.Pair{DC: g / sp.W, Worker: g % sp.W}
	_, err = s.db.ExecContext(ctx, `INSERT INTO `+s.table+` (pool, datacenter, worker, holder, expires_at)
		VALUES (?, ?, ?, ?, `+s.expirySQL()+`)`, pool, p.DC, p.Worker, token)
	if errNumber(err) == errDupKey {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, s.fail("add a row to "+s.table, err)
	}
	return sqlclaim.New(s.claims(), pool, token, p), false, nil // Fresh
}
