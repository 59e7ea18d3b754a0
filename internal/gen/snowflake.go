package gen

import (
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"time"
)

const closedBit = uint64(1) << 63

// timeGen is the Snowflake-family generator, for every layout with a time
// and a seq field (snowflake, hutool, leaf, baidu, sonyflake, custom).
//
// Its whole state is one word, tick<<seqBits | seq of the last id issued,
// updated by compare-and-swap; bit 63 marks it closed.
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
//   - Time overflow: once the time field is used up, every call fails with
//     ErrTimeOverflow; the field never wraps and no id goes negative.
type timeGen struct {
	// The fields reserve reads on every call come first, together.
	state     atomic.Uint64
	recent    recentClock // the clock's cheap reading, if it has one
	seqBits   uint
	seqMask   uint64
	epochNs   int64
	unitNs    int64
	maxTick   int64
	fixed     int64 // the datacenter and worker bits
	timeShift uint
	seqShift  uint
	lease     *Lease
	random    uint64 // seq_start=random:N, capped to the sequence range
	borrow    int64  // ticks borrowing may run ahead of the clock; 0: off
	wall      bool
	ownClock  bool // Open made the clock, so Close stops it
	back      ClockBack
	*shape
	cfgString string
}

func newTimeGen(sh *shape, lease *Lease) (*timeGen, error) {
	c := sh.cfg
	l := &c.Layout
	tf, _ := l.Field(FieldTime)
	sf, _ := l.Field(FieldSeq)
	g := &timeGen{
		shape:     sh,
		fixed:     l.put(FieldDatacenter, c.DC) | l.put(FieldWorker, c.Worker),
		timeShift: tf.Shift,
		seqShift:  sf.Shift,
		seqBits:   sf.Width,
		seqMask:   uint64(sf.Max()),
		maxTick:   tf.Max(),
		unitNs:    int64(c.Unit),
		epochNs:   c.EpochMs * int64(time.Millisecond),
		wall:      c.WallClock,
		back:      c.OnClockBack,
		lease:     lease,
		cfgString: c.String(),
	}
	if rc, ok := sh.clock.(recentClock); ok && !c.WallClock {
		g.recent = rc
	}
	if c.SeqRandom > 0 {
		g.random = uint64(min(c.SeqRandom, int64(g.seqMask)+1))
	}
	if c.Borrow {
		g.borrow = max(1, int64(c.MaxDrift)/g.unitNs)
	}
	now := g.tick()
	if now < 0 {
		return nil, configError("epoch", "%s is in the future; a generator cannot issue before its epoch",
			time.UnixMilli(c.EpochMs).UTC().Format(time.RFC3339Nano))
	}
	floor := int64(0)
	if lease != nil {
		rec := lease.Recorded()
		if err := waitUntil(c.MaxWait, func() bool { return g.tick() > rec }); err != nil {
			return nil, errorf(ErrClockBackwards,
				"lease %s: the previous holder issued up to %s but the clock reads %s; waited %s (max_wait) for it to pass",
				lease.Path(), g.tickTime(rec), g.tickTime(g.tick()), c.MaxWait)
		}
		floor = max(rec, 0)
	}
	g.state.Store(uint64(floor)<<g.seqBits | g.seqMask)
	if lease != nil {
		lease.Start(g.LastValue, ceilTicks(time.Second, c.Unit))
	}
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

func (g *timeGen) tickTime(t int64) string {
	return time.Unix(0, g.epochNs+t*g.unitNs).UTC().Format(time.RFC3339Nano)
}

func (g *timeGen) startSeq() uint64 {
	if g.random == 0 {
		return 0
	}
	return rand.Uint64N(g.random)
}

// reserve claims up to n consecutive sequence numbers of one tick and
// returns the tick, the first sequence number and how many it got (>= 1).
func (g *timeGen) reserve(n uint64) (int64, uint64, uint64, error) {
	waited := time.Duration(0)
	precise := false
	for {
		old := g.state.Load()
		if old&closedBit != 0 {
			return 0, 0, 0, errClosed
		}
		last, lastSeq := int64(old>>g.seqBits), old&g.seqMask
		var ns int64
		if precise || g.recent == nil {
			ns = g.clock.Now()
		} else {
			ns = g.recent.Recent()
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
			switch {
			case g.back.Mode == BackTolerate && behind <= g.back.Limit:
				// keep issuing on the last tick, below
			case g.back.Mode == BackWait && behind <= g.back.Limit && waited+behind <= 2*g.back.Limit:
				time.Sleep(behind)
				waited += behind
				continue
			default:
				return 0, 0, 0, errorf(ErrClockBackwards,
					"the wall clock moved back by %s (last id at %s, clock now %s); on_clock_back=%s",
					behind, g.tickTime(last), g.tickTime(now), g.back)
			}
			fallthrough
		default: // now <= last: continue on the last tick
			if lastSeq < g.seqMask {
				t, s = last, lastSeq+1
				break
			}
			if last >= g.maxTick {
				return 0, 0, 0, g.overflow()
			}
			if g.borrow > 0 && last+1-now <= g.borrow {
				t, s = last+1, g.startSeq()
				break
			}
			if precise {
				g.pause(last)
			}
			precise = true
			continue
		}
		if t > g.maxTick {
			return 0, 0, 0, g.overflow()
		}
		got := min(n, g.seqMask-s+1)
		if g.lease != nil && t > g.lease.Limit() {
			if err := g.lease.Extend(t); err != nil {
				return 0, 0, 0, err
			}
		}
		if g.state.CompareAndSwap(old, uint64(t)<<g.seqBits|(s+got-1)) {
			return t, s, got, nil
		}
	}
}

// pause waits a little for the clock to pass tick last: it sleeps while
// the next tick is more than 2 ms away and spins (returns at once, so the
// caller re-reads the clock) for the rest.
func (g *timeGen) pause(last int64) {
	remaining := time.Duration(g.epochNs + (last+1)*g.unitNs - g.clock.Now())
	if remaining > 2*time.Millisecond {
		time.Sleep(min(remaining-time.Millisecond, 100*time.Millisecond))
	}
}

func (g *timeGen) overflow() error {
	tf, _ := g.cfg.Layout.Field(FieldTime)
	msg := "the " + strconv.Itoa(int(tf.Width)) + "-bit time field of layout " + g.cfg.Layout.String() +
		" ran out at " + g.tickTime(g.maxTick+1) + "; ids would wrap or go negative"
	if g.cfg.Preset == "baidu" && tf.Width == 28 {
		msg += " (Baidu's default 28-bit seconds ended on 2024-11-20; use layout=time:29,worker:21,seq:13 epoch=2016-09-20T00:00:00+08:00)"
	}
	return errorf(ErrTimeOverflow, "%s", msg)
}

func (g *timeGen) compose(t int64, s uint64) int64 {
	return t<<g.timeShift | g.fixed | int64(s)<<g.seqShift
}

// Next returns the next id.
func (g *timeGen) Next() (int64, error) {
	t, s, _, err := g.reserve(1)
	if err != nil {
		return -1, err
	}
	return g.compose(t, s), nil
}

// NextBatch fills out with consecutive ids, one reservation per tick.
func (g *timeGen) NextBatch(out []int64) error {
	for i := 0; i < len(out); {
		t, s, got, err := g.reserve(uint64(len(out) - i))
		if err != nil {
			return err
		}
		base := g.compose(t, s)
		step := int64(1) << g.seqShift
		chunk := out[i : i+int(got)]
		for k := range chunk {
			chunk[k] = base
			base += step
		}
		i += int(got)
	}
	return nil
}

// Config is the resolved configuration.
func (g *timeGen) Config() string { return g.cfgString }

// LastValue is the tick of the last id issued.
func (g *timeGen) LastValue() int64 { return int64(g.state.Load() &^ closedBit >> g.seqBits) }

// Close marks the generator closed and records its last tick in the lease.
func (g *timeGen) Close() error {
	if !closeState(&g.state) {
		return nil
	}
	if s, ok := g.clock.(interface{ Stop() }); ok && g.ownClock {
		s.Stop()
	}
	if g.lease != nil {
		return g.lease.Release()
	}
	return nil
}

var errClosed = &Error{Kind: ErrClosed, Msg: "the generator is closed"}

// waitUntil polls ok every millisecond until it holds, for at most d.
func waitUntil(d time.Duration, ok func() bool) error {
	deadline := time.Now().Add(d)
	for !ok() {
		if !time.Now().Before(deadline) {
			return ErrClockBackwards
		}
		time.Sleep(min(time.Millisecond, time.Until(deadline)))
	}
	return nil
}
