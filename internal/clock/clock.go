// Package clock tells generators the time: a wall reading advanced by the
// monotonic clock (the default), the raw wall clock (clock=wall), and a
// manual clock for tests. Generators take a Clock as a field, never a
// package variable.
package clock

import (
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// Clock tells the time in nanoseconds since 1970 UTC. Generators read it
// through this interface so tests can replace it.
type Clock interface {
	Now() int64
}

// Sleeper is a clock whose time passes only when asked: a simulated one.
// A generator on it sleeps by calling Sleep, never by spinning.
type Sleeper interface {
	Clock
	Sleep(d time.Duration)
}

// MonoClock reads the wall clock once, when it is made, and advances that
// reading by the monotonic clock: it never goes back inside a process,
// whatever happens to the system time. This is the default clock.
//
// Reading the clock costs ~26 ns here, more than the rest of a generator's
// work, so MonoClock also offers Recent: a reading at most about one
// millisecond old, kept fresh by a goroutine that runs only while the clock
// is being read and parks itself after 20 idle refreshes.
type MonoClock struct {
	wall  int64
	start time.Time

	// cached is the ns since start at the last refresh, an even number,
	// plus 1 once Recent has read it (the refresher parks after 20
	// refreshes nobody read); -1 while parked.
	cached atomic.Int64
	wake   chan struct{}
	stop   chan struct{}
	once   sync.Once
	closed sync.Once
}

// refreshEvery is how often the cached reading is refreshed while busy
// (Go's timers make that about once a millisecond).
const refreshEvery = 500 * time.Microsecond

// NewMonoClock anchors a monotonic clock at the current wall time.
func NewMonoClock() *MonoClock {
	now := time.Now()
	c := &MonoClock{wall: now.UnixNano(), start: now, wake: make(chan struct{}, 1), stop: make(chan struct{})}
	c.cached.Store(-1)
	return c
}

// Now is the anchor plus the monotonic time elapsed since it.
func (c *MonoClock) Now() int64 { return c.wall + int64(time.Since(c.start)) }

// Recent is Now as of the last refresh, at most about a millisecond old
// while the clock is busy; the first call after a quiet spell reads the
// clock itself and restarts the refresher. Recent never exceeds Now.
func (c *MonoClock) Recent() int64 {
	if ns, ok := c.Cached(); ok {
		return ns
	}
	return c.recentSlow()
}

// Cached is Recent's fast path, one load and a test, small enough to
// inline into a generator's hot path: the reading and true while the
// refresher runs and the reading has been marked read; else false, and
// the caller calls Recent.
func (c *MonoClock) Cached() (int64, bool) {
	v := c.cached.Load()
	return c.wall + v - 1, v > 0 && v&1 == 1
}

// recentSlow is Recent when the refresher is parked, or the reading is new
// since its last refresh (then it marks the reading read).
func (c *MonoClock) recentSlow() int64 {
	v := c.cached.Load()
	if v < 0 {
		c.once.Do(func() { go errs.Guard("the clock's refresher", c.refresh, c.refresherDied) })
		select {
		case c.wake <- struct{}{}:
		default:
		}
		return c.Now()
	}
	c.cached.CompareAndSwap(v, v|1) // lost to a refresh: the next call marks it
	return c.wall + v&^1
}

// elapsedEven is the ns since start with the low bit (the read mark) clear.
func (c *MonoClock) elapsedEven() int64 { return int64(time.Since(c.start)) &^ 1 }

// refresherDied parks the clock for good after a panic in its refresher
// (a bug): Recent then reads the clock itself, never a reading that
// stopped moving. Nothing is lost but speed, so nothing is reported.
func (c *MonoClock) refresherDied(error) { c.cached.Store(-1) }

// refreshFault, when set (tests), runs at each refresh: a panic there
// stands for a bug in the refresher.
var refreshFault atomic.Pointer[func()]

func (c *MonoClock) refresh() {
	t := time.NewTicker(refreshEvery)
	defer t.Stop()
	idle := 0
	c.cached.Store(c.elapsedEven())
	for {
		select {
		case <-c.stop:
			c.cached.Store(-1)
			return
		case <-t.C:
		}
		if f := refreshFault.Load(); f != nil {
			(*f)()
		}
		if old := c.cached.Swap(c.elapsedEven()); old > 0 && old&1 == 1 {
			idle = 0
			continue
		}
		if idle++; idle < 20 {
			continue
		}
		c.cached.Store(-1)
		select {
		case <-c.stop:
			return
		case <-c.wake:
			idle = 0
			c.cached.Store(c.elapsedEven())
		}
	}
}

// Stop ends the refresher for good; Recent then reads the clock itself.
func (c *MonoClock) Stop() {
	c.closed.Do(func() {
		c.once.Do(func() {}) // never start it after this
		close(c.stop)
	})
}

// Recent is a clock with a cheap, slightly old reading.
type Recent interface {
	Clock
	Recent() int64
}

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

// FormatMs prints ms since 1970 as RFC 3339 (UTC), for messages; a time
// outside years 0 to 9999 says so, and nothing overflows.
func FormatMs(ms int64) string {
	const maxMs = 253402300799999 // 9999-12-31T23:59:59.999Z
	if ms < 0 || ms > maxMs {
		return strconv.FormatInt(ms, 10) + " ms since 1970 (beyond year 9999)"
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
}
