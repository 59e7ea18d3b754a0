// Package sqlclaim is the claim of the SQL lease stores (pgstore,
// mysqlstore), which keep one row per pair: the row is held while it
// carries the holder's random token, kept from expiring by itself until
// the first renewal, and renewed, released and given up by updates that
// match the row only while it still carries that token.
package sqlclaim

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/idgen/idgen/internal/lease"
)

// Table is a SQL store's lease table as its claims see it.
type Table struct {
	Where  string // the table and the database: "table … on host:port/db"
	Expiry string // the expiry of a row renewed now, in database time (SQL)
	TTL    time.Duration
	Done   <-chan struct{} // closed when the store closes
	// Update sets, on the claim's row while it carries the claim's token,
	// the columns of set and, when rec is not nil, the record's columns
	// (RecordSet); matched false when no row carries the token.
	Update func(ctx context.Context, c *Claim, set string, rec *lease.Record) (matched bool, err error)
}

// Open connects within ttl plus a few seconds and makes the table ready
// (ready may be nil), closing the store again when that fails.
func Open[S interface{ Close() error }](ttl time.Duration, connect func(context.Context) (S, error), ready func(S, context.Context) error) (S, error) {
	ctx, cancel := context.WithTimeout(context.Background(), ttl+3*time.Second)
	defer cancel()
	s, err := connect(ctx)
	if err == nil && ready != nil {
		if err = ready(s, ctx); err != nil {
			_ = s.Close()
		}
	}
	if err != nil {
		var none S
		return none, err
	}
	return s, nil
}

// Claim is one held row.
type Claim struct {
	Pool, Token string
	At          lease.Pair   // the pair
	Rec         lease.Record // the predecessor's record
	State       lease.State

	t    *Table
	held chan struct{} // closed at the first renewal, or when given up: keep stops
	once sync.Once
}

// New is a claim of t's row of pair p in pool, carrying token; the caller
// fills in what the row says (Rec, State: Fresh until then).
func New(t *Table, pool, token string, p lease.Pair) *Claim {
	return &Claim{Pool: pool, Token: token, At: p, t: t, held: make(chan struct{})}
}

// NewToken is a holder's random token, with who holds it ("@host:pid")
// for idgen leases.
func NewToken() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b) + "@" + lease.HolderID()
}

// Keep moves the row's expiry every lease_ttl/3, in the background, until
// the claim is renewed or given up (or the store closed): a taker holds
// its claim however long it waits before its first renewal.
func (c *Claim) Keep() {
	go lease.Keep(c.t.TTL, c.held, c.t.Done, func(ctx context.Context) bool {
		return errors.Is(c.update(ctx, "expires_at = "+c.t.Expiry, nil), lease.ErrGone)
	})
}

// kept stops Keep.
func (c *Claim) kept() { c.once.Do(func() { close(c.held) }) }

// Pair is the claimed pair.
func (c *Claim) Pair() lease.Pair { return c.At }

// Predecessor is the record found when the pair was taken.
func (c *Claim) Predecessor() (lease.Record, lease.State) { return c.Rec, c.State }

// Where names the row for messages.
func (c *Claim) Where() string {
	return fmt.Sprintf("row (%s, %d, %d) of %s", c.Pool, c.At.DC, c.At.Worker, c.t.Where)
}

// update runs one statement on the row while it carries the token.
func (c *Claim) update(ctx context.Context, set string, rec *lease.Record) error {
	matched, err := c.t.Update(ctx, c, set, rec)
	if err == nil && !matched {
		return lease.Gone("the row now has another holder")
	}
	return err
}

// Renew writes the record and moves the expiry to the next bucket; from
// the first one on, the holder's renewals alone keep the row.
func (c *Claim) Renew(ctx context.Context, rec lease.Record) error {
	err := c.update(ctx, "expires_at = "+c.t.Expiry, &rec)
	if err == nil || errors.Is(err, lease.ErrGone) {
		c.kept()
	}
	return err
}

// Release writes the final record and frees the row.
func (c *Claim) Release(ctx context.Context, rec lease.Record) error {
	c.kept()
	return c.update(ctx, "holder = NULL, expires_at = NULL", &rec)
}

// Abandon frees the row without writing the record.
func (c *Claim) Abandon(ctx context.Context) error {
	c.kept()
	return c.update(ctx, "holder = NULL, expires_at = NULL", nil)
}

// RecordSet sets the record's columns, each value a parameter named by
// param (0 to 3): issued_up_to and backwards, and next_seq and writer when
// the table has them (seq). RecordArgs are the values.
func RecordSet(seq bool, param func(i int) string) string {
	cols := recordColumns(seq)
	for i, col := range cols {
		cols[i] = col + " = " + param(i)
	}
	return strings.Join(cols, ", ")
}

// recordColumns are the record's columns of a table (seq: it has next_seq
// and writer).
func recordColumns(seq bool) []string {
	if seq {
		return []string{"issued_up_to", "backwards", "next_seq", "writer"}
	}
	return []string{"issued_up_to", "backwards"}
}

// RecordArgs are RecordSet's values.
func RecordArgs(seq bool, r lease.Record) []int64 {
	if seq {
		return []int64{r.IssuedUpTo, r.Backwards, r.Seq, r.Holder}
	}
	return []int64{r.IssuedUpTo, r.Backwards}
}

// PoolFull is Acquire's error when every pair of req has a live row;
// skipped were free but rejected by req (records ahead of the clock).
func PoolFull(req lease.Request, t *Table, skipped int) error {
	if skipped > 0 {
		return lease.PoolFull(req, "in %s (%d skipped: records ahead of the clock)", t.Where, skipped)
	}
	return lease.PoolFull(req, "in %s", t.Where)
}

// Span is the range of pairs a request may take: datacenters Lo to Hi, W
// workers each; a pair's index is datacenter·W + worker.
type Span struct{ Lo, Hi, W int64 }

// SpanOf is req's span.
func SpanOf(req lease.Request) Span {
	sp := Span{0, req.Pool.DCs - 1, req.Pool.Workers}
	if req.DC >= 0 {
		sp.Lo, sp.Hi = req.DC, req.DC
	}
	return sp
}

// Indexes are the indexes of pairs, in decimal, in no order.
func (sp Span) Indexes(pairs map[lease.Pair]bool) []string {
	out := make([]string, 0, len(pairs))
	for p := range pairs {
		out = append(out, strconv.FormatInt(p.DC*sp.W+p.Worker, 10))
	}
	return out
}
