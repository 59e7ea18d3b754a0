package pgstore

import (
	"context"
	"time"
)

// StoreNow is the database's clock: clock_timestamp(), read after the take on the same connection
// (lease.Clocked: segment.ClockOf reads periods by it).
func (c *Counters) StoreNow(ctx context.Context) (time.Time, error) { return c.s.StoreNow(ctx) }
