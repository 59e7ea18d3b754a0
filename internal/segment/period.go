package segment

// Business numbers: a Counter whose Config has Periods takes each segment
// from the counter of the period the store's clock is in (<name>@<label>)
// and hands a segment's values out only while the store's clock, as this
// generator measured it, is still in that period.
//
// Every take is followed, before its answer is used, by a reading of the
// store's clock (Clock.StoreClock). The reading lay in [lo, hi] at some
// moment between the take's start (sent, on the generator's clock) and
// the reading's answer (got). So at any later moment t of the generator's
// clock the store's clock reads
//
//	at most   hi + (t - sent)   and   at least   lo + (t - got),
//
// each widened by 100 ppm of the time since for the two clocks' rates
// (the skew correction: the generator's clock may be seconds off the
// store's, which cancels out; only elapsed time on it is used). A take
// chooses its period by the lower bound, so its values are never of a
// period the store has not begun; its values are handed out only while
// the upper bound is before the period's end, so none is handed out once
// the store's clock has passed it. A take whose period ended before its
// answer is given back (when nobody took since) and taken again from the
// next period once the lower bound has passed into it.

import (
	"context"
	"time"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/numbers"
)

// initPeriods readies a Counter whose Config has Periods (nothing
// without).
func (c *Counter) initPeriods() error {
	if c.cfg.Periods == nil {
		return nil
	}
	clk, ok := ClockOf(c.store)
	if !ok {
		return errs.New(errs.ErrInvalid, "reset=: %s has no clock a period could be read from", c.store.Where())
	}
	p := &c.periods
	p.clk, p.now = clk, c.cfg.Clock
	if p.now == nil {
		p.now = clock.NewMonoClock()
	}
	c.takeIn = c.takePeriod
	return nil
}

// Skew is the generator's clock minus the store's at the last reading
// (ms), and whether there was one.
func (c *Counter) Skew() (int64, bool) {
	p := &c.periods
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.have {
		return 0, false
	}
	r := p.last
	return ((r.sent+r.got)/2 - (r.lo+r.hi)/2) / int64(time.Millisecond), true
}

// read reads the store's clock around f (nil: nothing): the reading
// follows f, both within [sent, got].
func (c *Counter) read(ctx context.Context, f func() error) (reading, error) {
	p := &c.periods
	sent := p.now.Now()
	if f != nil {
		if err := f(); err != nil {
			return reading{}, err
		}
	}
	lo, hi, err := p.clk.StoreClock(ctx)
	if err != nil {
		return reading{}, errs.New(errs.ErrWorker, "segment counter %s: read the clock of %s: %v", c.cfg.Name, c.store.Where(), err)
	}
	r := reading{lo: lo * int64(time.Millisecond), hi: hi * int64(time.Millisecond), sent: sent, got: p.now.Now()}
	p.mu.Lock()
	p.last, p.have = r, true
	p.mu.Unlock()
	return r, nil
}

// choose is the period of the next take: the one the store's clock is
// in by its lower bound, never one before the latest taken from. The
// first take reads the store's clock first.
func (c *Counter) choose(ctx context.Context) (numbers.Period, error) {
	p := &c.periods
	p.mu.Lock()
	r, have := p.last, p.have
	p.mu.Unlock()
	if !have {
		var err error
		if r, err = c.read(ctx, nil); err != nil {
			return numbers.Period{}, err
		}
	}
	at := r.lower(p.now.Now())
	if lease.Mutant() == "period-host-clock" {
		at = p.now.Now() // the seeded bug: the period by this host's clock
	}
	per := c.cfg.Periods.At(at / int64(time.Millisecond))
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cur != nil && per.Start < p.cur.Start {
		per = *p.cur
	}
	return per, nil
}

