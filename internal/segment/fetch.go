package segment

// The slow side of a Counter: the background fetch, switching to the
// prefetched segment, waiting out a store that does not answer, step=auto;
// and what it reports (the give-back at close is close.go).

import (
	"context"
	"fmt"
	"runtime"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

var errClosed = errs.New(errs.ErrClosed, "generator is closed")

// prefetch starts fetching the next segment while s is current, unless
// one is fetched or in hand. The caller then yields once, so that the new
// fetch goroutine runs at once rather than after a preemption when every
// core is busy drawing values.
func (c *Counter) prefetch(s *seg) {
	c.mu.Lock()
	started := c.cur.Load() == s && c.startFetch(s)
	c.mu.Unlock()
	if started {
		runtime.Gosched()
	}
}

// startFetch starts the fetch goroutine (c.mu held) unless it runs, a
// segment is in hand, the counter ended or closed; it reports whether it
// started one.
func (c *Counter) startFetch(s *seg) bool {
	if c.fetching || c.pre != nil || c.ended != nil || c.closed {
		return false
	}
	c.step = c.nextStep(s)
	c.fetching = true
	if c.manual {
		return false // the owner's FetchStep, or a caller that runs out, takes it
	}
	c.wg.Add(1)
	n := c.step
	go func() {
		defer c.wg.Done()
		errs.Guard("segment counter "+c.cfg.Name+": the fetch", func() { c.fetch(n) }, c.fetchFailed)
	}()
	return true
}

// fetchFailed ends the counter for good after a panic in its fetch
// goroutine (err, an errs.ErrInternal naming the bug): the values in hand
// are still handed out, then every call fails with err.
func (c *Counter) fetchFailed(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lastErr = err
	if c.ended == nil {
		c.ended = err
	}
	if c.fetching {
		c.fetched()
	}
}

// nextStep is the size of the next take: step, or with step=auto the
// values s would have needed to last AutoTarget at the rate it was used
// at (the rate of the segment before it when s starts the fetch at once),
// growing at once, shrinking at most by half.
func (c *Counter) nextStep(s *seg) int64 {
	if !c.cfg.Auto || s.born.IsZero() {
		return c.step
	}
	used := min(s.used.Load(), s.size)
	el := c.env.Now().Sub(s.born)
	if s.early { // the fetch starts as s becomes current
		if c.lastLife <= 0 || c.lastSize < s.size {
			return c.step // no capped segment used up yet to read a rate from
		}
		used, el = c.lastSize, c.lastLife
	}
	want := c.cfg.Max
	if el > 0 {
		want = int64(min(float64(c.cfg.Max), float64(used)*float64(AutoTarget)/float64(el)))
	}
	return max(c.cfg.Min, c.step/2, min(c.cfg.Max, want))
}

// fetch takes n values from the store, trying again with a growing pause
// while it fails, until it gets them, the counter ends, or it is closed.
func (c *Counter) fetch(n int64) {
	pause := 10 * time.Millisecond
	for {
		if c.fetchOnce(n) {
			return
		}
		select {
		case <-c.stop:
			c.mu.Lock()
			c.fetched()
			c.mu.Unlock()
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, time.Second)
	}
}

// fetchOnce tries one take of n values; it reports whether the fetch
// ended (a segment in hand, the counter ended or closed).
func (c *Counter) fetchOnce(n int64) bool {
	ctx, cancel := context.WithTimeout(c.ctx, c.cfg.TakeTimeout)
	s, err := c.take(ctx, n)
	cancel()
	c.mu.Lock()
	defer c.mu.Unlock()
	switch {
	case err == nil:
		c.pre, c.lastErr = s, nil // also when closed: the give-back counts it
	case errs.KindOf(err) == errs.ErrTimeOverflow:
		c.ended = err
	default:
		c.lastErr = err
	}
	if err == nil || c.ended != nil || c.closed {
		c.fetched()
		return true
	}
	return false
}

// FetchStep runs a prefetch that waits, once (a manual Env: the
// simulator calls it where a fetch goroutine would run).
func (c *Counter) FetchStep() {
	c.mu.Lock()
	pending, n := c.fetching && !c.closed, c.step
	c.mu.Unlock()
	if pending {
		c.fetchOnce(n)
	}
}

// fetched ends a fetch (c.mu held): waiters look again.
func (c *Counter) fetched() {
	c.fetching = false
	close(c.ready)
	c.ready = make(chan struct{})
}

// advance makes a segment current after old ran out: the prefetched one,
// or the one a fetch brings within max_wait.
func (c *Counter) advance(old *seg) error {
	var deadline <-chan time.Time
	var since time.Time // manual: when this call began to wait
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		switch {
		case c.closed:
			return errClosed
		case c.cur.Load() != old:
			return nil // another caller moved on
		case c.pre != nil:
			s := c.pre
			if lease.Mutant() == "segment-reinstall" {
				cp := newSeg(s.lo, s.size, c.cfg.Padding) // kept in hand: its values again
				cp.name, cp.per, cp.until = s.name, s.per, s.until
				s = cp
			} else {
				c.pre = nil
			}
			c.install(s)
			return nil
		case c.ended != nil:
			return c.ended
		}
		c.startFetch(old)
		if c.manual {
			if err := c.takeInCall(&since); err != nil {
				return err
			}
			continue
		}
		if deadline == nil {
			t := time.NewTimer(c.cfg.MaxWait)
			defer t.Stop()
			deadline = t.C
		}
		ready := c.ready
		c.mu.Unlock()
		select {
		case <-ready:
			c.mu.Lock()
		case <-deadline:
			c.mu.Lock()
			if c.pre != nil || c.cur.Load() != old || c.closed || c.ended != nil {
				continue
			}
			return c.noSegment()
		}
	}
}

