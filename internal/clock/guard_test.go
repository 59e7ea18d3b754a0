package clock

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A panic in the refresher goroutine must not crash the host, nor leave
// Recent on a reading that stopped moving: the clock parks for good and
// Recent reads the clock itself.
func TestAPanicInTheRefresherLeavesRecentReadingTheClock(t *testing.T) {
	died := make(chan struct{})
	var once sync.Once
	fault := func() { once.Do(func() { close(died) }); panic("a bug in a refresh") }
	refreshFault.Store(&fault)
	defer refreshFault.Store(nil)
	c := NewMonoClock()
	defer c.Stop()
	c.Recent() // starts the refresher
	// Its reading is -1 before it first runs too (a busy host starts it
	// late): wait for the fault, then for the park that follows it.
	select {
	case <-died:
	case <-time.After(5 * time.Second):
		t.Fatal("the refresher never ran")
	}
	require.Eventually(t, func() bool { return c.cached.Load() == -1 }, 5*time.Second, time.Millisecond, "parked for good")
	a := c.Recent()
	time.Sleep(5 * time.Millisecond)
	b := c.Recent()
	require.GreaterOrEqual(t, b-a, int64(5*time.Millisecond), "Recent moves with the clock")
	require.LessOrEqual(t, b, c.Now())
	require.Equal(t, int64(-1), c.cached.Load(), "never restarted")
}
