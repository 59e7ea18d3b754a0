// Package sim is a deterministic simulator of idgen's lease protocol: it
// runs the real Keeper and the real generators over a simulated store,
// simulated clocks (one per process, skewed, stepping) and simulated time
// for every wait, drives crashes, pauses, partitions, outages and lost
// records from one 64-bit seed, and checks every id issued.
//
// Everything runs on one goroutine: the Keepers are built in manual mode
// (lease.Env.Manual) and the scheduler calls their Step itself; a
// generator that waits sleeps on its process's clock, which advances the
// world's time. The same seed gives the same trace, byte for byte.
package sim

import (
	"fmt"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/gen"
	"github.com/idgen/idgen/internal/lease"
)

// epochNs is where simulated time starts: 2026-01-01T00:00:00Z.
const epochNs = int64(1767225600) * int64(time.Second)

// World is one schedule's universe.
type World struct {
	now   int64 // store time, ns since 1970: the world's true time
	ttl   time.Duration
	store *shared
	procs []*Proc
	trace *strings.Builder // nil unless tracing
	rnd   *rng
	check *checker
	// others runs the Keepers of the processes not inside a call, while
	// one sleeps.
	others func()
	// thread is a process's second issuing thread (thread.go), which goes
	// on while its Keeper waits; nil in the classic world.
	thread func(p *Proc)
	// healed: every fault healed for good (settle); a take's answer is no
	// longer lost.
	healed bool
}

// sleep lets d pass for p, inside a call: the other processes' Keepers go
// on meanwhile.
func (w *World) sleep(p *Proc, d time.Duration) {
	p.blocked += int64(d)
	was := p.busy
	p.busy = true
	for d > 0 {
		step := min(d, w.ttl/10)
		w.advance(step)
		d -= step
		if w.others != nil && !p.inThread { // a second thread's call sleeps only its own ticks (thread.go)
			w.others()
		}
		if w.thread != nil && p.stepping {
			w.thread(p)
		}
	}
	p.busy = was
}

func (w *World) tracef(format string, args ...any) {
	if w.trace != nil {
		fmt.Fprintf(w.trace, "%10.3fs  ", float64(w.now-epochNs)/1e9)
		fmt.Fprintf(w.trace, format, args...)
		w.trace.WriteByte('\n')
	}
}

// advance moves the world's time forward by d.
func (w *World) advance(d time.Duration) {
	if d > 0 {
		w.now += int64(d)
	}
}

// Proc is one process: a clock of its own, a connection to the store, and
// at most one open generator.
type Proc struct {
	id      int
	w       *World
	skew    int64 // its clock minus the world's (ns)
	cut     bool  // partitioned from the store
	paused  int64 // world time until which it does nothing
	g       gen.Generator
	k       *lease.Keeper
	hooks   gen.Hooks // what the scheduler steps in place of the library's goroutines
	nextRun int64     // world time of its Keeper's next step
	gid     int       // the generator's number (the checker's key)
	blocked int64     // world time spent inside the current call
	busy    bool      // inside a call that sleeps
	maxSkew int64     // the largest skew its clock had
	// stepping: its Keeper is inside Step (a thread of its own in
	// production); inThread: its second thread is inside a call.
	stepping, inThread bool
	clk                *procClock // its generator's clock
}

// restartClock is the clock of a process started again. A leased
// generator must survive any clock, so it may be behind; a fixed worker is
// unique across restarts only while the clock does not go back (that is
// what a lease is for), so it is never behind what the process read before.
func (p *Proc) restartClock(leased bool) {
	p.skew = int64(p.w.rnd.dur(800*time.Millisecond)) - int64(400*time.Millisecond)
	if !leased {
		p.skew = p.maxSkew + int64(p.w.rnd.dur(50*time.Millisecond))
	}
	p.maxSkew = max(p.maxSkew, p.skew)
}

// procClock is a process's clock: the world's time plus its skew, never
// going back inside one generator (a MonoClock's guarantee) unless it is a
// wall clock, which steps.
type procClock struct {
	p    *Proc
	last int64
	wall bool
}

func (c *procClock) Now() int64 {
	v := c.peek()
	c.last = v
	return v
}

// peek is what Now would read, without reading it.
func (c *procClock) peek() int64 {
	v := c.p.w.now + c.p.skew
	if v < c.last && !c.wall {
		v = c.last
	}
	return v
}

// Sleep lets simulated time pass; the other processes' Keepers run
// meanwhile.
func (c *procClock) Sleep(d time.Duration) { c.p.w.sleep(c.p, d) }

// procEnv is the Keeper's time in a process.
type procEnv struct{ p *Proc }

func (e procEnv) Now() time.Time        { return time.Unix(0, e.p.w.now) }
func (e procEnv) Sleep(d time.Duration) { e.p.w.sleep(e.p, d) }
func (e procEnv) Manual() bool          { return true }

// rng is splitmix64: small, fast, and the same on every machine.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

// intn is a number in [0, n).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// dur is a duration in [0, d).
func (r *rng) dur(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return time.Duration(r.next() % uint64(d))
}

// SeedOf is the seed of schedule i of a run that starts at seed s.
func SeedOf(s uint64, i int) uint64 {
	r := rng{s: s + uint64(i)*0x632be59bd9b4e019}
	return r.next()
}

func mutant() string { return lease.Mutant() }

// The store's state (its semantics, claims and records), which every
// process's view (store.go) reads and changes.

// Kind is a store's semantics.
type Kind int

const (
	Durable Kind = iota // records are never lost
	Lossy               // the store may restart empty (Redis)
	HostDir             // a record file may be deleted under its holder
)

func (k Kind) String() string { return [...]string{"durable", "lossy", "hostdir"}[k] }

type lock struct {
	token   int64
	proc    int
	expires int64 // store time (ns)
}

// shared is the store's state, common to every process.
type shared struct {
	w       *World
	kind    Kind
	recs    map[lease.Pair]lease.Record
	locks   map[lease.Pair]lock
	lost    bool // lossy: the data was lost since the pool was first used
	used    bool // hostdir: the pool's marker exists
	down    bool // the whole store is out of reach
	tokens  int64
	reach   time.Duration      // hostdir: the pool marker's largest reach (PoolReach)
	until   int64              // hostdir: the pool marker's latest until (world ns)
	renewed map[int64]int64    // token -> the last fence acknowledged
	files   map[lease.Pair]int // hostdir: which file a pair's name holds now (deletions count up)
	// counters are the segment setups' counters (counters.go).
	counters map[string]int64
}

func newShared(w *World, kind Kind) *shared {
	return &shared{w: w, kind: kind, recs: map[lease.Pair]lease.Record{}, locks: map[lease.Pair]lock{}, renewed: map[int64]int64{}, files: map[lease.Pair]int{}, counters: map[string]int64{}}
}