// takePeriod takes n values from the counter of the period the store's
// clock is in (see the file's comment).
func (c *Counter) takePeriod(ctx context.Context, n int64) (*seg, error) {
	for try := 0; ; try++ {
		per, err := c.choose(ctx)
		if err != nil {
			return nil, err
		}
		name := c.cfg.Name + "@" + per.Label
		mark := c.markOf(per.Label)
		var prev, last int64
		r, err := c.read(ctx, func() (err error) {
			prev, last, err = c.store.Take(ctx, name, c.cfg.Start, n, mark)
			return err
		})
		if err == nil && prev < mark && lease.Mutant() != "segment-no-mark" {
			err = WentBack(c.store.Where(), name, mark, prev, true, "")
		}
		if err != nil {
			return nil, c.takeFailed(name, err)
		}
		c.takes.Add(1)
		c.noteMark(per.Label, last)
		ms := int64(time.Millisecond)
		if r.lo < per.Start*ms && lease.Mutant() != "period-host-clock" {
			c.giveBack(ctx, name, last, prev)
			return nil, errs.New(errs.ErrClockBackwards, "segment counter %s: the clock of %s went back: it read %s, before the period %s it was in (%s); taking again when it is back",
				name, c.store.Where(), clock.FormatMs(r.lo/ms), per.Label, clock.FormatMs(per.Start))
		}
		until := r.until(per.End * ms)
		if lease.Mutant() == "period-host-clock" {
			until = per.End*ms - 1
		}
		if until > r.got {
			return c.periodSeg(per, name, prev, last, until), nil
		}
		// The period ended while taking: its values are given back, and the
		// next take waits until the store's clock is surely past it.
		c.giveBack(ctx, name, last, prev)
		if try >= 3 {
			return nil, errs.New(errs.ErrWorker, "segment counter %s: the clock of %s left period %s during each of %d takes", c.cfg.Name, c.store.Where(), per.Label, try+1)
		}
		if wait := time.Duration(per.End*ms - r.lower(c.periods.now.Now())); wait > 0 {
			c.env.Sleep(min(wait+time.Millisecond, time.Second))
		}
	}
}

// periodSeg makes the segment prev+1 .. last of counter name in per.
func (c *Counter) periodSeg(per numbers.Period, name string, prev, last, until int64) *seg {
	p := &c.periods
	p.mu.Lock()
	if p.cur == nil || per.Start > p.cur.Start {
		p.cur = &per
	}
	p.mu.Unlock()
	s := newSeg(prev+1, last-prev, c.cfg.Padding)
	s.name, s.per, s.until = name, &per, until
	return s
}

// markOf is the high-water mark of the counter of period label (0 for a
// period not taken from yet).
func (c *Counter) markOf(label string) int64 {
	c.periods.mu.Lock()
	defer c.periods.mu.Unlock()
	if c.periods.label != label {
		return 0
	}
	return c.mark.Load()
}

// noteMark moves the mark to last, the end of a take from period label.
func (c *Counter) noteMark(label string, last int64) {
	c.periods.mu.Lock()
	defer c.periods.mu.Unlock()
	if c.periods.label != label {
		c.periods.label = label
		c.mark.Store(last)
		return
	}
	c.mark.Store(max(c.mark.Load(), last))
}

// giveBack sets counter name back from last to prev when nobody took
// since (values never handed out); a failure only leaves them unused.
func (c *Counter) giveBack(ctx context.Context, name string, last, prev int64) {
	if ok, err := c.store.GiveBack(ctx, name, last, prev); ok && err == nil {
		c.noteGiven(name, prev)
	}
}

// noteGiven lowers the mark after a give-back on counter name.
func (c *Counter) noteGiven(name string, to int64) {
	c.periods.mu.Lock()
	defer c.periods.mu.Unlock()
	if c.cfg.Periods == nil || c.cfg.Name+"@"+c.periods.label == name {
		c.mark.Store(to)
	}
}

// NextIn returns the next value and its period (nil without periods). A
// value is handed out only before its segment's period ended by the
// store's clock: the check and the value's draw are one step under a
// lock, so no value is skipped at the end of a period.
func (c *Counter) NextIn() (int64, *numbers.Period, error) {
	if c.cfg.Periods == nil {
		v, err := c.Next()
		return v, nil, err
	}
	for {
		c.hand.Lock()
		s := c.cur.Load()
		off := s.size
		if s.per != nil && c.periods.now.Now() < s.until {
			off = s.used.Add(1) - 1
		}
		c.hand.Unlock()
		if off < s.size {
			if off == s.trigger {
				c.prefetch(s)
			}
			return s.lo + off, s.per, nil
		}
		if err := c.advance(s); err != nil {
			return -1, nil, err
		}
	}
}
