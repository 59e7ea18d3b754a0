package gen

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/errs"
)

// A replacement of a fixed worker (Configure, Continue) goes on above the
// clock as the generator it replaces opened, even when that one issued
// nothing: ids of the process before (which the clock had passed then)
// lie below it. The simulator found the duplicate (seed
// 0xf381b96bceae6cdc): a restart, then the wall clock stepped back 114 ms
// and a configure, whose generator started from nothing.
func TestReplacementGoesOnAboveTheClockItsPredecessorOpenedAt(t *testing.T) {
	const cfg = "layout=time:41,worker:2,seq:6 worker=1 clock=wall "
	for _, c := range []struct {
		name, policy string
		wantErr      bool
	}{
		{"refused", "on_clock_back=error", true},
		{"waited", "on_clock_back=wait:1s", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			clk := &busyClock{} // a simulated clock: a wait moves it on
			clk.ns.Store(nowMs * int64(time.Millisecond))
			earlier := open(t, cfg+c.policy, clk) // the process before
			last := next(t, earlier)
			earlier.Close()
			clk.Sleep(10 * time.Millisecond)
			prev := open(t, cfg+c.policy, clk) // the restart: issues nothing
			clk.Sleep(-114 * time.Millisecond) // the wall clock steps back
			g := open(t, cfg+c.policy, clk)
			prev.Close()
			Continue(g, prev)
			id, err := g.Next()
			if c.wantErr {
				require.ErrorIs(t, err, errs.ErrClockBackwards)
				return
			}
			require.NoError(t, err)
			require.Greater(t, id, last)
			p, _ := g.Decode(id)
			require.GreaterOrEqual(t, p.UnixMs, nowMs+10, "above the clock as the predecessor opened")
		})
	}
}

// A predecessor that started a new rollback era carries its state, not its
// era-0 opening clock: a new era's ticks do not compare with era 0's.
func TestReplacementAfterANewEraKeepsTheEra(t *testing.T) {
	const cfg = "layout=time:41,backwards:2,worker:2,seq:6 worker=1 clock=wall on_clock_back=error"
	clk := clock.NewManualClock(nowMs)
	prev := open(t, cfg, clk)
	a := next(t, prev)
	clk.Add(-time.Second)
	b := next(t, prev) // a new era
	pa, _ := prev.Decode(a)
	pb, _ := prev.Decode(b)
	require.Less(t, pb.UnixMs, pa.UnixMs)
	require.Equal(t, pa.Epoch+1, pb.Epoch)
	g := open(t, cfg, clk)
	prev.Close()
	Continue(g, prev)
	c := next(t, g)
	pc, _ := g.Decode(c)
	require.Equal(t, pb.Epoch, pc.Epoch, "the replacement goes on in the predecessor's era")
	require.NotEqual(t, b, c)
}
