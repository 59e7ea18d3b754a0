package redisstore

// Taking a pair: read the pool's marker (waiting out a young one), then
// lock the lowest free pair, a batch of candidates per round trip.

import (
	"context"
	"iter"
	"strconv"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// batch is how many pairs one acquire script tries.
const batch = 64

// incarnation reads the pool's marker, making it when missing (marked as
// a loss when the server cannot tell a new pool from a lost one), and
// waits until it is one probation old, and one probation has passed since
// the latest loss it records (every live holder has published its fence
// again by then). epoch is that loss's time (0: none); while it is recent
// (less than the horizon ago) a pair without a record, or with one
// written before it, is lease.Missing; otherwise a pair without a record
// is lease.Fresh.
func (s *Store) incarnation(ctx context.Context, pool string) (inc string, epoch int64, recent bool, err error) {
	for {
		a, err := s.eval(ctx, markerScript, []string{markerKey(pool)}, newToken(), replidArg, lossArg)
		if err != nil {
			return "", 0, false, err
		}
		if len(a) < 4 {
			return "", 0, false, errs.New(errs.ErrWorker, "%s: unexpected marker reply", s.url.Where)
		}
		inc = str(a[0])
		epoch, _ = strconv.ParseInt(str(a[2]), 10, 64)
		since, _ := strconv.ParseInt(str(a[1]), 10, 64) // born, or the loss seen later
		since = max(since, epoch)
		now, _ := strconv.ParseInt(str(a[3]), 10, 64)
		wait := time.Duration(since-now)*time.Millisecond + s.probation
		if wait <= 0 {
			return inc, epoch, epoch > 0 && (s.horizon == Forever || time.Duration(now-epoch)*time.Millisecond < s.horizon), nil
		}
		if d, ok := ctx.Deadline(); ok && time.Until(d) < wait {
			return "", 0, false, errs.New(errs.ErrWorker, "%s: pool %s is new here, or lost its data, %s ago: a taker waits until lease_ttl %s has passed, which is past this call's deadline",
				s.url.Where, pool, s.probation-wait, s.probation)
		}
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return "", 0, false, ctx.Err()
		case <-s.done:
			return "", 0, false, errs.New(errs.ErrWorker, "%s: the store is closed", s.url.Where)
		}
	}
}

// Acquire locks the lowest free pair req accepts.
func (s *Store) Acquire(ctx context.Context, req lease.Request) (lease.Claim, error) {
	sc := &scan{s: s, req: req, pool: req.Pool.Name, token: newToken()}
	var err error
	if sc.inc, sc.epoch, sc.recent, err = s.incarnation(ctx, sc.pool); err != nil {
		return nil, err
	}
	next, stop := iter.Pull2(req.Candidates())
	defer stop()
	for {
		for len(sc.pairs) < batch {
			_, p, ok := next()
			if !ok {
				break
			}
			sc.pairs = append(sc.pairs, p)
		}
		if len(sc.pairs) == 0 {
			return nil, sc.poolFull()
		}
		c, err := sc.lockOne(ctx)
		switch {
		case err != nil:
			return nil, err
		case c == nil: // every pair of the batch is held, or the marker changed
			continue
		case req.Skips(c.pair, c.rec, c.state):
			sc.skipped++
			if c.state == lease.Missing {
				sc.missing++
			}
			_ = c.Abandon(ctx)
			sc.token = newToken()
			continue
		}
		c.keep()
		return c, nil
	}
}

// scan is one Acquire's walk over the candidates.
type scan struct {
	s       *Store
	req     lease.Request
	pool    string
	token   string
	inc     string // the incarnation read, and its latest loss (0: none)
	epoch   int64
	recent  bool         // the loss may still hide fences (less than the horizon ago)
	missing int          // skipped pairs whose record was lost
	pairs   []lease.Pair // the next candidates
	held    int64
	skipped int
	changed int // times the marker changed under the scan
}

