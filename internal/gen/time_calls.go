package gen

// Opening a time generator and its calls: Next (with its fast path),
// NextBatch, NextText and its stats.

import (
	"time"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/layout"
)

func newTimeGen(sh *shape, lm *leaser) (*timeGen, error) {
	c := sh.cfg
	l := &c.Layout
	tf, _ := l.Field(layout.FieldTime)
	sf, _ := l.Field(layout.FieldSeq)
	g := &timeGen{
		core:      core{shape: sh, lm: lm},
		fixed:     sh.fixed,
		timeShift: tf.Shift,
		seqShift:  sf.Shift,
		seqBits:   sf.Width,
		seqMask:   uint64(sf.Max()),
		tickShift: sf.Width,
		maxTick:   tf.Max(),
		unitNs:    int64(c.Unit),
		epochNs:   c.EpochMs * int64(time.Millisecond),
		wall:      c.WallClock,
		back:      c.OnClockBack,
	}
	if mc, ok := sh.clock.(*clock.MonoClock); ok && !c.WallClock {
		g.mono = mc
	}
	if bf, ok := l.Field(layout.FieldBackwards); ok {
		g.cbMask, g.bwShift, g.tickShift = uint64(bf.Max()), bf.Shift, sf.Width+bf.Width
	}
	if c.SeqRandom > 0 {
		g.random = uint64(min(c.SeqRandom, int64(g.seqMask)+1))
	}
	if c.Borrow {
		g.borrow = max(1, int64(c.MaxDrift)/g.unitNs)
	}
	if c.Runs > 1 {
		g.runs = &runCache{max: c.Runs, k: 1}
	}
	// As if id (tick 0, sequence 0) had been issued: a generator whose
	// epoch is less than a unit ago issues in tick 0 at once (never that
	// one id) rather than waiting for tick 1.
	g.start(0, g.v)
	if t := g.tick(); t > 0 && t <= g.maxTick {
		g.opened = uint64(t-1)<<g.tickShift | g.seqMask // era 0: a replacement goes on from this tick
	}
	if err := g.open(g, g.rollback()); err != nil {
		return nil, err
	}
	return g, nil
}

// Next returns the next id.
func (g *timeGen) Next() (int64, error) {
	if g.runs != nil {
		return g.nextFromRun()
	}
	if id, ok := g.nextFast(); ok {
		return id, nil
	}
	r, err := g.reserve(1)
	if err != nil {
		return -1, err
	}
	return g.compose(r.tick, r.first, r.fixed), nil
}

// nextFast is reserve(1)'s common case in a few loads and one CAS: the
// default clock's cached reading is in the last tick with sequence left, or
// in the tick after it (not past the time field, inside the lease's fence,
// and no random sequence start). Anything else, or a lost race, reports
// false and the caller takes reserve's full path.
func (g *timeGen) nextFast() (int64, bool) {
	if g.mono == nil {
		return 0, false
	}
	ns, ok := g.mono.Cached()
	if !ok {
		return 0, false
	}
	h, fixed := g.lm.current(g.fixed)
	old := g.state.Load()
	last := int64(old >> g.tickShift) // the closed bit makes it negative below
	var next uint64
	switch into := ns - (g.epochNs + last*g.unitNs); {
	case into >= 0 && into < g.unitNs && old&g.seqMask < g.seqMask && old&closedBit == 0:
		next = old + 1
	case into >= g.unitNs && into < 2*g.unitNs && last < g.maxTick && g.random == 0 && old&closedBit == 0:
		next = uint64(last+1)<<g.tickShift | old&(g.cbMask<<g.seqBits)
	default:
		return 0, false
	}
	t := int64(next >> g.tickShift)
	if h != nil && t > h.l.Fence() {
		return 0, false
	}
	if next&g.seqMask != 0 { // the same tick: v moves by one, nothing to count
		if !g.state.CompareAndSwap(old, next) {
			return 0, false
		}
	} else if !g.issued.swap(&g.state, old, next, g.v(old), g.v(next), 1) {
		return 0, false
	}
	era := next >> g.seqBits & g.cbMask
	return g.compose(t, next&g.seqMask, fixed|int64(era)<<g.bwShift), true
}

// NextBatch fills out with consecutive ids, one reservation per tick,
// all made before out is written (fillRuns). With runs, the held run is
// dropped first: no id of it may follow the batch's.
func (g *timeGen) NextBatch(out []int64) error {
	if g.runs == nil {
		return g.nextBatch(out)
	}
	g.runs.mu.Lock()
	defer g.runs.mu.Unlock()
	g.runs.drop()
	return g.nextBatch(out)
}

// NextText writes the next id in the text= form.
func (g *timeGen) NextText(dst []byte) (int, error) {
	id, err := g.Next()
	return g.formatText(id, err, dst)
}

func (g *timeGen) stats(s *Stats) {
	g.core.stats(s)
	if g.runs != nil {
		s.Issued = g.runs.issued(g.issuedNow) - g.held()
	}
	s.TickWaits, s.ClockBacks = g.tickWaits.Load(), g.clockBacks.Load()
	if ahead := g.LastValue() - g.tick(); ahead > 0 {
		s.DriftMs = g.UnixMs(ahead) - g.cfg.EpochMs
	}
}
