package gen

import (
	"sync/atomic"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
)

// session is ZooKeeper's session-id generator (preset zk-session):
// worker<<56 | (time at opening in ms, low 40 bits)<<16, then +1 per id,
// the sequence carrying into the time bits.
//
//   - Sequence exhaustion: none; the counter carries into the time bits,
//     as ZooKeeper's does, so ids may run ahead of the clock.
//   - Clock regression: the time is read once, at opening; a lease makes a
//     restarted holder start above everything its predecessor issued.
//   - Overflow: when the counter would carry into the worker bits, every
//     call fails with ErrTimeOverflow.
//
// Its state word is the next counter value to issue.
type session struct {
	core
	high    int64  // the worker bits without a lease
	max     uint64 // the largest counter value
	seqBits uint
	// above is the counter a held record put this generator at (its
	// floor + 1, 0 if none): a record ahead of the clock (a clock set
	// back) is started above at once, and the fence cap runs from it.
	above atomic.Uint64
}

func newSession(sh *shape, lm *leaser) (*session, error) {
	c := sh.cfg
	tf, _ := c.Layout.Field(layout.FieldTime)
	sf, _ := c.Layout.Field(layout.FieldSeq)
	g := &session{
		core:    core{shape: sh, lm: lm},
		high:    sh.fixed,
		max:     uint64(1)<<(tf.Width+sf.Width) - 1,
		seqBits: sf.Width,
	}
	g.start(g.counterAt(sh.clock.Now()), g.v)
	if err := g.open(g, lease.Rollback{}); err != nil {
		return nil, err
	}
	return g, nil
}

// counterAt is the counter of a session opened at ns: its time in the
// layout's unit, low bits only, followed by a zero sequence.
func (g *session) counterAt(ns int64) uint64 {
	tf, _ := g.cfg.Layout.Field(layout.FieldTime)
	tick := uint64((ns/int64(time.Millisecond)-g.cfg.EpochMs)/g.codec.UnitMs) & uint64(tf.Max())
	return tick << g.seqBits
}

// limit caps the counter so that worker bits plus counter stay below
// bit 63.
func (g *session) limit(high int64) uint64 {
	if high != 0 && uint64(high)+g.max > uint64(1)<<63-1 {
		return uint64(1)<<63 - 1 - uint64(high)
	}
	return g.max
}

// Until: a counter starts above any record at once.
func (g *session) Until(int64) time.Duration { return 0 }

// LostFloor: a holder whose record was lost counted at most up to its
// fence, which NextFence never publishes past the tick of its clock +
// max_outage; its clock may be ahead of this one (by less than
// max_outage, the bound every lease source assumes), so start above the
// tick of now + 2·max_outage. Such a start is ahead of this generator's
// own fence cap: it waits up to one max_outage for its clock (as a time
// generator waits out a lost record), where it used to start at once
// above now + max_outage, below a predecessor whose clock ran ahead.
func (g *session) LostFloor() (int64, bool) {
	return int64(g.counterAt(g.clock.Now()+2*int64(g.cfg.MaxOutage))) + 1<<g.seqBits, true
}

// LostFloorFor is LostFloor for a pool whose holders' fences ran up to
// reach ahead of their clocks (the pool marker's largest: a holder above a
// record ahead of its clock runs its cap from that record, ReachAbove),
// with one max_outage more for the other holder's clock.
func (g *session) LostFloorFor(reach time.Duration) int64 {
	return int64(g.counterAt(g.clock.Now()+int64(reach)+int64(g.cfg.MaxOutage))) + 1<<g.seqBits
}

// ReachAbove is how far ahead of the clock this generator's fences may
// run once it starts above floor (lease.FloorReacher): its fence cap runs
// one max_outage past a held record ahead of the clock (a clock set back,
// or a record a successor of a lost floor left), which a taker that later
// finds the record lost must start above; one max_outage otherwise.
func (g *session) ReachAbove(floor int64, lost bool) time.Duration {
	base := g.cfg.MaxOutage + g.cfg.Unit
	if floor < 0 || lost {
		return base
	}
	ahead := int64(uint64(floor)>>g.seqBits) - int64(g.counterAt(g.clock.Now())>>g.seqBits)
	if ahead <= 0 || ahead > int64(g.max>>g.seqBits)/2 { // behind, or so far that the time field wrapped
		return base
	}
	return base + time.Duration(ahead)*g.cfg.Unit
}

// Adopt starts the counter above the predecessor's record and above
// everything issued so far.
func (g *session) Adopt(l *lease.Lease, floor, _, _ int64, _ bool) error {
	start := g.counterAt(g.clock.Now())
	if floor >= 0 {
		start = max(start, uint64(floor)+1)
		if l.CapFromRecord() {
			g.above.Store(max(g.above.Load(), uint64(floor)+1))
		}
	}
	err := g.jump(func(old uint64) (uint64, error) { return max(start, old), nil })
	if err == nil {
		g.lm.hold.Store(&holding{l: l, fixed: g.cfg.Layout.Put(layout.FieldWorker, l.Pair.Worker)})
	}
	return err
}

