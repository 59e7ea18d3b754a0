package zkstore

import "context"

// StoreClock is the ensemble's clock (segment.Clock): the modification
// time the leader gives a write to <root>/.clock, in whole milliseconds.
func (c *Counters) StoreClock(ctx context.Context) (int64, int64, error) {
	t, err := c.s.StoreNow(ctx)
	if err != nil {
		return 0, 0, err
	}
	ms := t.UnixMilli()
	return ms, ms + 1, nil
}
