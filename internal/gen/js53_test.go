package gen

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
)

// js53's ids stay at or below 2^53-1, exact as JavaScript numbers (float64),
// until its time field runs out.
func TestJS53IdsAreExactDoubles(t *testing.T) {
	const maxSafe = int64(1)<<53 - 1
	clk := clock.NewManualClock(nowMs)
	g := open(t, "preset=js53 worker=31", clk)
	last := int64(-1)
	for i := range 5000 {
		if i%100 == 0 { // 128 ids per millisecond
			clk.Add(time.Millisecond)
		}
		id, err := g.Next()
		require.NoError(t, err)
		require.LessOrEqual(t, id, maxSafe)
		require.Greater(t, id, last)
		require.Equal(t, id, int64(float64(id)), "a float64 holds it exactly")
		last = id
	}
	// The last millisecond of the time field, worker and sequence at their
	// maximum, is still safe.
	c, err := config.Parse("preset=js53 worker=31")
	require.NoError(t, err)
	require.EqualValues(t, 53, c.Layout.Bits())
	top, err := g.Compose(Parts{UnixMs: -1, Time: 1<<41 - 1, Epoch: -1, Datacenter: -1, Worker: 31, Sequence: 127})
	require.NoError(t, err)
	require.Equal(t, maxSafe, top)
}
