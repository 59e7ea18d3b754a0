package sim

// What a schedule is made of: the setups it may run and its state (its
// faults under way), which the calls, the faults and the settling act on.

import (
	"fmt"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/config"
)

// Setup is one schedule's choice of generator and store.
type Setup struct {
	Name   string
	Config string
	Kind   Kind
	Leased bool
	Pairs  int  // the pool's size
	Seg    bool // a segment counter (counters.go), on a durable store
}

// setups are the generators a schedule may run: the real presets and
// layouts, small pools so processes contend.
var setups = []Setup{
	{"snowflake", "layout=time:41,worker:2,seq:6 worker=lease lease_ttl=1s max_outage=%s", 0, true, 4, false},
	{"borrow", "layout=time:41,worker:2,seq:6 worker=lease on_exhausted=borrow max_drift=20ms lease_ttl=1s max_outage=%s", 0, true, 4, false},
	// A coarse unit: clean restarts land in the tick a release recorded.
	// max_wait leaves room for lease.LostSkew past max_outage and two
	// ticks of rounding (the default, max_outage + 1 s, leaves none for
	// another host's clock on a lossy store).
	{"coarse", "layout=time:41,worker:2,seq:10 unit=1s worker=lease max_wait=6s lease_ttl=1s max_outage=%s", 0, true, 4, false},
	// A wall clock that steps back and jumps forward under its generator
	// (steps back up to 50 ms are waited out, longer ones refused).
	{"wall", "layout=time:41,worker:2,seq:6 clock=wall on_clock_back=wait:50ms worker=lease lease_ttl=1s max_outage=%s", 0, true, 4, false},
	// baidu-cached: ids handed out from a ring its filler tops up
	// (stepped by the scheduler), over a borrowing time generator.
	{"baidu-cached", "preset=baidu-cached layout=time:41,worker:2,seq:6 unit=100ms worker=lease max_drift=500ms lease_ttl=1s max_outage=%s", 0, true, 4, false},
	{"zk-session", "preset=zk-session layout=worker:2,time:40,seq:16 worker=lease lease_ttl=1s max_outage=%s", 0, true, 4, false},
	{"zxid", "preset=zxid layout=epoch:32,counter:8 worker=lease lease_ttl=1s max_outage=%s", 0, true, 1, false},
	// A fixed worker per process (%d: the process), replaced by configure.
	{"fixed", "layout=time:41,worker:2,seq:6 worker=%d clock=wall on_clock_back=wait:5s", 0, false, 4, false},
	// Segments: a small fixed step (many takes, prefetches racing closes)
	// and step=auto.
	{"segment", "preset=segment name=orders step=40 padding=25 max_wait=300ms", 0, false, 100, true},
	{"segment-auto", "preset=segment name=orders step=auto max_wait=300ms", 0, false, 100, true},
}

// runsSetup is snowflake with runs: Next hands out runs of up to 16 ids
// reserved ahead, dropped 1 ms after their reservation. Half the
// snowflake schedules (the seed's top bit) run it instead, so that adding
// it drew nothing more from a seed: every other seed plays the schedule
// it played before (sim_test.go's regression seeds stay what they were).
var runsSetup = Setup{"runs", "layout=time:41,worker:2,seq:6 worker=lease runs=16 lease_ttl=1s max_outage=%s", 0, true, 4, false}

// extBit is the bit of a seed that plays the extended world (issue 32): a
// second issuing thread per process, segment counters lost and deleted,
// one pool of holders with different max_drift, session batches running
// ahead of the clock, a store restarting empty while a holder is cut off.
// Seeds with it clear play what they played before (sim_test.go's
// regression seeds have it clear).
const extBit = 44

// aheadConfigs are setups as the extended world runs them: 200 ids a
// second, so that a batch of a thousand runs seconds ahead of the clock (a
// session counter; ticks borrowed up to max_drift, which mixedSpec makes
// 6 s for half the processes), where with the classic layouts that would
// take millions of ids to check.
var aheadConfigs = map[string]string{
	"zk-session": "preset=zk-session layout=worker:2,time:40,seq:1 unit=10ms worker=lease lease_ttl=1s max_outage=%s",
	"borrow":     "layout=time:41,worker:2,seq:1 unit=10ms worker=lease on_exhausted=borrow max_drift=50ms lease_ttl=1s max_outage=%s",
}

// sched is the state of one schedule's faults.
type sched struct {
	w         *World
	spec      *config.Spec
	su        Setup
	outage    time.Duration // what pauses, cuts and outages are measured in
	downUntil int64
	cutUntil  map[int]int64
	gids      int
	ext       bool                 // the extended world (extBit)
	specs     map[int]*config.Spec // extended: a process's own configuration (mixedSpec)
	// lost: a record of a clockless counter was lost; its pair refuses by
	// design (the operator restores it), so liveness is not asked.
	lost bool
	// noOpen: a counter was lost; no generator opens on it again.
	noOpen bool
}

// specOf is the configuration process p opens.
func (s *sched) specOf(p *Proc) *config.Spec {
	if s.ext && s.su.Leased {
		return s.mixedSpec(p)
	}
	if s.su.Leased || s.su.Seg {
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

var debugSteps = false

// mixedDrift is the max_drift of the odd processes of a borrowing setup
// in the extended world: holders of one pool with different max_drift.
var mixedDrift = map[string]time.Duration{"borrow": 6 * time.Second, "baidu-cached": time.Second}

// mixedSpec is process p's configuration in the extended world: the
// setup's own, but for the odd processes of a borrowing setup, which
// borrow further. Not on a store that may lose everything (Redis): after
// a loss nothing is left that says how far the pool's holders borrowed,
// so its holders must share max_outage and max_drift (a known limit,
// docs/ARCHITECTURE.md "What each store needs").
func (s *sched) mixedSpec(p *Proc) *config.Spec {
	d, ok := mixedDrift[s.su.Name]
	if !ok || p.id%2 == 0 || s.w.store.kind == Lossy {
		return s.spec
	}
	if s.specs == nil {
		s.specs = map[int]*config.Spec{}
	}
	if c, ok := s.specs[p.id]; ok {
		return c
	}
	fields := strings.Fields(s.su.Config)
	for i, f := range fields {
		if strings.HasPrefix(f, "max_drift=") {
			fields[i] = "max_drift=" + d.String()
		}
	}
	c, err := config.Parse(strings.Join(fields, " "))
	if err != nil {
		panic("sim: mixed max_drift: " + err.Error())
	}
	s.specs[p.id] = c
	return c
}

// cutMap is the map of the cuts under way (made on first use).
func (s *sched) cutMap() map[int]int64 {
	if s.cutUntil == nil {
		s.cutUntil = map[int]int64{}
	}
	return s.cutUntil
}
