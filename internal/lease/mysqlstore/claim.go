package mysqlstore

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

var (
	_ lease.Store   = (*Store)(nil)
	_ lease.Clocked = (*Store)(nil)
	_ lease.Lister  = (*Store)(nil)
)

// span is the range of pairs a request may take: datacenters lo..hi, w
// workers each; a pair's index is datacenter·w + worker.
type span struct{ lo, hi, w int64 }

func spanOf(req lease.Request) span {
	sp := span{0, req.Pool.DCs - 1, req.Pool.Workers}
	if req.DC >= 0 {
		sp.lo, sp.hi = req.DC, req.DC
	}
	return sp
}

// Acquire claims req.First when it is free, else the lowest free or
// expired pair; when none is, it makes the row of the lowest pair that has
// none.
func (s *Store) Acquire(ctx context.Context, req lease.Request) (lease.Claim, error) {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	token := hex.EncodeToString(b) + "@" + lease.HolderID() // who holds it, for idgen leases
	token = token[:min(len(token), 255)]
	sp := spanOf(req)
	skipped := map[lease.Pair]bool{}
	first := req.First
	for {
		if err := ctx.Err(); err != nil {
			return nil, s.fail("claim a row of "+s.table, err)
		}
		if req.Limit > 0 && int64(len(skipped)) >= req.Limit {
			return nil, s.poolFull(req, len(skipped))
		}
		var c *claim
		var err error
		if first != nil && first.DC >= sp.lo && first.DC <= sp.hi && first.Worker >= 0 && first.Worker < sp.w {
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
				return nil, s.poolFull(req, len(skipped))
			}
			if c == nil {
				continue // another process made that row first
			}
		}
		if req.Skips(c.pair, c.rec, c.state) {
			skipped[c.pair] = true
			_ = c.Abandon(ctx)
			continue
		}
		go c.keep()
		return c, nil
	}
}

// claimFree takes a free or expired row (only's, when given), lowest
// first, skipping rows others are claiming right now, in one short READ
// COMMITTED transaction: rows it passes over are not left locked.
func (s *Store) claimFree(ctx context.Context, pool, token string, sp span, skipped map[lease.Pair]bool, only *lease.Pair) (*claim, error) {
	tx, err := s.db.BeginTx(ctx, &sql.TxOptions{Isolation: sql.LevelReadCommitted})
	if err != nil {
		return nil, s.fail("claim a row of "+s.table, err)
	}
	defer tx.Rollback()
	q := `SELECT datacenter, worker, issued_up_to, backwards, ` + s.seqColumn() + ` FROM ` + s.table + `
		WHERE pool = ? AND datacenter BETWEEN ? AND ? AND worker < ?
		  AND (holder IS NULL OR expires_at <= UTC_TIMESTAMP(6))`
	args := []any{pool, sp.lo, sp.hi, sp.w}
	if only != nil {
		q += ` AND datacenter = ? AND worker = ?`
		args = append(args, only.DC, only.Worker)
	}
	if len(skipped) > 0 {
		idx := make([]string, 0, len(skipped))
		for p := range skipped {
			idx = append(idx, strconv.FormatInt(p.DC*sp.w+p.Worker, 10))
		}
		q += ` AND datacenter * ` + strconv.FormatInt(sp.w, 10) + ` + worker NOT IN (` + strings.Join(idx, ",") + `)`
	}
	q += ` ORDER BY datacenter, worker LIMIT 1 FOR UPDATE SKIP LOCKED`
	c := &claim{s: s, pool: pool, token: token, state: lease.Present, held: make(chan struct{})}
	err = tx.QueryRowContext(ctx, q, args...).Scan(&c.pair.DC, &c.pair.Worker, &c.rec.IssuedUpTo, &c.rec.Backwards, &c.rec.Seq, &c.rec.Holder)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err == nil {
		_, err = tx.ExecContext(ctx, `UPDATE `+s.table+` SET holder = ?, expires_at = `+s.expirySQL()+`
			WHERE pool = ? AND datacenter = ? AND worker = ?`, token, pool, c.pair.DC, c.pair.Worker)
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
func (s *Store) makeRow(ctx context.Context, pool, token string, sp span) (c *claim, full bool, err error) {
	var g int64
	err = s.db.QueryRowContext(ctx, `SELECT x.g FROM (
			SELECT ? AS g UNION ALL
			SELECT datacenter * ? + worker + 1 FROM `+s.table+` WHERE pool = ? AND datacenter BETWEEN ? AND ? AND worker < ?) x
		WHERE x.g <= ? AND NOT EXISTS (SELECT 1 FROM `+s.table+` y
			WHERE y.pool = ? AND y.datacenter = x.g DIV ? AND y.worker = x.g MOD ?)
		ORDER BY x.g LIMIT 1`,
		sp.lo*sp.w, sp.w, pool, sp.lo, sp.hi, sp.w, sp.hi*sp.w+sp.w-1, pool, sp.w, sp.w).Scan(&g)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, true, nil
	}
	if err != nil {
		return nil, false, s.fail("look for a pair without a row in "+s.table, err)
	}
	p := lease.Pair{DC: g / sp.w, Worker: g % sp.w}
	_, err = s.db.ExecContext(ctx, `INSERT INTO `+s.table+` (pool, datacenter, worker, holder, expires_at)
		VALUES (?, ?, ?, ?, `+s.expirySQL()+`)`, pool, p.DC, p.Worker, token)
	if errNumber(err) == errDupKey {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, s.fail("add a row to "+s.table, err)
	}
	return &claim{s: s, pool: pool, token: token, pair: p, state: lease.Fresh, held: make(chan struct{})}, false, nil
}

func (s *Store) poolFull(req lease.Request, skipped int) error {
	n := req.Count()
	what := fmt.Sprintf("all %d pairs of pool %s", n, req.Pool.Name)
	if req.DC >= 0 {
		what = fmt.Sprintf("all %d workers of datacenter %d in pool %s (%d pairs)", n, req.DC, req.Pool.Name, req.Pool.Size())
	}
	msg := fmt.Sprintf("%s are taken in table %s on %s", what, s.table, s.url.Where())
	if skipped > 0 {
		msg += fmt.Sprintf(" (%d skipped: records ahead of the clock)", skipped)
	}
	return errs.New(errs.ErrWorker, "%s", msg)
}

// claim is one held row.
type claim struct {
	s     *Store
	pool  string
	token string
	pair  lease.Pair
	rec   lease.Record
	state lease.State
	held  chan struct{} // closed at the first renewal, or when given up: keep stops
	once  sync.Once
}

// keep moves the row's expiry every lease_ttl/3 until the claim is renewed
// or given up (or the store closed): a taker holds its claim however long
// it waits before its first renewal.
func (c *claim) keep() {
	t := time.NewTicker(max(c.s.ttl/3, time.Millisecond))
	defer t.Stop()
	for {
		select {
		case <-c.held:
			return
		case <-c.s.done:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), max(c.s.ttl/3, time.Millisecond))
		err := c.update(ctx, "expires_at = "+c.s.expirySQL())
		cancel()
		if errors.Is(err, lease.ErrGone) {
			return
		}
	}
}

