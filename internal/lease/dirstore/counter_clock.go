package dirstore

import (
	"context"
	"time"
)

// StoreClock is the host's clock (segment.Clock): the host directory's
// counters are this host's, and so are their periods.
func (c *Counters) StoreClock(context.Context) (int64, int64, error) {
	ms := time.Now().UnixMilli()
	return ms, ms + 1, nil
}
