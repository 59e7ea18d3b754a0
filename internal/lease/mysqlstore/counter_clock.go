package mysqlstore

import (
	"context"
	"time"
)

// StoreNow is the database's clock: UTC_TIMESTAMP(6), read after the take
// (lease.Clocked: segment.ClockOf reads periods by it).
func (c *Counters) StoreNow(ctx context.Context) (time.Time, error) { return c.s.StoreNow(ctx) }
