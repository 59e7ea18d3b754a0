package gen

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
	"github.com/idgen/idgen/internal/lease/leasetest"
)

// Found by the simulator (seed 0xf3a51634e26f0fea): a session counter that
// starts above a record ahead of its clock runs its fence cap one
// max_outage past that record; when the record file is then deleted under
// it (tmpfiles aging the directory), a taker that assumed only its own
// clock + 2·max_outage started inside the holder's ids. The holder now
// announces its reach in the pool marker, and the taker starts above it.
func TestSessionAboveARecordAheadAnnouncesItsReach(t *testing.T) {
	dir := t.TempDir()
	c, err := config.Parse("preset=zk-session layout=time:47,seq:4 worker=lease lease_ttl=1s max_outage=1s max_wait=10s lease_dir=" + dir)
	require.NoError(t, err)
	clk := sleepClock{clock.NewManualClock(nowMs)}
	ahead := int64(5000) // the record, 5 s of ticks ahead of the clock
	plantRecord(t, dir, c, (nowMs+ahead-c.EpochMs)/c.Unit.Milliseconds()<<4)

	start := time.Now() // the marker's until is on the host's clock, which goes on meanwhile
	holder, err := Open(c, Options{Clock: clk})
	require.NoError(t, err)
	defer holder.Close()
	out := make([]int64, 15000) // 16 ids a tick: ~0.94 s more, under its cap
	require.NoError(t, holder.NextBatch(out))
	last := out[len(out)-1]

	st, err := dirstore.Open(dir, true)
	require.NoError(t, err)
	reach := st.PoolReach(t.Context(), poolOf(c))
	passed := time.Since(start) + time.Millisecond // and until is in whole ms
	st.Close()
	require.GreaterOrEqual(t, reach, time.Duration(ahead)*time.Millisecond+c.MaxOutage-passed, "the marker lists how far the holder's cap runs (less the %s that passed)", passed)

	require.NoError(t, os.Remove(filepath.Join(dir, dirstore.FileName(poolOf(c).Name, lease.Pair{}))))
	taker, err := Open(c, Options{Clock: clk})
	require.NoError(t, err)
	defer taker.Close()
	first := next(t, taker)
	require.Greater(t, first, last, "the taker of the deleted record starts above the holder's ids")
}

// Found by the simulator (seed 0xd1007a0f76a8468e): on a store that may
// lose records without a trace (Redis), a session counter above a record
// ahead of its clock ran its fence cap one max_outage past that record;
// Redis restarted empty, and a taker that could only assume the holder's
// clock + max_outage (plus one max_outage for its clock) started inside
// the holder's ids. There the cap stays at the clock + max_outage: the
// holder starts above the record and waits for its clock.
func TestSessionOnALossyStoreCapsAtItsClock(t *testing.T) {
	st := leasetest.New()
	st.Lossy = true
	spec, err := config.Parse("preset=zk-session layout=time:47,seq:4 worker=lease lease_ttl=1s max_outage=1s max_wait=10s")
	require.NoError(t, err)
	clk := sleepClock{clock.NewManualClock(nowMs)}
	ahead := int64(5000) // the record, 5 s of ticks ahead of the clock
	planted := (nowMs + ahead - spec.EpochMs) / spec.Unit.Milliseconds() << 4
	pool := poolOf(spec).Name
	st.SetRecord(pool, lease.Pair{}, lease.Record{IssuedUpTo: planted})

	g, err := Open(spec, Options{Clock: clk, Store: st, Env: stepEnv{}})
	require.NoError(t, err)
	defer g.Close()
	rec, _ := st.Record(pool, lease.Pair{})
	require.Equal(t, planted, rec.IssuedUpTo, "the first fence is the record: nothing past the cap yet")
	first := next(t, g)
	require.Greater(t, first, planted, "above the record")
	rec, _ = st.Record(pool, lease.Pair{})
	require.LessOrEqual(t, rec.IssuedUpTo, capOf(spec, clk, 4), "the fence stays under the clock + max_outage")
	require.GreaterOrEqual(t, clk.Now()/int64(time.Millisecond), nowMs+ahead-spec.MaxOutage.Milliseconds(), "the holder waited for its clock")
}
