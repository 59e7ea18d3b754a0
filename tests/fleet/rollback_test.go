//go:build fleet

package fleet

// Real restarts of C processes (build/holder, worker=lease) whose lease
// record was planted an hour ahead of the clock, as after the clock was set
// back: a backwards:2 layout goes on at once with counter 1, 2, 3, then the
// policy decides (error refuses; switch takes another pair). No id of any
// run may be one the planted records allow a predecessor to have issued.

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
)

// plantAhead writes pair 0/0's record an hour ahead of the clock with the
// rollback counter it already has, and returns what a predecessor may have
// issued under it: ticks up to the record, in that era.
func plantAhead(t *testing.T, dir, pool string, c *config.Spec) (upTo, era int64) {
	t.Helper()
	st, err := dirstore.Open(dir, true)
	require.NoError(t, err)
	defer st.Close()
	ctx := context.Background()
	cl, err := st.Acquire(ctx, lease.Request{Pool: lease.Pool{Name: pool, DCs: 1, Workers: 8}, DC: -1, TTL: time.Second})
	require.NoError(t, err)
	require.Equal(t, lease.Pair{}, cl.Pair())
	rec, _ := cl.Predecessor()
	upTo = (time.Now().UnixMilli() + 3600*1000 - c.EpochMs)
	require.NoError(t, cl.Release(ctx, lease.Record{IssuedUpTo: upTo, Backwards: rec.Backwards}))
	return upTo, rec.Backwards
}

// poolIn is the pool name of the one lease file in dir.
func poolIn(t *testing.T, dir string) string {
	ents, err := os.ReadDir(dir)
	require.NoError(t, err)
	for _, e := range ents {
		if name, ok := strings.CutSuffix(e.Name(), ".0.0.lease"); ok {
			return name
		}
	}
	t.Fatalf("no lease file in %s", dir)
	return ""
}

func TestRestartsWithTheClockSetBackBackwardsThenPolicy(t *testing.T) {
	dir := t.TempDir()
	base := "layout=time:41,backwards:2,worker:3,seq:12 worker=lease lease_dir=" + dir // max_wait: the default, which covers a new pair's wait for a lost record (max_outage)
	c, err := config.Parse(base)
	require.NoError(t, err)
	f := func(k layout.FieldKind, id int64) int64 { return c.Layout.Get(id, k) }

	first := startHolder(t, base, 200) // makes the lease file
	require.Empty(t, first.open)
	// The pool's seven other pairs are held meanwhile: a pair that was never
	// used is taken at once (its record cannot be ahead), so the restarts
	// below find 0/0, whose record is ahead, the only free pair.
	others := make([]*holder, 7)
	for i := range others {
		others[i] = startHolder(t, base, 200)
		require.Empty(t, others[i].open)
	}
	time.Sleep(100 * time.Millisecond)
	first.stop()
	pool := poolIn(t, dir)
	holders := []*holder{first}
	type plant struct{ upTo, era int64 }
	var plants []plant
	after := map[*holder]int{first: 0} // how many plants preceded each holder
	for want := int64(1); want <= 3; want++ {
		upTo, era := plantAhead(t, dir, pool, c)
		plants = append(plants, plant{upTo, era})
		start := time.Now()
		h := startHolder(t, base, 200)
		after[h] = len(plants)
		require.Empty(t, h.open)
		require.Less(t, time.Since(start), 5*time.Second, "went on at once, not after an hour")
		require.Equal(t, "0/0", h.pair())
		time.Sleep(200 * time.Millisecond)
		h.stop()
		ids := h.ids()
		require.NotEmpty(t, ids)
		for _, id := range ids {
			require.Equal(t, want, f(layout.FieldBackwards, id), "run %d: counter", want)
		}
		holders = append(holders, h)
	}
	// The counter is used up: the default policy (error) refuses ...
	upTo, era := plantAhead(t, dir, pool, c)
	require.Equal(t, int64(3), era)
	plants = append(plants, plant{upTo, era})
	h := startHolder(t, base, 200)
	require.True(t, strings.HasPrefix(h.open, "open -2 "), "ECLOCK: %q", h.open)
	// ... and switch takes another pair, saying so (the others closed
	// cleanly: their records are behind the clock).
	for _, o := range others {
		o.stop()
		holders = append(holders, o)
	}
	sw := startHolder(t, base+" on_clock_back=switch", 200)
	after[sw] = len(plants)
	require.Empty(t, sw.open)
	// A pair behind the clock is free now, so it is taken first (DESIGN:
	// a free pair whose record is behind the clock is preferred); switch
	// then has nothing to switch from, but the open must not fail on 0/0.
	require.NotEqual(t, "0/0", sw.pair())
	time.Sleep(200 * time.Millisecond)
	sw.stop()
	holders = append(holders, sw)

	total := noDuplicates(t, holders...)
	for _, hh := range holders {
		for _, id := range hh.ids() {
			for _, p := range plants[:after[hh]] {
				clash := f(layout.FieldWorker, id) == 0 && f(layout.FieldTime, id) <= p.upTo && f(layout.FieldBackwards, id) == p.era
				require.False(t, clash, "id %d could be a predecessor's under a planted record", id)
			}
		}
	}
	t.Logf("%d ids over %d runs, 0 duplicates, none in a planted era's range", total, len(holders))
}
