package gen

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

const closedBit = uint64(1) << 63

// timeGen is the Snowflake-family generator, for every layout with a time
// and a seq field (snowflake, hutool, leaf, baidu, sonyflake, custom).
//
// Its whole state is one word, tick<<tickShift | backwards<<seqBits | seq
// of the last id issued, updated by compare-and-swap; bit 63 marks it
// closed. backwards is the clock-rollback counter of a layout with a
// backwards field (0 and no bits without one).
//
//   - Sequence exhaustion: waits for the next tick (spinning for the last
//     2 ms, sleeping before that); with on_exhausted=borrow it moves to the
//     next tick at once while that stays within max_drift of the clock.
//     The sequence never wraps.
//   - Clock regression: the default clock cannot go back. With clock=wall,
//     on_clock_back decides: error refuses (ErrClockBackwards), wait:<d>
//     waits for the clock to catch up if it is behind by at most d,
//     tolerate:<d> keeps issuing on the last tick while the clock is behind
//     by at most d; further back is ErrClockBackwards.
//   - With a backwards:N field, a step back the policy would not wait out
//     (a takeover whose predecessor's record is more than max_wait ahead,
//     or clock=wall stepping back) starts a new era: the counter goes up
//     by one (written to the lease record first) and the generator goes on
//     at once from the clock; ids then order by (time, counter), not by
//     issue. Only when the counter would wrap does the rest of the policy
//     apply.
//   - on_clock_back=switch: at a takeover whose record is too far ahead,
//     the generator gives the pair up and leases one whose record is
//     behind the clock.
//   - Time overflow: once the time field is used up, every call fails with
//     ErrTimeOverflow; the field never wraps and no id goes negative.
type timeGen struct {
	// The fields reserve reads on every call come first, together.
	state      atomic.Uint64
	issued     tally            // ids handed out (stats)
	mono       *clock.MonoClock // the default clock, for its cheap reading; nil otherwise
	seqBits    uint
	seqMask    uint64
	tickShift  uint   // seqBits + the backwards field's width
	cbMask     uint64 // the backwards counter's largest value; 0 without one
	bwShift    uint   // the backwards field's place in an id
	epochNs    int64
	unitNs     int64
	maxTick    int64
	fixed      int64 // the datacenter and worker bits without a lease
	timeShift  uint
	seqShift   uint
	lm         *leaser // nil without a lease
	random     uint64  // seq_start=random:N, capped to the sequence range
	borrow     int64   // ticks borrowing may run ahead of the clock; 0: off
	wall       bool
	back       config.Policy
	eraMu      sync.Mutex   // serialises new eras (backwards counter steps)
	handedOut  func() int64 // baidu-cached: the last tick handed out of its ring
	tickWaits  atomic.Int64
	clockBacks atomic.Int64
	*shape
	cfgString string
}