// noSegment is a call's failure when no segment came within max_wait
// (c.mu held).
func (c *Counter) noSegment() error {
	why := fmt.Sprintf("segment counter %s: no answer yet from %s", c.cfg.Name, c.store.Where())
	if c.lastErr != nil {
		why = c.lastErr.Error() // names the counter and the store
	}
	return errs.New(errs.ErrWorker, "%s; the values in hand are used up and no segment came within max_wait (%s); still trying", why, c.cfg.MaxWait)
}

// takeInCall is a manual Counter's wait inside a call (c.mu held, and
// held again on return): one take, then a pause on Env when it failed;
// past max_wait without a segment, the call fails.
func (c *Counter) takeInCall(since *time.Time) error {
	if since.IsZero() {
		*since = c.env.Now()
	}
	n := c.step
	c.mu.Unlock()
	done := c.fetchOnce(n)
	if !done {
		c.env.Sleep(min(c.cfg.MaxWait/4+time.Millisecond, 100*time.Millisecond))
	}
	c.mu.Lock()
	if !done && c.pre == nil && c.ended == nil && !c.closed && c.env.Now().Sub(*since) >= c.cfg.MaxWait {
		return c.noSegment()
	}
	return nil
}

// install makes s current (c.mu held).
func (c *Counter) install(s *seg) {
	old := c.cur.Load()
	c.done.Add(min(old.used.Load(), old.size))
	s.born = c.env.Now()
	if !old.born.IsZero() && old.used.Load() >= old.size {
		c.lastSize, c.lastLife = old.size, s.born.Sub(old.born)
	}
	c.cur.Store(s)
}

// Issued is the number of values handed out.
func (c *Counter) Issued() int64 {
	s := c.cur.Load()
	return c.done.Load() + min(s.used.Load(), s.size) - c.lost.Load()
}

// Forfeit records n values that Reserve gave a batch which then failed
// (it reached the counter's end): they are never handed out, and never
// handed out again either.
func (c *Counter) Forfeit(n int64) { c.lost.Add(n) }

// Left is the number of values in hand: the rest of the current segment
// and the prefetched one.
func (c *Counter) Left() int64 {
	s := c.cur.Load()
	n := s.size - min(s.used.Load(), s.size)
	c.mu.Lock()
	if c.pre != nil {
		n += c.pre.size
	}
	c.mu.Unlock()
	return n
}

// Takes is the number of segments taken from the store (round trips that
// succeeded).
func (c *Counter) Takes() int64 { return c.takes.Load() }

// Step is the size of the latest take.
func (c *Counter) Step() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.step
}
