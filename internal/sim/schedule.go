package sim

// A schedule: processes that open, issue, close, crash, pause, get cut
// off, restart and reconfigure, over a store that goes down, loses data or
// loses record files, all chosen by one seed; then every fault heals and
// every live process must issue again.

import (
	"fmt"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/config"
)

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

// pick is the seed's setup, store and outage scale.
func pick(r *rng, seed uint64, ext bool) (Setup, time.Duration) {
	su := setups[r.intn(len(setups))]
	if su.Name == "snowflake" && seed>>63 == 1 {
		su = runsSetup
	}
	if c, ok := aheadConfigs[su.Name]; ok && ext {
		su.Config = c // batches run it seconds ahead of the clock
	}
	su.Kind = Kind(r.intn(3))
	if su.Seg && su.Name == "segment" && seed>>numBit&1 == 1 {
		su = numbersSetup // business numbers (numbers.go)
	}
	if su.Seg {
		su.Kind = Durable // a counter lost with its store repeats values: no store may lose one
	}
	outage := []time.Duration{2 * time.Second, 3 * time.Second}[r.intn(2)]
	if strings.Contains(su.Config, "%s") {
		su.Config = fmt.Sprintf(su.Config, outage)
	}
	if !su.Leased {
		su.Config = strings.Replace(su.Config, "%d", "0", 1)
	}
	return su, outage
}

// Run plays the schedule of seed.
func Run(seed uint64, trace bool) (res Result) {
	r := &rng{s: seed}
	ext := seed>>extBit&1 == 1
	su, outage := pick(r, seed, ext)
	spec, err := config.Parse(su.Config)
	if err != nil {
		return Result{Seed: seed, Failure: "bad setup: " + err.Error()}
	}
	ttl := spec.LeaseTTL
	if su.Seg {
		ttl = time.Second // the pace of the world: a counter has no lease
	}
	w := &World{now: epochNs, ttl: ttl, rnd: r, check: newChecker()}
	if trace {
		w.trace = &strings.Builder{}
	}
	w.store = newShared(w, su.Kind)
	s := &sched{w: w, spec: spec, su: su, outage: outage, ext: ext}
	w.others = s.runKeepers
	if ext {
		w.thread = s.thread
	}
	for i := 0; i < 2+r.intn(3); i++ {
		skew := int64(r.dur(800*time.Millisecond)) - int64(400*time.Millisecond)
		w.procs = append(w.procs, &Proc{id: i, w: w, skew: skew, maxSkew: skew})
	}
	w.tracef("seed %#x: %s on a %s store, %d processes: %s", seed, su.Name, su.Kind, len(w.procs), su.Config)
	if ext {
		w.tracef("the extended world: second threads, lost and deleted counters, mixed max_drift, long session batches")
	}
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