func newTimeGen(sh *shape, lm *leaser) (*timeGen, error) {
	c := sh.cfg
	l := &c.Layout
	tf, _ := l.Field(layout.FieldTime)
	sf, _ := l.Field(layout.FieldSeq)
	g := &timeGen{
		shape:     sh,
		fixed:     l.Put(layout.FieldDatacenter, c.DC) | l.Put(layout.FieldWorker, c.Worker),
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
		lm:        lm,
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
	if g.tick() < 0 {
		return nil, errs.Key("epoch", "%s is in the future; a generator cannot issue before its epoch", clock.FormatMs(c.EpochMs))
	}
	// As if id (tick 0, sequence 0) had been issued: a generator whose
	// epoch is less than a unit ago issues in tick 0 at once (never that
	// one id) rather than waiting for tick 1.
	g.state.Store(0)
	g.issued.moved(0, g.v(0), 0)
	if lm != nil {
		if err := lm.take(g, g.rollback()); err != nil {
			return nil, err
		}
	}
	g.cfgString = c.String()
	return g, nil
}

// tick is the clock in ticks since the epoch (floor division).
func (g *timeGen) tick() int64 { return g.toTick(g.clock.Now()) }

func (g *timeGen) toTick(ns int64) int64 {
	d := ns - g.epochNs
	if d < 0 {
		return -1 - (-d-1)/g.unitNs
	}
	return d / g.unitNs
}

// tickTime prints tick t as RFC 3339 (never overflowing).
func (g *timeGen) tickTime(t int64) string {
	ums := g.unitNs / int64(time.Millisecond)
	if t > (math.MaxInt64-g.cfg.EpochMs)/ums || t < -g.cfg.EpochMs/ums {
		return fmt.Sprintf("tick %d (beyond the int64 milliseconds)", t)
	}
	return clock.FormatMs(g.cfg.EpochMs + t*ums)
}

func (g *timeGen) startSeq() uint64 {
	if g.random == 0 {
		return 0
	}
	return rand.Uint64N(g.random)
}

// reserve claims up to n consecutive sequence numbers of one tick and
// returns the tick, the first sequence number and how many it got (>= 1).
func (g *timeGen) reserve(n uint64) (int64, uint64, uint64, int64, error) {
	waited := time.Duration(0)
	precise := false
	for {
		h, fixed := g.lm.current(g.fixed)
		old := g.state.Load()
		if old&closedBit != 0 {
			return 0, 0, 0, 0, errClosed
		}
		last, lastSeq := int64(old>>g.tickShift), old&g.seqMask
		era := old >> g.seqBits & g.cbMask
		var ns int64
		if precise || g.mono == nil {
			ns = g.clock.Now()
		} else if v, ok := g.mono.Cached(); ok {
			ns = v
		} else {
			ns = g.mono.Recent()
		}
		// The common case needs no division: the clock is still in the
		// last tick, or in the one after it.
		var now int64
		switch into := ns - (g.epochNs + last*g.unitNs); {
		case into >= 0 && into < g.unitNs:
			now = last
		case into >= g.unitNs && into < 2*g.unitNs:
			now = last + 1
		default:
			now = g.toTick(ns)
		}
		var t int64
		var s uint64
		switch {
		case now > last:
			t, s = now, g.startSeq()
		case now < last && g.wall && last-now > g.borrow:
			behind := time.Duration(last-now) * time.Duration(g.unitNs)
			g.clockBacks.Add(1)
			switch st := g.back.Pick(behind); {
			case st.Mode == config.Wait && waited+behind <= 2*st.Limit:
				g.sleep(behind)
				waited += behind
				continue
			case era < g.cbMask:
				if err := g.startEra(old, now); err != nil {
					return 0, 0, 0, 0, err
				}
				continue
			case st.Mode == config.Tolerate:
				// keep issuing on the last tick, below
			default:
				note := ""
				if g.back.Has(config.Switch) {
					note = " (switch takes another pair when a pair is taken, at opening or leasing again, not in a running generator)"
				}
				return 0, 0, 0, 0, errs.New(errs.ErrClockBackwards,
					"the wall clock moved back by %s (last id at %s, clock now %s); on_clock_back=%s%s",
					behind, g.tickTime(last), g.tickTime(now), g.back, note)
			}
			fallthrough
		default: // now <= last: continue on the last tick
			if lastSeq < g.seqMask {
				t, s = last, lastSeq+1
				break
			}
			if last >= g.maxTick {
				return 0, 0, 0, 0, g.overflow()
			}
			if g.borrow > 0 && last+1-now <= g.borrow {
				t, s = last+1, g.startSeq()
				break
			}
			if precise {
				g.pause(last)
			} else {
				g.tickWaits.Add(1)
			}
			precise = true
			continue
		}
		if t > g.maxTick {
			return 0, 0, 0, 0, g.overflow()
		}
		got := min(n, g.seqMask-s+1)
		if h != nil { // (checked here too: fence is not inlined)
			if err := fence(h, t, &g.state); err != nil {
				if !errors.Is(err, errs.ErrClosed) && g.lm.hold.Load() != h {
					continue // leased again meanwhile
				}
				return 0, 0, 0, 0, err
			}
		}
		if next := uint64(t)<<g.tickShift | era<<g.seqBits | (s + got - 1); g.state.CompareAndSwap(old, next) {
			g.issued.moved(g.v(old), g.v(next), int64(got))
			return t, s, got, fixed | int64(era)<<g.bwShift, nil
		}
	}
}

// pause waits a little for the clock to pass tick last: it sleeps while
// the next tick is more than 2 ms away and spins (returns at once, so the
// caller re-reads the clock) for the rest.
func (g *timeGen) pause(last int64) {
	remaining := time.Duration(g.epochNs + (last+1)*g.unitNs - g.clock.Now())
	if _, simulated := g.clock.(clock.Sleeper); simulated && remaining > 0 {
		g.sleep(remaining) // simulated time does not pass by spinning
	} else if remaining > 2*time.Millisecond {
		time.Sleep(min(remaining-time.Millisecond, 100*time.Millisecond))
	}
}

func (g *timeGen) overflow() error {
	tf, _ := g.cfg.Layout.Field(layout.FieldTime)
	msg := "the " + strconv.Itoa(int(tf.Width)) + "-bit time field of layout " + g.cfg.Layout.String() +
		" ran out at " + g.tickTime(g.maxTick+1) + "; ids would wrap or go negative"
	if g.cfg.Preset == "baidu" && tf.Width == 28 {
		msg += " (Baidu's default 28-bit seconds ended on 2024-11-20; use layout=time:29,worker:21,seq:13 epoch=2016-09-20T00:00:00+08:00)"
	}
	return errs.New(errs.ErrTimeOverflow, "%s", msg)
}

func (g *timeGen) compose(t int64, s uint64, fixed int64) int64 {
	return t<<g.timeShift | fixed | int64(s)<<g.seqShift
}

// Next returns the next id.
func (g *timeGen) Next() (int64, error) {
	if id, ok := g.nextFast(); ok {
		return id, nil
	}
	t, s, _, fixed, err := g.reserve(1)
	if err != nil {
		return -1, err
	}
	return g.compose(t, s, fixed), nil
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
	if !g.state.CompareAndSwap(old, next) {
		return 0, false
	}
	if next&g.seqMask == 0 { // a new tick (in the same one v moves by one: nothing to count)
		g.issued.moved(g.v(old), g.v(next), 1)
	}
	era := next >> g.seqBits & g.cbMask
	return g.compose(t, next&g.seqMask, fixed|int64(era)<<g.bwShift), true
}

// NextBatch fills out with consecutive ids, one reservation per tick,
// all made before out is written (fillRuns).
func (g *timeGen) NextBatch(out []int64) error {
	return fillRuns(out, int64(1)<<g.seqShift, func(n uint64) (int64, uint64, error) {
		t, s, got, fixed, err := g.reserve(n)
		return g.compose(t, s, fixed), got, err
	})
}

// v is what a state word says of its own tick's ids (stats): the
// sequence number + 1.
func (g *timeGen) v(state uint64) int64 { return int64(state&g.seqMask) + 1 }

// Config is the resolved configuration.
func (g *timeGen) Config() string {
	if g.lm != nil {
		return g.lm.config()
	}
	return g.cfgString
}

// LastValue is the tick of the last id issued.
func (g *timeGen) LastValue() int64 { return int64(g.state.Load() &^ closedBit >> g.tickShift) }

// Close marks the generator closed and records its last tick in the lease.
func (g *timeGen) Close() error {
	if !closeState(&g.state) {
		return nil
	}
	g.stopClock()
	if g.lm != nil {
		return g.lm.close()
	}
	return nil
}

var errClosed = &errs.Error{Kind: errs.ErrClosed, Msg: "the generator is closed"}
