package sim

// The simulated store: one lease.Store per process over one shared state,
// with the semantics of the real ones: exclusive claims that expire after
// lease_ttl of store time, records that outlive their holders and change
// only under the holder's token; a durable kind (ZooKeeper, PostgreSQL,
// MySQL, etcd), a lossy kind (Redis: it may restart empty, with DESIGN's
// incarnation rule) and the host directory (a record file can be deleted
// under a live holder).

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// view is one process's connection to the store.
type view struct {
	s    *shared
	proc *Proc
}

var errUnreachable = errors.New("simulated: the store is out of reach")

func (v *view) reachable() error {
	if v.s.down || v.proc.cut {
		return errUnreachable
	}
	return nil
}

func (v *view) Close() error { return nil }

// absent is what a pair without a record means in this store.
func (s *shared) absent() lease.State {
	switch {
	case s.kind == Lossy && s.lost && mutant() != "redis-incarnation":
		return lease.Missing // the incarnation changed: records may be lost
	case s.kind == HostDir && s.used:
		return lease.Missing
	case s.kind == HostDir:
		return lease.Unmarked
	}
	return lease.Fresh
}

func (v *view) Acquire(_ context.Context, req lease.Request) (lease.Claim, error) {
	if err := v.reachable(); err != nil {
		return nil, err
	}
	s := v.s
	now := s.w.now
	for _, p := range req.Candidates() {
		if l, ok := s.locks[p]; ok && l.expires > now {
			continue
		}
		rec, ok := s.recs[p]
		st := lease.Present
		if !ok {
			st = s.absent()
		}
		if req.Skips(p, rec, st) {
			continue
		}
		s.tokens++
		s.reach = max(s.reach, req.Reach) // the pool marker, before the first record
		s.locks[p] = lock{token: s.tokens, proc: v.proc.id, expires: now + int64(s.w.ttl)}
		s.used = true
		return &claim{v: v, pair: p, token: s.tokens, rec: rec, state: st, file: s.files[p]}, nil
	}
	return nil, errs.New(errs.ErrWorker, "all %d pairs are taken (simulated store)", req.Count())
}

type claim struct {
	v     *view
	pair  lease.Pair
	token int64
	rec   lease.Record
	state lease.State
	file  int // the record file it locked (hostdir)
}

func (c *claim) Pair() lease.Pair                         { return c.pair }
func (c *claim) Predecessor() (lease.Record, lease.State) { return c.rec, c.state }
func (c *claim) Where() string                            { return fmt.Sprintf("simulated %s lease %s", c.v.s.kind, c.pair) }

// held checks the claim's token; an expired lock nobody took again still
// renews (a SQL row's token still matches), as in the real stores.
func (c *claim) held() bool {
	l, ok := c.v.s.locks[c.pair]
	return ok && l.token == c.token || mutant() == "renew-unchecked"
}

// AnnounceUntil: the pool marker lists how far a taker's fences may run
// once it knows where it starts, before its first record
// (lease.UntilAnnouncer).
func (c *claim) AnnounceUntil(d time.Duration) {
	if mutant() != "reach-unannounced" {
		c.v.s.until = max(c.v.s.until, c.v.s.w.now+int64(d))
	}
}

func (c *claim) Renew(_ context.Context, rec lease.Record) error {
	if err := c.v.reachable(); err != nil {
		return err
	}
	s := c.v.s
	if !c.held() {
		if c.file != s.files[c.pair] {
			return lease.Removed("the record file was deleted or replaced")
		}
		return lease.Gone("the lock has another holder or none")
	}
	s.recs[c.pair] = rec
	s.locks[c.pair] = lock{token: c.token, proc: c.v.proc.id, expires: s.w.now + int64(s.w.ttl)}
	s.renewed[c.token] = rec.IssuedUpTo
	return nil
}

func (c *claim) Release(ctx context.Context, rec lease.Record) error {
	if err := c.Renew(ctx, rec); err != nil {
		return err
	}
	delete(c.v.s.locks, c.pair)
	return nil
}

func (c *claim) Abandon(context.Context) error {
	if c.v.reachable() == nil {
		if l, ok := c.v.s.locks[c.pair]; ok && l.token == c.token {
			delete(c.v.s.locks, c.pair)
		}
	}
	return nil
}

// PoolReach is the largest reach of the pool's holders, which the host
// directory's pool marker keeps (lease.PoolReacher); the other kinds keep
// no pool-wide facts.
func (v *view) PoolReach(context.Context, lease.Pool) time.Duration {
	if v.s.kind != HostDir || v.reachable() != nil || mutant() == "reach-ignored" {
		return 0
	}
	return max(v.s.reach, time.Duration(v.s.until-v.s.w.now))
}

// MayLoseRecords: the lossy kind restarts empty (lease.Lossy).
func (v *view) MayLoseRecords() bool { return v.s.kind == Lossy }

// OneClock: the host directory's holders share one host's clock
// (lease.OneClock); in the simulated world each process has its own skew,
// so this stands for a pool of processes on one host only where the skews
// are the same host's clock read at different times.
func (v *view) OneClock() bool { return v.s.kind == HostDir }

// lose is a lossy store restarting empty.
func (s *shared) lose() {
	s.recs = map[lease.Pair]lease.Record{}
	s.locks = map[lease.Pair]lock{}
	s.lost = true
}

// deleteRecord removes a pair's record file (the host directory): its
// holder finds its file gone at its next renewal.
func (s *shared) deleteRecord(p lease.Pair) {
	s.files[p]++
	delete(s.recs, p)
	delete(s.locks, p)
}