// lockOne runs the acquire script on the batch: a claim on its first free
// pair (the pairs before it are held, the batch goes on after it), or nil
// when the batch is all held (dropped) or the marker changed (read again).
func (sc *scan) lockOne(ctx context.Context) (*claim, error) {
	s := sc.s
	keys := []string{markerKey(sc.pool)}
	for _, p := range sc.pairs {
		keys = append(keys, lockKey(sc.pool, p), recKey(sc.pool, p))
	}
	lost := ""
	if sc.epoch > 0 {
		lost = strconv.FormatInt(sc.epoch, 10)
	}
	a, err := s.eval(ctx, acquireScript, keys, sc.token, ms(s.ttl), sc.inc, lost)
	if err != nil {
		return nil, err
	}
	idx, _ := a[0].(int64)
	switch {
	case idx == -1 && sc.changed < 3:
		sc.changed++
		sc.inc, sc.epoch, sc.recent, err = s.incarnation(ctx, sc.pool)
		return nil, err
	case idx == -2:
		sc.held += int64(len(sc.pairs))
		sc.pairs = sc.pairs[:0]
		return nil, nil
	case idx < 0 || idx >= int64(len(sc.pairs)) || len(a) < 6:
		return nil, errs.New(errs.ErrWorker, "%s: unexpected acquire reply %v", s.url.Where, a)
	}
	c, err := s.newClaim(sc.pool, sc.pairs[idx], sc.token, sc.inc, a, sc.epoch, sc.recent)
	if err != nil {
		return nil, err
	}
	n, _ := a[3].(int64)
	sc.held += n
	sc.pairs = sc.pairs[idx+1:]
	return c, nil
}

// newClaim reads what the acquire script found: while the pool's latest
// loss (epoch) is recent, a record written before it may be older than
// its holder's fence, so it is lease.Missing like no record at all.
func (s *Store) newClaim(pool string, p lease.Pair, token, inc string, a []any, epoch int64, recent bool) (*claim, error) {
	c := &claim{s: s, pool: pool, pair: p, token: token, inc: inc, predTok: str(a[4]), state: absentState(recent), held: make(chan struct{}),
		lock: lockKey(pool, p), recKey: recKey(pool, p), marker: markerKey(pool)}
	if f := str(a[1]); f != "" {
		fence, err1 := strconv.ParseInt(f, 10, 64)
		back, err2 := strconv.ParseInt(str(a[2]), 10, 64)
		if err1 != nil || err2 != nil {
			_ = c.Abandon(context.Background())
			return nil, errs.New(errs.ErrWorker, "%s: key %s holds a bad record (fence %q, backwards %q)", s.url.Where, c.recKey, f, str(a[2]))
		}
		c.rec = lease.Record{IssuedUpTo: fence, Backwards: back}
		if len(a) >= 8 {
			c.rec.Seq, _ = strconv.ParseInt(str(a[6]), 10, 64)
			c.rec.Holder, _ = strconv.ParseInt(str(a[7]), 10, 64)
		}
		if recEpoch, _ := strconv.ParseInt(str(a[5]), 10, 64); recEpoch >= epoch || !recent {
			c.state = lease.Present
		}
	}
	return c, nil
}

// poolFull is Acquire's error when no pair could be taken; where pairs
// were skipped because their records may have been lost, it says what an
// operator can do about it.
func (sc *scan) poolFull() error {
	s, req := sc.s, sc.req
	if sc.missing > 0 {
		m := markerKey(sc.pool)
		return lease.PoolFull(req, "on %s (%d held, %d skipped: %d of them have no record Redis can vouch for, as Redis may have lost this pool's data (a restart without persistence, FLUSHALL, a failover) at %s, or the pool is new on a server that cannot tell. "+
			"Restore the records (HSET idgen:{%s}:rec:D:W fence F epoch %d, F above every value issued), or, if no id of this pool was ever issued on this Redis, declare it new (HDEL %s lost); or use a durable store (etcd, ZooKeeper, PostgreSQL, MySQL) or Redis with appendonly yes)",
			s.url.Where, sc.held, sc.skipped, sc.missing, time.UnixMilli(sc.epoch).UTC().Format(time.RFC3339), sc.pool, sc.epoch, m)
	}
	if sc.skipped > 0 {
		return lease.PoolFull(req, "on %s (%d held, %d skipped: records ahead of the clock)", s.url.Where, sc.held, sc.skipped)
	}
	return lease.PoolFull(req, "on %s (%d held)", s.url.Where, sc.held)
}

// absentState is what a pair without a record is in an incarnation.
func absentState(lost bool) lease.State {
	if lost {
		return lease.Missing
	}
	return lease.Fresh
}
