package redisstore

import "context"

// StoreClock is the server's clock (segment.Clock): TIME, asked after the
// take (never the clock a script returned earlier).
func (c *Counters) StoreClock(ctx context.Context) (int64, int64, error) {
	t, err := c.s.serverTime(ctx)
	if err != nil {
		return 0, 0, err
	}
	ms := t.UnixMilli()
	return ms, ms + 1, nil
}
