package segment

// Drawing values: Next and Reserve, one atomic add on the current segment;
// at its padding point they start the prefetch, past its end they advance
// to the next segment (fetch.go).

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
