package sim

// A schedule: processes that open, issue, close, crash, pause, get cut
// off, restart and reconfigure, over a store that goes down, loses data or
// loses record files, all chosen by one seed; then every fault heals and
// every live process must issue again.

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/gen"
	"github.com/idgen/idgen/internal/lease"
)

// Setup is one schedule's choice of generator and store.
type Setup struct {
	Name   string
	Config string
	Kind   Kind
	Leased bool
	Pairs  int // the pool's size
}

// setups are the generators a schedule may run: the real presets and
// layouts, small pools so processes contend.
var setups = []Setup{
	{"snowflake", "layout=time:41,worker:2,seq:6 worker=lease lease_ttl=1s max_outage=%s", 0, true, 4},
	{"borrow", "layout=time:41,worker:2,seq:6 worker=lease on_exhausted=borrow max_drift=20ms lease_ttl=1s max_outage=%s", 0, true, 4},
	// A coarse unit: clean restarts land in the tick a release recorded.
	{"coarse", "layout=time:41,worker:2,seq:10 unit=200ms worker=lease lease_ttl=1s max_outage=%s", 0, true, 4},
	// A wall clock that steps back and jumps forward under its generator
	// (steps back up to 50 ms are waited out, longer ones refused).
	{"wall", "layout=time:41,worker:2,seq:6 clock=wall on_clock_back=wait:50ms worker=lease lease_ttl=1s max_outage=%s", 0, true, 4},
	{"zk-session", "preset=zk-session layout=worker:2,time:40,seq:16 worker=lease lease_ttl=1s max_outage=%s", 0, true, 4},
	{"zxid", "preset=zxid layout=epoch:32,counter:8 worker=lease lease_ttl=1s max_outage=%s", 0, true, 1},
	// A fixed worker per process (%d: the process), replaced by configure.
	{"fixed", "layout=time:41,worker:2,seq:6 worker=%d clock=wall on_clock_back=wait:5s", 0, false, 4},
}

// Result is what a schedule did.
type Result struct {
	Seed    uint64
	Setup   string
	Failure string // "" when every check held
	Trace   string
	IDs     int
	SimTime time.Duration
}

const events = 300

// Run plays the schedule of seed.
func Run(seed uint64, trace bool) (res Result) {
	r := &rng{s: seed}
	su := setups[r.intn(len(setups))]
	su.Kind = Kind(r.intn(3))
	outage := []time.Duration{2 * time.Second, 3 * time.Second}[r.intn(2)]
	if strings.Contains(su.Config, "%s") {
		su.Config = fmt.Sprintf(su.Config, outage)
	}
	if !su.Leased {
		su.Config = strings.Replace(su.Config, "%d", "0", 1)
	}
	spec, err := config.Parse(su.Config)
	if err != nil {
		return Result{Seed: seed, Failure: "bad setup: " + err.Error()}
	}
	w := &World{now: epochNs, ttl: spec.LeaseTTL, rnd: r, check: newChecker()}
	if trace {
		w.trace = &strings.Builder{}
	}
	w.store = newShared(w, su.Kind)
	s := &sched{w: w, spec: spec, su: su}
	w.others = s.runKeepers
	for i := 0; i < 2+r.intn(3); i++ {
		skew := int64(r.dur(800*time.Millisecond)) - int64(400*time.Millisecond)
		w.procs = append(w.procs, &Proc{id: i, w: w, skew: skew, maxSkew: skew})
	}
	w.tracef("seed %#x: %s on a %s store, %d processes: %s", seed, su.Name, su.Kind, len(w.procs), su.Config)
	defer func() {
		res.Seed, res.Setup, res.IDs, res.SimTime = seed, su.Name+"/"+su.Kind.String(), len(w.check.seen), time.Duration(w.now-epochNs)
		if res.Failure == "" {
			res.Failure = w.check.failure
		}
		if w.trace != nil {
			res.Trace = w.trace.String()
		}
	}()
	for i := 0; i < events && w.check.failure == ""; i++ {
		w.advance(r.dur(w.ttl / 2))
		s.heal(false)
		s.runKeepers()
		s.act()
	}
	if w.check.failure == "" {
		s.settle()
	}
	return Result{}
}

// sched is the state of one schedule's faults.
type sched struct {
	w         *World
	spec      *config.Spec
	su        Setup
	downUntil int64
	cutUntil  map[int]int64
	gids      int
	// lost: a record of a clockless counter was lost; its pair refuses by
	// design (the operator restores it), so liveness is not asked.
	lost bool
}

// specOf is the configuration process p opens.
func (s *sched) specOf(p *Proc) *config.Spec {
	if s.su.Leased {
		return s.spec
	}
	c, _ := config.Parse(strings.Replace(setupConfig(s.su.Name), "%d", fmt.Sprint(p.id), 1))
	return c
}

