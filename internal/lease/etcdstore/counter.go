package etcdstore

// Segment counters (preset=segment store=etcd://…): one key per counter,
// <prefix>/segment/<name>, holding "idgen-segment 1 <last>" (last: the
// last value taken, start-1 when new). A take is one transaction that
// writes the new value only if the key's mod revision is still the one
// the taker knows (or, for a new counter, only if the key does not
// exist); when another taker wrote in between, the transaction's other
// branch reads the key, and the taker tries again from there. A taker
// keeps the revision its own write made, so a take costs one round trip
// while nobody else takes. A write whose answer never came may have
// landed: its values are then lost, never handed out twice. A take with
// a mark (segment.Store) refuses a key that is missing or below it; the
// transaction's compare on the revision read makes that check and the
// write one atomic step (a key deleted since makes it fail, and the key
// is read again).

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/segment"
)

// Counters is an etcd cluster as a segment.Store.
type Counters struct {
	s     *Store
	mu    sync.Mutex
	known map[string]counterAt // per counter, what the last answer said
}

// counterAt is a counter's value at a mod revision (rev 0: the key does
// not exist).
type counterAt struct{ last, rev int64 }

// Where names the cluster and the prefix.
func (c *Counters) Where() string { return c.s.url.Where + " prefix " + c.s.url.Root }

// Close drops the connections.
func (c *Counters) Close() error { return c.s.Close() }

// CounterKey is the key of a counter under prefix.
func CounterKey(prefix, name string) string { return prefix + "/segment/" + name }

const counterHead = "idgen-segment 1 "

// decode reads a counter's key (nil: it does not exist).
func (c *Counters) decode(key string, got *kv) (counterAt, error) {
	if got == nil {
		return counterAt{}, nil
	}
	text := string(got.Value)
	digits, _ := bytes.CutPrefix(got.Value, []byte(counterHead))
	v, err := strconv.ParseInt(string(digits), 10, 64)
	if err != nil || v < 0 || counterHead+strconv.FormatInt(v, 10) != text {
		if len(text) > 64 {
			text = text[:64] + "..."
		}
		return counterAt{}, errs.New(errs.ErrWorker, "%s: key %s does not hold an idgen counter (%q); idgen never guesses one", c.Where(), key, text)
	}
	return counterAt{last: v, rev: got.ModRevision}, nil
}

// current is what the counter was at the last answer, read when unknown.
func (c *Counters) current(ctx context.Context, key string) (counterAt, error) {
	c.mu.Lock()
	at, ok := c.known[key]
	c.mu.Unlock()
	if ok {
		return at, nil
	}
	got, err := c.s.c.read(ctx, key)
	if err != nil {
		return counterAt{}, c.s.fail("read counter "+key, err)
	}
	return c.decode(key, got)
}

// write sets key from at to v in one transaction on its revision: ok is
// false when another writer was first (what it wrote is known now).
func (c *Counters) write(ctx context.Context, key string, at counterAt, v int64) (ok bool, err error) {
	cmp := modIs(key, at.rev)
	if at.rev == 0 {
		cmp = createdIs(key, 0)
	}
	r, err := c.s.c.txn(ctx, []obj{cmp}, []obj{put(key, []byte(counterHead+strconv.FormatInt(v, 10)), 0)}, []obj{get(key)})
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.known, key)
	if err != nil {
		return false, c.s.fail("write counter "+key, err) // it may have landed: read it again next time
	}
	if r.Succeeded {
		c.known[key] = counterAt{last: v, rev: r.Header.Revision}
		return true, nil
	}
	now, err := c.decode(key, r.ranged(0))
	if err == nil {
		c.known[key] = now
	}
	return false, err
}

// Take implements segment.Store.
func (c *Counters) Take(ctx context.Context, name string, start, n, mark int64) (int64, int64, error) {
	key := CounterKey(c.s.url.Root, name)
	for {
		at, err := c.current(ctx, key)
		if err != nil {
			return 0, 0, err
		}
		if at.rev == 0 && mark > 0 || at.rev != 0 && at.last < mark {
			c.forget(key) // a cached answer may be stale: refuse only what the store says
			if at, err = c.current(ctx, key); err == nil && (at.rev == 0 && mark > 0 || at.rev != 0 && at.last < mark) {
				err = segment.WentBack(c.Where(), name, mark, at.last, at.rev != 0, fmt.Sprintf("etcdctl put %s 'idgen-segment 1 %d'", key, mark))
			}
			if err != nil {
				return 0, 0, err
			}
		}
		if at.rev == 0 {
			at.last = start - 1
		}
		last, err := segment.Advance(at.last, n)
		if err != nil {
			return 0, 0, err
		}
		ok, err := c.write(ctx, key, at, last)
		if err != nil {
			return 0, 0, err
		}
		if ok {
			return at.last, last, nil
		}
		if ctx.Err() != nil {
			return 0, 0, c.s.fail("take a segment of counter "+key, ctx.Err())
		}
	}
}

// forget drops what the last answer said about key: read it afresh.
func (c *Counters) forget(key string) {
	c.mu.Lock()
	delete(c.known, key)
	c.mu.Unlock()
}

// GiveBack implements segment.Store.
func (c *Counters) GiveBack(ctx context.Context, name string, last, to int64) (bool, error) {
	key := CounterKey(c.s.url.Root, name)
	c.forget(key) // only its present value counts
	at, err := c.current(ctx, key)
	if err != nil || at.rev == 0 || at.last != last {
		return false, err
	}
	return c.write(ctx, key, at, to)
}

// Read implements segment.Store: the key as the store holds it now.
func (c *Counters) Read(ctx context.Context, name string) (int64, bool, error) {
	key := CounterKey(c.s.url.Root, name)
	got, err := c.s.c.read(ctx, key)
	if err != nil {
		return 0, false, c.s.fail("read counter "+key, err)
	}
	at, err := c.decode(key, got)
	return at.last, err == nil && at.rev != 0, err
}
