package pgstore

import "context"

// StoreClock is the database's clock (segment.Clock): clock_timestamp(),
// read after the take on the same connection.
func (c *Counters) StoreClock(ctx context.Context) (int64, int64, error) {
	t, err := c.s.StoreNow(ctx)
	if err != nil {
		return 0, 0, err
	}
	ms := t.UnixMilli()
	return ms, ms + 1, nil
}
