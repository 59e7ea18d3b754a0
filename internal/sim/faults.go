package sim

// The faults of a schedule: healing them, running the Keepers, and the
// one action the seed picks at each event.

import (
	"time"

	"github.com/idgen/idgen/internal/lease"
)

// heal ends the faults whose time is up (all of them when all is set).
func (s *sched) heal(all bool) {
	w := s.w
	if w.store.down && (all || w.now >= s.downUntil) {
		w.store.down = false
		w.tracef("store back")
	}
	for _, p := range w.procs {
		if p.cut && (all || w.now >= s.cutUntil[p.id]) {
			p.cut = false
			w.tracef("p%d reconnected", p.id)
		}
		if all {
			p.paused = 0
		}
	}
}

// runKeepers steps every Keeper that is due, in process order.
func (s *sched) runKeepers() {
	w := s.w
	for _, p := range w.procs {
		if p.g != nil && !p.busy && w.now >= p.paused {
			if p.hooks.Prefetch != nil {
				p.hooks.Prefetch() // where a prefetch goroutine would run
			}
			p.hooks.Fill() // where baidu-cached's filler would run
		}
		if p.k == nil || p.busy || w.now < p.paused || w.now < p.nextRun {
			continue
		}
		before := p.k.Stats()
		p.stepping = true
		d := p.k.Step()
		p.stepping = false
		p.nextRun = w.now + int64(d)
		st := p.k.Stats()
		if debugSteps {
			w.tracef("p%d step -> next in %s, state %d fence %d", p.id, d, st.State, st.FenceUnixMs)
		}
		if st.State != before.State || st.LeasesTaken != before.LeasesTaken {
			w.tracef("p%d lease: state %d -> %d, pair %s, taken %d", p.id, before.State, st.State, st.Pair, st.LeasesTaken)
		}
		if st.State == lease.StateHeld && !s.spec.Borrow && s.su.Name == "snowflake" {
			clockMs := (w.now + p.skew) / int64(time.Millisecond)
			if st.FenceUnixMs < clockMs+int64(s.spec.MaxOutage/time.Millisecond)-int64(w.ttl/3/time.Millisecond)-2 {
				w.check.fail("p%d holds pair %s but its fence %d ms is not max_outage (%s) ahead of its clock %d ms: an outage that short would stop it",
					p.id, st.Pair, st.FenceUnixMs, s.spec.MaxOutage, clockMs)
			}
		}
	}
}

// act does one thing, chosen by the seed.
func (s *sched) act() {
	w, r := s.w, s.w.rnd
	p := w.procs[r.intn(len(w.procs))]
	if w.now < p.paused {
		return
	}
	switch n := r.intn(100); {
	case p.g == nil && n < 60:
		s.open(p)
	case p.g == nil:
	case n < 45:
		s.issue(p, 1)
	case n < 60:
		s.issue(p, 1+r.intn(100))
	case n < 64:
		w.tracef("p%d killed (-9)", p.id)
		p.g, p.k = nil, nil
		p.restartClock(s.su.Leased)
	case n < 68:
		w.tracef("p%d closes", p.id)
		_ = p.g.Close()
		p.g, p.k = nil, nil
	case n < 72:
		d := r.dur(3 * s.outage)
		p.paused = w.now + int64(d)
		w.tracef("p%d paused for %s", p.id, d)
	case n < 76:
		d := r.dur(3 * s.outage)
		p.cut, s.cutUntil = true, s.cutMap()
		s.cutUntil[p.id] = w.now + int64(d)
		w.tracef("p%d cut off from the store for %s", p.id, d)
	case n < 79:
		d := r.dur(2 * s.outage)
		w.store.down, s.downUntil = true, w.now+int64(d)
		w.tracef("store down for %s", d)
	case n < 82:
		s.loseData(p)
	case n < 86 && !s.su.Leased && !s.su.Seg:
		s.configure(p)
	case n < 90 && s.spec.WallClock && s.su.Leased: // a fixed worker is unique only while its clock never goes back
		d := r.dur(2*time.Second) - time.Second
		if w.store.kind == Lossy { // the hosts of a pool on a lossy store agree within lease.LostSkew (its documented limit)
			d = time.Duration(min(max(p.skew+int64(d), -lossyBand), lossyBand) - p.skew)
		}
		p.skew += int64(d)
		w.tracef("p%d's wall clock steps %s", p.id, d)
	case s.ext && n >= 90:
		s.extended(p, n)
	}
}

// lossyBand is how far a wall clock steps from the world's time on a lossy
// store: two hosts stay within 2·lossyBand of each other, inside the skew
// allowance a taker of a lost record adds (lease.LostSkew, 999 ms with the
// wall setup's max_wait). Past it the allowance is documented not to hold.
const lossyBand = int64(450 * time.Millisecond)

// loseData is the store's own fault: a lossy store restarts empty; in the
// host directory the record file of the process's pair is deleted.
func (s *sched) loseData(p *Proc) {
	w := s.w
	switch {
	case w.store.kind == Lossy:
		w.store.lose()
		s.lost = s.lost || s.su.Name == "zxid"
		w.tracef("store restarted empty")
	case w.store.kind == HostDir && p.k != nil:
		pair := p.k.Current().Pair
		w.store.deleteRecord(pair)
		s.lost = s.lost || s.su.Name == "zxid"
		w.tracef("record file of pair %s deleted (p%d holds it)", pair, p.id)
	}
}
