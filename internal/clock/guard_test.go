package clock

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A panic in the refresher goroutine must not crash the host, nor leave
// Recent on a reading that stopped moving: the clock parks for good and
// Recent reads the clock itself.
func TestAPanicInTheRefresherLeavesRecentReadingTheClock(t *testing.T) {
	fault := func() { panic("a bug in a refresh") }
	refreshFault.Store(&fault)
	defer refreshFault.Store(nil)
	c := NewMonoClock()
	defer c.Stop()
	c.Recent() // starts the refresher
	require.Eventually(t, func() bool { c.Recent(); return c.cached.Load() == -1 }, 5*time.Second, time.Millisecond, "parked for good")
	a := c.Recent()
	time.Sleep(5 * time.Millisecond)
	b := c.Recent()
	require.GreaterOrEqual(t, b-a, int64(5*time.Millisecond), "Recent moves with the clock")
	require.LessOrEqual(t, b, c.Now())
	require.Equal(t, int64(-1), c.cached.Load(), "never restarted")
}
