package segment

// Drawing values: Next and Reserve, one atomic add on the current segment;
// at its padding point they start the prefetch, past its end they advance
// to the next segment (fetch.go).

import (
	"math"

	"github.com/idgen/idgen/internal/errs"
)

// Next returns the next value.
func (c *Counter) Next() (int64, error) {
	for {
		s := c.cur.Load()
		off := s.used.Add(1) - 1
		if off < s.size {
			if off == s.trigger {
				c.prefetch(s)
			}
			return s.lo + off, nil
		}
		if err := c.advance(s); err != nil {
			return -1, err
		}
	}
}

// Reserve takes up to n values in one step: first .. first+got-1, all
// from one segment (a batch that spans segments calls it again).
func (c *Counter) Reserve(n int64) (first, got int64, err error) {
	for {
		s := c.cur.Load()
		off := s.used.Add(n) - n
		if off < s.size {
			got = min(n, s.size-off)
			if off <= s.trigger && s.trigger < off+got {
				c.prefetch(s)
			}
			return s.lo + off, got, nil
		}
		if err := c.advance(s); err != nil {
			return -1, 0, err
		}
	}
}

// Enough is errs.ErrTimeOverflow, taking nothing, when fewer than n values
// are left before the counter's end at INT64_MAX: those in hand and,
// unless the store said the counter is used up, those above the mark. A
// batch, which is all or nothing (idgen_next_batch), asks it first, so
// that it never takes the last values and then fails: they stay for Next
// and smaller batches. A batch racing other callers for the very last
// values may still fail midway (Forfeit): values lost, never repeated.
func (c *Counter) Enough(n int64) error {
	if s := c.cur.Load(); s.size-min(s.used.Load(), s.size) >= n {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.cur.Load()
	left := s.size - min(s.used.Load(), s.size)
	if c.pre != nil {
		left += c.pre.size
	}
	switch {
	case left >= n, c.ended == nil && math.MaxInt64-c.mark.Load() >= n-left:
		return nil
	case left == 0 && c.ended != nil:
		return c.ended
	}
	return errs.New(errs.ErrTimeOverflow, "segment counter %s: a batch of %d values asks for more than the %d left before INT64_MAX (%d); it took none of them: single calls or smaller batches hand them out",
		c.cfg.Name, n, left, int64(math.MaxInt64))
}

// Unreserve takes back first .. first+n-1, the unused tail of the last
// Reserve, so that the next calls hand them out (no gap): only while no
// value above them was drawn since. It reports whether it did; a tail it
// could not take back stays consumed (Forfeit it).
func (c *Counter) Unreserve(first, n int64) bool {
	if n <= 0 {
		return true
	}
	s := c.cur.Load()
	end := first + n - s.lo
	if first < s.lo || end > s.size {
		return false
	}
	for {
		// used stands at the tail's end, or past the segment's end when
		// the tail reached it (a Reserve adds what it asked, not what it
		// got, and a later draw past the end got no value of this one).
		u := s.used.Load()
		if u != end && (end != s.size || u < s.size || u >= sealed) {
			return false
		}
		if s.used.CompareAndSwap(u, first-s.lo) {
			return true
		}
	}
}
