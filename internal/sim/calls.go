package sim

// The calls a process makes: open, configure, issue, and the checks on
// what they return.

import (
	"errors"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/gen"
)

// open opens the setup's generator in p.
func (s *sched) open(p *Proc) {
	w := s.w
	if s.noOpen {
		return
	}
	p.blocked = 0
	if !s.su.Leased {
		// A fixed worker is unique across opens only while its clock does
		// not go back (a lease is what makes a clock going back safe):
		// configure may have read it behind, which Continue covers for
		// the replacement alone, not for an open after a close.
		p.skew = max(p.skew, p.maxSkew)
	}
	p.clk = &procClock{p: p, wall: s.spec.WallClock}
	var hooks gen.Hooks
	g, err := gen.Open(s.specOf(p), gen.Options{
		Clock: p.clk, Store: &view{s: w.store, proc: p}, Env: procEnv{p},
		Counters: &counterView{view{s: w.store, proc: p}}, Hooks: &hooks, Periods: s.periodsOf(),
	})
	s.checkBlocked(p, "open")
	if err != nil {
		w.tracef("p%d open: %v", p.id, err)
		return
	}
	s.gids++
	p.g, p.gid, p.k, p.hooks = g, s.gids, hooks.Keeper, hooks
	p.nextRun = w.now + int64(w.ttl/3)
	w.tracef("p%d opened g%d: %s", p.id, p.gid, leasedOf(g))
}

func leasedOf(g gen.Generator) string {
	for _, f := range strings.Fields(g.Config()) {
		if strings.HasPrefix(f, "leased=") || strings.HasPrefix(f, "worker=") {
			return f
		}
	}
	return ""
}

// configure replaces a fixed generator the way idgen_configure does: the
// new one is opened on a clock read anew (it may be behind), the old one
// closed, and the new one goes on above it.
func (s *sched) configure(p *Proc) {
	w := s.w
	p.skew = int64(w.rnd.dur(800*time.Millisecond)) - int64(400*time.Millisecond)
	p.maxSkew = max(p.maxSkew, p.skew)
	var hooks gen.Hooks
	g, err := gen.Open(s.specOf(p), gen.Options{Clock: &procClock{p: p}, Hooks: &hooks})
	if err != nil {
		w.tracef("p%d configure: %v", p.id, err)
		return
	}
	_ = p.g.Close()
	gen.Continue(g, p.g)
	s.gids++
	p.g, p.gid, p.hooks = g, s.gids, hooks
	w.tracef("p%d configured g%d (clock skew now %s)", p.id, p.gid, time.Duration(p.skew))
}

// issue asks p's generator for n ids and checks them.
func (s *sched) issue(p *Proc, n int) {
	w := s.w
	out := make([]int64, n)
	p.blocked = 0
	var err error
	if s.periodsOf() != nil { // business numbers (numbers.go)
		err = s.issueNumbers(p, n)
		s.checkBlocked(p, "next")
		if err != nil && !errors.Is(err, errs.ErrWorker) {
			w.check.fail("p%d g%d: unexpected error: %v", p.id, p.gid, err)
		}
		return
	}
	if n == 1 && w.rnd.intn(4) == 0 {
		out[0], err = s.nextText(p)
	} else if n == 1 {
		out[0], err = p.g.Next()
	} else {
		err = p.g.NextBatch(out)
	}
	s.checkBlocked(p, "next")
	if err != nil {
		if !errors.Is(err, errs.ErrWorker) && !errors.Is(err, errs.ErrClockBackwards) {
			w.check.fail("p%d g%d: unexpected error: %v", p.id, p.gid, err)
		}
		w.tracef("p%d g%d next: %v", p.id, p.gid, err)
		return
	}
	fence, hasFence := s.fenceOf(p)
	for _, id := range out {
		w.check.id(p.gid, id)
		if hasFence {
			d, _ := p.g.Decode(id)
			v := d.Time
			if s.su.Name == "zxid" {
				v = d.Epoch
			}
			if v > fence {
				w.check.fail("p%d g%d issued %d at %d, above the last fence the store acknowledged (%d)", p.id, p.gid, id, v, fence)
			}
		}
	}
	w.tracef("p%d g%d issued %d id(s) up to %d", p.id, p.gid, n, out[n-1])
}

// nextText issues one id as text and reads it back.
func (s *sched) nextText(p *Proc) (int64, error) {
	buf := make([]byte, p.g.TextLen())
	n, err := p.g.NextText(buf)
	if err != nil {
		return 0, err
	}
	tp, err := p.g.DecodeText(string(buf[:n]))
	if err != nil {
		s.w.check.fail("p%d g%d: its own text id %q does not decode: %v", p.id, p.gid, buf[:n], err)
		return 0, err
	}
	return tp.ID, nil
}

// fenceOf is the last fence the store acknowledged for p's claim.
func (s *sched) fenceOf(p *Proc) (int64, bool) {
	if p.k == nil || s.su.Name == "zk-session" {
		return 0, false
	}
	c, ok := p.k.Current().Claim().(*claim)
	if !ok {
		return 0, false
	}
	f, ok := s.w.store.renewed[c.token]
	return f, ok
}

// checkBlocked fails a call that blocked past max_wait (plus a store
// round trip, here a renewal period).
func (s *sched) checkBlocked(p *Proc, what string) {
	mw := s.specOf(p).MaxWait
	if limit := int64(mw + s.w.ttl); p.blocked > limit {
		s.w.check.fail("p%d: %s blocked for %s, past max_wait %s", p.id, what, time.Duration(p.blocked), mw)
	}
}
