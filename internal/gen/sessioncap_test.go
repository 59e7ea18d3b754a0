package gen

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/leasetest"
)

// sleepClock is a manual clock whose time passes when a generator sleeps.
type sleepClock struct{ *clock.ManualClock }

func (c sleepClock) Sleep(d time.Duration) { c.Add(d) }

// capOf is the highest session counter value a fence may cover at the
// clock's now: the last value of the tick of now + max_outage (what a
// successor finding the record lost starts above, less one max_outage).
func capOf(spec *config.Spec, clk clock.Clock, seqBits uint) int64 {
	tick := (clk.Now()/int64(time.Millisecond) + spec.MaxOutage.Milliseconds() - spec.EpochMs) / spec.Unit.Milliseconds()
	return (tick+1)<<seqBits - 1
}

// Issue 32, item 4: batches pushed a session counter ahead of its clock,
// and the hot path's Extend wrote a fence past the documented cap (clock +
// max_outage); a taker that found the record lost then started inside the
// holder's range. Every fence written must stay under the cap at the time
// it is written: the generator waits for its clock instead (here a
// simulated one, which passes as it sleeps).
func TestSessionBatchesNeverFencePastTheCap(t *testing.T) {
	st := leasetest.New()
	spec, err := config.Parse("preset=zk-session layout=time:47,seq:4 worker=lease lease_ttl=1s max_outage=1s")
	require.NoError(t, err)
	clk := sleepClock{clock.NewManualClock(time.Now().UnixMilli())}
	g, err := Open(spec, Options{Clock: clk, Store: st, Env: stepEnv{}})
	require.NoError(t, err)
	defer g.Close()
	pool := poolOf(spec).Name
	out := make([]int64, 20000) // 16 ids a tick: each batch runs 1.25 s of ticks ahead
	var last int64
	for i := 0; i < 3; i++ {
		require.NoError(t, g.NextBatch(out))
		require.Greater(t, out[0], last)
		last = out[len(out)-1]
		rec, ok := st.Record(pool, lease.Pair{})
		require.True(t, ok)
		require.LessOrEqual(t, rec.IssuedUpTo, capOf(spec, clk, 4), "batch %d: the fence ran past the clock + max_outage", i)
		require.LessOrEqual(t, last&(1<<51-1), rec.IssuedUpTo, "issued under the fence")
	}
}

// The wait for the clock is bounded by max_wait: past it the call fails
// with ErrWorker saying why, and the generator goes on once its clock has
// caught up.
func TestSessionPastTheCapWaitsAtMostMaxWait(t *testing.T) {
	st := leasetest.New()
	spec, err := config.Parse("preset=zk-session layout=time:47,seq:4 worker=lease lease_ttl=1s max_outage=1s max_wait=100ms")
	require.NoError(t, err)
	clk := clock.NewManualClock(time.Now().UnixMilli()) // no Sleeper: real sleeps, the manual clock stands still
	g, err := Open(spec, Options{Clock: clk, Store: st, Env: stepEnv{}})
	require.NoError(t, err)
	defer g.Close()
	out := make([]int64, 20000) // 1,250 ticks: past the 1,000-tick cap
	err = g.NextBatch(out)
	require.Equal(t, errs.ErrWorker, errs.KindOf(err), "%v", err)
	require.Contains(t, err.Error(), "fence cap")
	clk.Add(2 * time.Second)
	_, err = g.Next()
	require.NoError(t, err)
}

// Found by the simulator's extended world (seed 0xa6cd50cf28408ebb): the
// wait for the clock was bounded per reservation, so one batch over many
// ticks waited max_wait several times. A call waits max_wait in all.
func TestSessionBatchWaitsMaxWaitInAll(t *testing.T) {
	st := leasetest.New()
	spec, err := config.Parse("preset=zk-session layout=time:47,seq:4 worker=lease lease_ttl=1s max_outage=1s max_wait=300ms")
	require.NoError(t, err)
	clk := sleepClock{clock.NewManualClock(time.Now().UnixMilli())}
	g, err := Open(spec, Options{Clock: clk, Store: st, Env: stepEnv{}})
	require.NoError(t, err)
	defer g.Close()
	before := clk.Now()
	out := make([]int64, 40000) // 2,500 ticks: 1.5 s past the cap
	err = g.NextBatch(out)
	require.Equal(t, errs.ErrWorker, errs.KindOf(err), "%v", err)
	require.LessOrEqual(t, time.Duration(clk.Now()-before), 300*time.Millisecond, "waited past max_wait")
}
