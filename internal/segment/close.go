package segment

// Closing a Counter: the fetch stopped and the values in hand that were
// never handed out given back.

import (
	"context"
	"time"

	"github.com/idgen/idgen/internal/lease"
)

// Close stops the fetching and gives back the values in hand that were
// never handed out, when the store's counter still stands at the end of
// the last segment taken. Closing twice is harmless.
func (c *Counter) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	close(c.stop)
	c.mu.Unlock()
	// A take under way lands or fails within its timeout; one that lands
	// is given back with the rest. Past a short wait it is cut off.
	if !c.manual {
		c.awaitFetch()
	}
	c.mu.Lock()
	s := c.cur.Load()
	next := s.lo + min(s.used.Swap(sealed), s.size) // the lowest value never handed out
	pre := c.pre
	c.pre = nil
	c.mu.Unlock()
	last, from, name := s.lo+s.size-1, next, s.counter(c.cfg.Name)
	if pre != nil {
		last = pre.lo + pre.size - 1
		if (s.size == 0 || s.lo+s.size != pre.lo || name != pre.counter(c.cfg.Name)) && lease.Mutant() != "segment-tail" {
			from = pre.lo // someone took a segment in between (or pre is of another period): only pre comes back
		}
		name = pre.counter(c.cfg.Name)
	}
	defer c.cancel()
	if from <= last {
		ctx, cancel := context.WithTimeout(context.Background(), min(c.cfg.TakeTimeout, 2*time.Second))
		if ok, err := c.store.GiveBack(ctx, name, last, from-1); ok && err == nil {
			c.mark.Store(from - 1) // the rest came back: the counter may stand there
		}
		cancel()
	}
	return c.store.Close()
}

// awaitFetch waits for a fetch goroutine under way, cutting it off past 2 s.
func (c *Counter) awaitFetch() {
	waited := make(chan struct{})
	go func() { c.wg.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-time.After(2 * time.Second):
		c.cancel()
		<-waited
	}
}

// counter is the store's name of s's counter: base, or base@<period>.
func (s *seg) counter(base string) string {
	if s.name != "" {
		return s.name
	}
	return base
}
