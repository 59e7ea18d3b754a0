package redisstore

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/idgen/idgen/internal/lease"
)

// claim is one held lock.
type claim struct {
	s       *Store
	pool    string
	pair    lease.Pair
	token   string
	predTok string // the token of the record found at acquisition
	rec     lease.Record
	state   lease.State
	lock    string
	recKey  string
	marker  string

	mu    sync.Mutex // the fields below (the Keeper serialises calls anyway)
	inc   string     // the incarnation the claim lives in
	seq   int64      // record writes sent
	acked int64      // the last write acknowledged

	held chan struct{} // closed at the first write, or when given up: keep stops
	once sync.Once
}

func (c *claim) Pair() lease.Pair                         { return c.pair }
func (c *claim) Predecessor() (lease.Record, lease.State) { return c.rec, c.state }
func (c *claim) Where() string {
	return fmt.Sprintf("key %s on %s", c.lock, c.s.url.Where)
}

// keep moves the lock's expiry every lease_ttl/3, in the background,
// until the first write or until the claim is given up: a taker holds its
// claim however long it waits for its predecessor's record.
func (c *claim) keep() {
	// lease.Keep guards the keeping: a panic ends it, never the host.
	go lease.Keep(c.s.ttl, c.held, c.s.done, func(ctx context.Context) bool {
		a, err := c.s.eval(ctx, lockScript, []string{c.lock}, c.token, ms(c.s.ttl), "keep")
		n, _ := firstInt(a)
		return err == nil && n == 0 // the lock is gone: the first write will say so
	})
}

func (c *claim) kept() { c.once.Do(func() { close(c.held) }) }

func firstInt(a []any) (int64, bool) {
	if len(a) == 0 {
		return 0, false
	}
	n, ok := a[0].(int64)
	return n, ok
}

// Renew writes rec and keeps the lock for another lease_ttl.
func (c *claim) Renew(ctx context.Context, rec lease.Record) error {
	return c.write(ctx, rec, false)
}

// Release writes the final record and deletes the lock.
func (c *claim) Release(ctx context.Context, rec lease.Record) error {
	c.kept()
	return c.write(ctx, rec, true)
}

// Abandon deletes the lock, writing nothing.
func (c *claim) Abandon(ctx context.Context) error {
	c.kept()
	_, err := c.s.eval(ctx, lockScript, []string{c.lock}, c.token, ms(c.s.ttl), "drop")
	return err
}

func (c *claim) write(ctx context.Context, rec lease.Record, final bool) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	sent := time.Now()
	a, err := c.s.eval(ctx, writeScript, []string{c.lock, c.recKey, c.marker},
		c.token, ms(c.s.ttl), strconv.FormatInt(rec.IssuedUpTo, 10), strconv.FormatInt(rec.Backwards, 10),
		strconv.FormatInt(c.seq, 10), strconv.FormatInt(c.acked, 10), c.inc, newToken(),
		c.s.host, c.s.pid, flag(final), c.predTok, replidArg,
		strconv.FormatInt(rec.Seq, 10), strconv.FormatInt(rec.Holder, 10))
	if err != nil {
		return err
	}
	if len(a) < 3 {
		return fmt.Errorf("%s: unexpected write reply %v", c.s.url.Where, a)
	}
	c.kept()
	if len(a) >= 4 {
		c.s.noteClock(str(a[3]), sent)
	}
	if str(a[0]) == "gone" {
		c.inc = str(a[2])
		return lease.Gone("%s: %s", c.Where(), str(a[1]))
	}
	c.inc, c.acked = str(a[1]), c.seq
	return c.s.waitReplicas(ctx)
}