func setupConfig(name string) string {
	for _, su := range setups {
		if su.Name == name {
			return su.Config
		}
	}
	return ""
}

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
		if p.k == nil || p.busy || w.now < p.paused || w.now < p.nextRun {
			continue
		}
		before := p.k.Stats()
		d := p.k.Step()
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
		d := r.dur(3 * s.spec.MaxOutage)
		p.paused = w.now + int64(d)
		w.tracef("p%d paused for %s", p.id, d)
	case n < 76:
		d := r.dur(3 * s.spec.MaxOutage)
		p.cut, s.cutUntil = true, s.cutMap()
		s.cutUntil[p.id] = w.now + int64(d)
		w.tracef("p%d cut off from the store for %s", p.id, d)
	case n < 79:
		d := r.dur(2 * s.spec.MaxOutage)
		w.store.down, s.downUntil = true, w.now+int64(d)
		w.tracef("store down for %s", d)
	case n < 82:
		s.loseData(p)
	case n < 86 && !s.su.Leased:
		s.configure(p)
	case n < 90 && s.spec.WallClock && s.su.Leased: // a fixed worker is unique only while its clock never goes back
		d := r.dur(2*time.Second) - time.Second
		p.skew += int64(d)
		w.tracef("p%d's wall clock steps %s", p.id, d)
	}
}

func (s *sched) cutMap() map[int]int64 {
	if s.cutUntil == nil {
		s.cutUntil = map[int]int64{}
	}
	return s.cutUntil
}

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

// open opens the setup's generator in p.
func (s *sched) open(p *Proc) {
	w := s.w
	p.blocked = 0
	g, err := gen.Open(s.specOf(p), gen.Options{Clock: &procClock{p: p, wall: s.spec.WallClock}, Store: &view{s: w.store, proc: p}, Env: procEnv{p}})
	s.checkBlocked(p, "open")
	if err != nil {
		w.tracef("p%d open: %v", p.id, err)
		return
	}
	s.gids++
	p.g, p.gid, p.k = g, s.gids, gen.KeeperOf(g)
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
	g, err := gen.Open(s.specOf(p), gen.Options{Clock: &procClock{p: p}})
	if err != nil {
		w.tracef("p%d configure: %v", p.id, err)
		return
	}
	_ = p.g.Close()
	gen.Continue(g, p.g)
	s.gids++
	p.g, p.gid = g, s.gids
	w.tracef("p%d configured g%d (clock skew now %s)", p.id, p.gid, time.Duration(p.skew))
}

// issue asks p's generator for n ids and checks them.
func (s *sched) issue(p *Proc, n int) {
	w := s.w
	out := make([]int64, n)
	p.blocked = 0
	var err error
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
	if limit := int64(s.spec.MaxWait + s.w.ttl); p.blocked > limit {
		s.w.check.fail("p%d: %s blocked for %s, past max_wait %s", p.id, what, time.Duration(p.blocked), s.spec.MaxWait)
	}
}

// idle lets d pass with only the Keepers running.
func (s *sched) idle(d time.Duration) {
	w := s.w
	end := w.now + int64(d)
	for w.now < end && w.check.failure == "" {
		w.advance(w.ttl / 10)
		s.runKeepers()
	}
}

// settle heals every fault, lets the Keepers run for long enough to
// recover from anything (two max_wait, two max_outage and a few ttl), and
// then every process that has a generator must issue; at least one
// process must issue in all.
func (s *sched) settle() {
	w := s.w
	s.heal(true)
	w.tracef("all faults healed")
	s.idle(2*s.spec.MaxWait + 2*s.spec.MaxOutage + 5*w.ttl)
	for _, p := range w.procs {
		if p.g == nil {
			s.open(p)
		}
	}
	s.idle(3 * w.ttl)
	issued, open := 0, 0
	for _, p := range w.procs {
		if p.g == nil {
			continue
		}
		open++
		before := len(w.check.seen)
		s.issue(p, 1)
		if len(w.check.seen) > before {
			issued++
		}
	}
	// Every generator issues, but for those a full pool leaves without a
	// pair. A zk-session generator that lost its pair takes only a pair
	// no lower than it had (its ids carry the worker in their top bits and
	// never go back), so there one is enough.
	want := min(open, s.su.Pairs)
	if s.su.Name == "zk-session" {
		want = min(open, 1)
	}
	if issued < want && !s.lost {
		w.check.fail("after every fault healed only %d of %d generators issue, in a pool of %d pairs (liveness)", issued, open, s.su.Pairs)
	}
}

var debugSteps = false
