package gen

// How a time generator reserves ids: read the clock, choose the tick (a
// new one, the last one, one borrowed, or wait), check the lease's fence,
// and claim the sequence numbers with one compare-and-swap.

import (
	"errors"
	"time"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
)

// grant is what one reservation got: n consecutive sequence numbers from
// first, in tick, for ids that carry the pair and era bits fixed.
type grant struct {
	tick  int64
	first uint64
	n     uint64
	fixed int64
}

// retry is what one reserve call remembers between its attempts.
type retry struct {
	waited  time.Duration // waited so far for a clock that stepped back
	precise bool          // read the clock itself, not its cached reading
}

// reserve claims up to n (>= 1) consecutive sequence numbers of one tick.
func (g *timeGen) reserve(n uint64) (grant, error) {
	var r retry
	for {
		h, fixed := g.lm.current(g.fixed)
		old := g.state.Load()
		if old&closedBit != 0 {
			return grant{}, errClosed
		}
		t, s, again, err := g.choose(old, g.clockTick(int64(old>>g.tickShift), r.precise), &r)
		if err != nil {
			return grant{}, err
		}
		if again {
			continue
		}
		if t > g.maxTick {
			return grant{}, g.overflow()
		}
		got := min(n, g.seqMask-s+1)
		if h != nil { // (checked here too: fence is not inlined)
			if err := g.fence(h, t); err != nil {
				if !errors.Is(err, errs.ErrClosed) && g.lm.hold.Load() != h {
					continue // leased again meanwhile
				}
				return grant{}, err
			}
		}
		era := old >> g.seqBits & g.cbMask
		if next := uint64(t)<<g.tickShift | era<<g.seqBits | (s + got - 1); g.issued.swap(&g.state, old, next, g.v(old), g.v(next), int64(got)) {
			return grant{tick: t, first: s, n: got, fixed: fixed | int64(era)<<g.bwShift}, nil
		}
	}
}

// clockTick is the clock's tick (a cached reading unless precise). The
// common case needs no division: the clock is still in tick last, or in
// the one after it.
func (g *timeGen) clockTick(last int64, precise bool) int64 {
	var ns int64
	if precise || g.mono == nil {
		ns = g.clock.Now()
	} else if v, ok := g.mono.Cached(); ok {
		ns = v
	} else {
		ns = g.mono.Recent()
	}
	switch into := ns - (g.epochNs + last*g.unitNs); {
	case into >= 0 && into < g.unitNs:
		return last
	case into >= g.unitNs && into < 2*g.unitNs:
		return last + 1
	}
	return g.toTick(ns)
}

// choose is the tick and first sequence number of the ids after state
// old with the clock at tick now; again asks for another attempt (after a
// wait or a new era).
func (g *timeGen) choose(old uint64, now int64, r *retry) (t int64, s uint64, again bool, err error) {
	last, lastSeq := int64(old>>g.tickShift), old&g.seqMask
	if now > last {
		return now, g.startSeq(), false, nil
	}
	if now < last && g.wall && last-now > g.borrow {
		if again, err := g.clockBack(old, last, now, r); again || err != nil {
			return 0, 0, again, err
		}
		// tolerated: go on on the last tick
	}
	if lastSeq < g.seqMask {
		return last, lastSeq + 1, false, nil
	}
	return g.exhausted(last, now, r)
}

// clockBack applies on_clock_back to a wall clock behind the last tick:
// wait for it (again), start a new era (again), tolerate it (go on on
// the last tick) or refuse.
func (g *timeGen) clockBack(old uint64, last, now int64, r *retry) (again bool, err error) {
	behind := time.Duration(last-now) * time.Duration(g.unitNs)
	g.clockBacks.Add(1)
	switch st := g.back.Pick(behind); {
	case st.Mode == config.Wait && r.waited+behind <= 2*st.Limit:
		g.sleep(behind)
		r.waited += behind
		return true, nil
	case old>>g.seqBits&g.cbMask < g.cbMask:
		return true, g.startEra(old, now)
	case st.Mode == config.Tolerate:
		return false, nil
	}
	note := ""
	if g.back.Has(config.Switch) {
		note = " (switch takes another pair when a pair is taken, at opening or leasing again, not in a running generator)"
	}
	return false, errs.New(errs.ErrClockBackwards,
		"the wall clock moved back by %s (last id at %s, clock now %s); on_clock_back=%s%s",
		behind, g.tickTime(last), g.tickTime(now), g.back, note)
}

// exhausted follows a tick whose sequence is used up: the next tick when
// borrowing may take it, else (again) a wait for the clock. The clock
// must reach the tick after last, or, borrowing at max_drift, only the
// tick that lets it borrow one more: it waits tick by tick at the bound,
// never for the whole drift.
func (g *timeGen) exhausted(last, now int64, r *retry) (int64, uint64, bool, error) {
	if last >= g.maxTick {
		return 0, 0, false, g.overflow()
	}
	if g.borrow > 0 && last+1-now <= g.borrow {
		return last + 1, g.startSeq(), false, nil
	}
	if r.precise {
		g.pause(last + 1 - g.borrow)
	} else {
		g.tickWaits.Add(1)
	}
	r.precise = true
	return 0, 0, true, nil
}

// pause waits a little for the clock to reach tick need: it sleeps while
// that is more than 2 ms away and spins (returns at once, so the caller
// reads the clock again) for the rest.
func (g *timeGen) pause(need int64) {
	remaining := time.Duration(g.epochNs + need*g.unitNs - g.clock.Now())
	if _, simulated := g.clock.(clock.Sleeper); simulated && remaining > 0 {
		g.sleep(remaining) // simulated time does not pass by spinning
	} else if remaining > 2*time.Millisecond {
		time.Sleep(min(remaining-time.Millisecond, 100*time.Millisecond))
	}
}

// nextBatch is NextBatch without runs: consecutive ids, one reservation
// per tick, all made before out is written (fillRuns).
func (g *timeGen) nextBatch(out []int64) error {
	return fillRuns(out, int64(1)<<g.seqShift, func(n uint64) (int64, uint64, error) {
		r, err := g.reserve(n)
		return g.compose(r.tick, r.first, r.fixed), r.n, err
	})
}
