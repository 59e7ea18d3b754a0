package gen

import (
	"sync/atomic"
	"time"
)

// Clock tells the time in nanoseconds since 1970 UTC. Generators read it
// through this interface so tests can replace it.
type Clock interface {
	Now() int64
}

// MonoClock reads the wall clock once, when it is made, and advances that
// reading by the monotonic clock: it never goes back inside a process,
// whatever happens to the system time. This is the default clock.
type MonoClock struct {
	wall  int64
	start time.Time
}

// NewMonoClock anchors a monotonic clock at the current wall time.
func NewMonoClock() *MonoClock {
	now := time.Now()
	return &MonoClock{wall: now.UnixNano(), start: now}
}

// Now is the anchor plus the monotonic time elapsed since it.
func (c *MonoClock) Now() int64 { return c.wall + int64(time.Since(c.start)) }

// WallClock reads the system time on every call (clock=wall). It can go
// back when the system time is stepped; the on_clock_back policy decides.
type WallClock struct{}

// Now is the current system time.
func (WallClock) Now() int64 { return time.Now().UnixNano() }

// ManualClock is a clock for tests: it stands still until moved.
type ManualClock struct{ ns atomic.Int64 }

// NewManualClock starts a manual clock at unix milliseconds ms.
func NewManualClock(ms int64) *ManualClock {
	c := &ManualClock{}
	c.ns.Store(ms * int64(time.Millisecond))
	return c
}

// Now is the clock's current setting.
func (c *ManualClock) Now() int64 { return c.ns.Load() }

// Add moves the clock by d (negative d moves it back).
func (c *ManualClock) Add(d time.Duration) { c.ns.Add(int64(d)) }

// Set puts the clock at unix milliseconds ms.
func (c *ManualClock) Set(ms int64) { c.ns.Store(ms * int64(time.Millisecond)) }
