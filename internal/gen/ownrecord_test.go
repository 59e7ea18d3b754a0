package gen

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/leasetest"
)

// stepEnv is real time with the Keeper's loop run by the test (Step).
type stepEnv struct{}

func (stepEnv) Now() time.Time        { return time.Now() }
func (stepEnv) Sleep(d time.Duration) { time.Sleep(d) }
func (stepEnv) Manual() bool          { return true }

// A holder whose claim lapsed must not take a successor's record for its
// own because it holds the same value. Found by the simulator (a million
// schedules, seed 0xc83e310c46166174): zk-session, whose counter starts
// above a record at once, so two holders that start from one record count
// from one value and compute one fence. A's lock lapses; B takes the pair,
// renews (fence G) and issues; A's renewal of the same G is refused (the
// claim is gone) but was kept as "sent, maybe landed"; B dies; A takes the
// pair again, finds G, took it for its own and went on from its counter,
// below B's ids. Now an answered write is not pending, and the record's
// Holder tells the two apart: A starts above B.
func TestALapsedHolderDoesNotMistakeASuccessorsEqualRecordForItsOwn(t *testing.T) {
	st := leasetest.New()
	spec, err := config.Parse("preset=zk-session layout=time:47,seq:16 worker=lease lease_ttl=1s max_outage=3s")
	require.NoError(t, err)
	pool, pair := poolOf(spec).Name, lease.Pair{}
	st.SetRecord(pool, pair, lease.Record{IssuedUpTo: 1 << 60}) // above both counters: both start at 2^60+1
	clk := clock.NewManualClock(time.Now().UnixMilli())

	a, err := Open(spec, Options{Clock: clk, Store: st, Env: stepEnv{}})
	require.NoError(t, err)
	defer a.Close()
	st.Kick(pool, pair) // A's lock lapses (it was paused)

	b, err := Open(spec, Options{Clock: clk, Store: st, Env: stepEnv{}})
	require.NoError(t, err)
	idsB := make([]int64, 3)
	require.NoError(t, b.NextBatch(idsB)) // renews to fence G first
	st.Kick(pool, pair)                   // B dies (kill -9): its lock goes, its record stays

	k := keeperOf(a)
	k.Step() // A renews to G: refused, the claim is gone
	k.Step() // A takes the pair again, whose record is B's G
	require.EqualValues(t, lease.StateHeld, k.Stats().State, "A holds a pair again")
	id, err := a.Next()
	require.NoError(t, err)
	require.Greater(t, id, idsB[2], "A's next id lies above everything B issued")
}