// Accepts keeps session ids increasing when the generator leases again:
// they carry the worker in their top bits, so no lower worker.
func (g *session) Accepts(p lease.Pair) bool {
	h := g.lm.hold.Load()
	return h == nil || p.Worker >= h.l.Pair.Worker
}

// NextFence runs one max_outage of ids at the layout's nominal rate ahead
// of the counter, but never past fenceCap: the last value of the tick of
// now + max_outage, which is what a successor that finds the record lost
// starts above (LostFloor). A counter that ran ahead of its clock (batches,
// or a holder that itself started above a lost record) publishes no more:
// reserve waits for its clock instead.
func (g *session) NextFence() int64 {
	ahead := config.CeilTicks(g.cfg.MaxOutage, g.cfg.Unit) << g.seqBits
	fence := int64(g.state.Load()&^closedBit) + ahead
	if c, ok := g.fenceCap(uint64(fence)); ok && c < fence {
		return c
	}
	return fence
}

// fenceCap is the highest counter value a fence may cover now: the last
// value of the tick of now + max_outage, or of one max_outage past the
// record this generator started above (base) when that lies further. A
// floor assumed for a lost record (LostFloor) raises no cap: its holder waits
// for its clock. ok is false when v lies so far above the cap that the
// time field must have wrapped (half the counter's range): no cap then.
func (g *session) fenceCap(v uint64) (int64, bool) {
	ahead := uint64(config.CeilTicks(g.cfg.MaxOutage, g.cfg.Unit)) << g.seqBits
	c := max(g.counterAt(g.clock.Now()+int64(g.cfg.MaxOutage)), g.above.Load()+ahead) + 1<<g.seqBits - 1
	return int64(c), v <= c || v-c <= g.max/2
}

// headroom is how many values from old on the fence cap lets a leased
// generator issue now (at least one), waiting for its clock while the
// counter stands past the cap, up to max_wait: the cap holds on the hot
// path too, where a batch would otherwise extend the fence past it.
// waited is what the call has waited so far: one call (a whole batch)
// waits at most max_wait in all.
func (g *session) headroom(old uint64, waited *time.Duration) (uint64, error) {
	for {
		c, ok := g.fenceCap(old)
		switch {
		case !ok:
			return g.max, nil
		case uint64(c) >= old:
			return uint64(c) - old + 1, nil
		}
		behind := time.Duration((old-uint64(c)-1)>>g.seqBits+1) * g.cfg.Unit
		if lease.Mutant() == "session-past-cap" {
			return g.max, nil // the bug this closes: a batch extends the fence past the cap
		}
		if *waited+behind > g.cfg.MaxWait {
			return 0, errs.New(errs.ErrWorker,
				"session ids ran %s ahead of the clock, past the fence cap (the clock + max_outage=%s) that a successor finding this record lost starts above; waited %s of max_wait=%s: issue fewer, or try again when the clock has caught up",
				behind+g.cfg.MaxOutage, g.cfg.MaxOutage, *waited, g.cfg.MaxWait)
		}
		g.sleep(behind)
		*waited += behind
	}
}

// Last is the last counter value issued.
func (g *session) Last() (int64, int64) { return g.LastValue(), 0 }

// UnixMs: a session counter carries into its time bits, so its fence has
// no time.
func (g *session) UnixMs(int64) int64 { return -1 }

func (g *session) reserve(n uint64, waited *time.Duration) (uint64, uint64, int64, error) {
	for {
		h, high := g.lm.current(g.high)
		old := g.state.Load()
		if old&closedBit != 0 {
			return 0, 0, 0, errClosed
		}
		limit := g.limit(high)
		if old > limit {
			return 0, 0, 0, errs.New(errs.ErrTimeOverflow, "session ids of this worker are used up: the counter would carry into the worker bits")
		}
		got := min(n, limit-old+1)
		if h != nil {
			room, err := g.headroom(old, waited)
			if err != nil {
				return 0, 0, 0, err
			}
			got = min(got, room)
		}
		if err := g.fence(h, int64(old+got-1)); err != nil {
			return 0, 0, 0, err
		}
		if g.state.CompareAndSwap(old, old+got) { // v moves by got: nothing to count
			return old, got, high, nil
		}
	}
}

// Next returns the next session id.
func (g *session) Next() (int64, error) {
	var waited time.Duration
	c, _, high, err := g.reserve(1, &waited)
	if err != nil {
		return -1, err
	}
	return high | int64(c), nil
}

// NextBatch fills out with consecutive session ids.
func (g *session) NextBatch(out []int64) error {
	var waited time.Duration // for the whole batch
	return fillRuns(out, 1, func(n uint64) (int64, uint64, error) {
		c, got, high, err := g.reserve(n, &waited)
		return high | int64(c), got, err
	})
}

// NextText writes the next id in the text= form.
func (g *session) NextText(dst []byte) (int, error) {
	id, err := g.Next()
	return g.formatText(id, err, dst)
}

// v is the state as a count (stats).
func (g *session) v(state uint64) int64 { return int64(state &^ closedBit) }

// LastValue is the last counter value issued.
func (g *session) LastValue() int64 { return int64(g.state.Load()&^closedBit) - 1 }
