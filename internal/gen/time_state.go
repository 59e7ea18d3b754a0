package gen

import (
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
//     next tick at once while that stays within max_drift of the clock,
//     and at that bound waits for the clock tick by tick (never for the
//     whole drift), so it keeps the layout's rate. The sequence never
//     wraps.
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
	// The state word and the fields reserve reads on every call come
	// first, together.
	core
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
	random     uint64 // seq_start=random:N, capped to the sequence range
	borrow     int64  // ticks borrowing may run ahead of the clock; 0: off
	wall       bool
	back       config.Policy
	eraMu      sync.Mutex   // serialises new eras (backwards counter steps)
	handedOut  func() int64 // baidu-cached: the last tick handed out of its ring
	runs       *runCache    // runs=N; nil without runs
	hostHeld                // a host's runs (host_runs.go)
	tickWaits  atomic.Int64
	clockBacks atomic.Int64
	opened     uint64 // the state word of the clock as it opened (carried)
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

// v is what a state word says of its own tick's ids (stats): the
// sequence number + 1.
func (g *timeGen) v(state uint64) int64 { return int64(state&g.seqMask) + 1 }

// carried is the state word a replacement goes on from (Continue): the
// last id issued, or the clock as the generator opened if that is later
// and no new era began (a new era's ticks do not compare with era 0's).
func (g *timeGen) carried() uint64 {
	st := g.state.Load() &^ closedBit
	if st>>g.seqBits&g.cbMask != 0 {
		return st
	}
	return max(st, g.opened)
}

// LastValue is the tick of the last id issued.
func (g *timeGen) LastValue() int64 { return int64(g.state.Load() &^ closedBit >> g.tickShift) }

// UnixMs is the time of tick v.
func (g *timeGen) UnixMs(v int64) int64 {
	ums := g.unitNs / int64(time.Millisecond)
	if v > (math.MaxInt64-g.cfg.EpochMs)/ums {
		return math.MaxInt64 // printed as beyond year 9999
	}
	if v < -g.cfg.EpochMs/ums {
		return -1
	}
	return g.cfg.EpochMs + v*ums
}
