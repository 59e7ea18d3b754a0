package gen

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
	"github.com/idgen/idgen/internal/lease/leasetest"
)

// A clean close records the last tick and sequence, so a clean restart on
// the same pair goes on in that tick without waiting for the next one: with
// unit=1m, a clock that does not move, and max_wait=100ms, the second open
// succeeds (before, it had to wait up to a minute, so it failed with
// IDGEN_ECLOCK) and its ids follow the first generator's in the same tick.
func TestCleanRestartGoesOnInTheSameTick(t *testing.T) {
	cfg := "layout=time:41,worker:1,seq:21 unit=1m worker=lease max_wait=100ms"
	for name, st := range map[string]func(t *testing.T) lease.Store{
		"memory": func(*testing.T) lease.Store { return leasetest.New() },
		"lease_dir": func(t *testing.T) lease.Store {
			s, err := dirstore.Open(t.TempDir(), true)
			require.NoError(t, err)
			t.Cleanup(func() { s.Close() })
			return s
		},
	} {
		t.Run(name, func(t *testing.T) {
			store := st(t)
			clk := clock.NewManualClock(time.Now().UnixMilli())
			spec, err := config.Parse(cfg)
			require.NoError(t, err)
			var last int64 = -1
			for round := 0; round < 4; round++ {
				g, err := Open(spec, Options{Clock: clk, Store: store})
				if round == 0 && err != nil {
					// A new lease directory: the first open waits once for
					// anything a lost holder may have issued, and records it.
					clk.Add(2 * time.Minute)
					g, err = Open(spec, Options{Clock: clk, Store: store})
				}
				require.NoError(t, err, "round %d: a clean restart in the same tick opens at once", round)
				ids := make([]int64, 5)
				require.NoError(t, g.NextBatch(ids))
				if last >= 0 {
					a, _ := g.Decode(last)
					b, _ := g.Decode(ids[0])
					require.Equal(t, a.Time, b.Time, "the same tick")
					require.Equal(t, a.Worker, b.Worker, "the same pair")
					require.Equal(t, a.Sequence+1, b.Sequence, "the sequence goes on where the last generator stopped")
				}
				last = ids[4]
				require.NoError(t, g.Close())
			}
		})
	}
}

// A killed holder (no clean release) leaves its fence, never a sequence:
// the successor starts above the fence's tick.
func TestOnlyACleanReleaseRecordsASequence(t *testing.T) {
	st := leasetest.New()
	clk := clock.NewManualClock(time.Now().UnixMilli())
	spec, err := config.Parse("layout=time:41,worker:1,seq:21 unit=1s worker=lease max_outage=2s lease_ttl=1s")
	require.NoError(t, err)
	g, err := Open(spec, Options{Clock: clk, Store: st})
	require.NoError(t, err)
	_, err = g.Next()
	require.NoError(t, err)
	rec, ok := st.Record(poolOf(spec).Name, lease.Pair{})
	require.True(t, ok)
	require.Zero(t, rec.Seq, "a fence carries no sequence")
	require.NoError(t, g.Close())
	rec, _ = st.Record(poolOf(spec).Name, lease.Pair{})
	require.Equal(t, int64(1), rec.Seq, "a clean release records the next sequence")
}