// kept stops keep.
func (c *claim) kept() { c.once.Do(func() { close(c.held) }) }

func (c *claim) Pair() lease.Pair                         { return c.pair }
func (c *claim) Predecessor() (lease.Record, lease.State) { return c.rec, c.state }
func (c *claim) Where() string {
	return fmt.Sprintf("row (%s, %d, %d) of table %s on %s", c.pool, c.pair.DC, c.pair.Worker, c.s.table, c.s.url.Where())
}

// update changes the row while it carries our token (the connection counts
// matched rows: an update that changes nothing still finds the row).
func (c *claim) update(ctx context.Context, set string, args ...any) error {
	args = append(args, c.pool, c.pair.DC, c.pair.Worker, c.token)
	res, err := c.s.db.ExecContext(ctx, `UPDATE `+c.s.table+` SET `+set+`
		WHERE pool = ? AND datacenter = ? AND worker = ? AND holder = ?`, args...)
	if err != nil {
		return errors.New(reason(c.s.url, err))
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return lease.Gone("the row now has another holder")
	}
	return nil
}

// Renew writes the record and moves the expiry to the next bucket; from
// the first one on, the holder's renewals alone keep the row.
func (c *claim) Renew(ctx context.Context, rec lease.Record) error {
	err := c.update(ctx, "expires_at = "+c.s.expirySQL()+", "+c.s.recordSet(), c.s.recordArgs(rec)...)
	if err == nil || errors.Is(err, lease.ErrGone) {
		c.kept()
	}
	return err
}

// Release writes the final record and frees the row.
func (c *claim) Release(ctx context.Context, rec lease.Record) error {
	c.kept()
	return c.update(ctx, "holder = NULL, expires_at = NULL, "+c.s.recordSet(), c.s.recordArgs(rec)...)
}

// Abandon frees the row without writing the record.
func (c *claim) Abandon(ctx context.Context) error {
	c.kept()
	return c.update(ctx, "holder = NULL, expires_at = NULL")
}
