package zkstore

import (
	"context"
	"time"
)

// StoreNow is the ensemble's clock: the modification time the leader gives a write to <root>/.clock, in whole milliseconds
// (lease.Clocked: segment.ClockOf reads periods by it).
func (c *Counters) StoreNow(ctx context.Context) (time.Time, error) { return c.s.StoreNow(ctx) }
