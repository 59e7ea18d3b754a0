package gen

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/errs"
)

const runsCfg = "layout=time:41,seq:22 worker=0 runs=64"

// With runs, Next hands out the ids of a run reserved in one step: called
// often, the runs grow to the configured length (one reservation per 64
// ids), and every id is larger than the one before.
func TestRunsGrowToTheirLengthAndStayIncreasing(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := open(t, runsCfg, clk)
	rc := g.(*timeGen).runs
	prev := int64(-1)
	for i := 0; i < 1000; i++ {
		id := next(t, g)
		require.Greater(t, id, prev)
		prev = id
	}
	require.Equal(t, 64, rc.k, "called within a run's freshness, runs double up to runs=")
	// One reservation of 64 moved the state word by 64: the ids of a run
	// are consecutive, with no gap while it is used up in time.
	parts, err := g.Decode(prev)
	require.NoError(t, err)
	require.Equal(t, int64(999), parts.Sequence, "no id of a fresh run was dropped")
	require.Equal(t, int64(1000), StatsOf(g).Issued, "stats count ids handed out, not reserved")
}

// A run whose freshness has passed is dropped: its ids are never handed
// out (a gap), the next id is larger than every id of the dropped run, and
// the next run is half as long.
func TestStaleRunsAreDroppedAndShrink(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := open(t, runsCfg, clk)
	rc := g.(*timeGen).runs
	for i := 0; i < 200; i++ {
		next(t, g)
	}
	held := rc.cur.Load()
	require.NotNil(t, held)
	last := held.ids[len(held.ids)-1]
	require.Less(t, held.next.Load(), int64(len(held.ids)), "the run still holds ids")
	k := rc.k
	clk.Add(time.Millisecond) // the run goes stale
	id := next(t, g)
	require.Greater(t, id, last, "no id of the stale run after it")
	require.Equal(t, k/2, rc.k)
	left := int64(len(held.ids)) - held.next.Load()
	require.Equal(t, int64(201), StatsOf(g).Issued)
	require.Equal(t, left, rc.dropped.Load())
	// A clock that steps back below the run's reservation makes it stale too.
	clk.Add(-5 * time.Millisecond)
	cur := rc.cur.Load()
	require.False(t, cur.fresh(clk.Now()))
}

// A batch drops the held run first, and the next Next follows the batch:
// whatever method a caller used last, its ids increase.
func TestRunsNeverFollowABatch(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := open(t, runsCfg, clk)
	for i := 0; i < 100; i++ {
		next(t, g)
	}
	out := make([]int64, 10)
	require.NoError(t, g.NextBatch(out))
	require.Greater(t, next(t, g), out[9])
}

// NextRun hands the whole run to the caller with its freshness left; the
// run after it, and Next, follow it. Without runs, NextRun is not offered.
func TestNextRunHandsTheWholeRun(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := open(t, runsCfg, clk)
	rn := g.(RunNexter)
	require.Equal(t, 64, rn.Longest())
	buf := make([]int64, 1024)
	prev, lens := int64(-1), []int{}
	for i := 0; i < 8; i++ {
		n, fresh, err := rn.NextRun(buf)
		require.NoError(t, err)
		require.Equal(t, RunFreshNs, fresh, "the manual clock stood still")
		for _, id := range buf[:n] {
			require.Greater(t, id, prev)
			prev = id
		}
		lens = append(lens, n)
	}
	require.Equal(t, []int{1, 2, 4, 8, 16, 32, 64, 64}, lens)
	// A short buffer gets a short run: what it cannot take is not reserved
	// (no sequence burnt, nothing dropped).
	rc := g.(*timeGen).runs
	dropped, before := rc.dropped.Load(), StatsOf(g).Issued
	small := make([]int64, 3)
	n, _, err := rn.NextRun(small)
	require.NoError(t, err)
	require.Equal(t, 3, n)
	require.Equal(t, dropped, rc.dropped.Load())
	require.Equal(t, before+3, StatsOf(g).Issued)
	require.Greater(t, small[0], prev)
	after := next(t, g)
	require.Greater(t, after, small[2])
	p1, _ := g.Decode(small[2])
	p2, _ := g.Decode(after)
	require.Equal(t, p1.Sequence+1, p2.Sequence, "the next id follows the short run with no gap")

	plain := open(t, "layout=time:41,seq:22 worker=0", clk)
	require.Equal(t, 1, plain.(RunNexter).Longest())
}

// Many goroutines drawing with Next, NextBatch and NextRun on one
// generator on the real clock: every id is unique and each goroutine's
// ids increase.
func TestRunsConcurrentCallersStayUniqueAndIncreasing(t *testing.T) {
	g := open(t, runsCfg, nil)
	const workers, rounds = 6, 3000
	got := make([][]int64, workers)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			buf := make([]int64, 16)
			for i := 0; i < rounds; i++ {
				switch (i + w) % 10 {
				case 0:
					require.NoError(t, g.NextBatch(buf[:5]))
					got[w] = append(got[w], buf[:5]...)
				case 1:
					n, _, err := g.(RunNexter).NextRun(buf)
					require.NoError(t, err)
					got[w] = append(got[w], buf[:n]...)
				default:
					id, err := g.Next()
					require.NoError(t, err)
					got[w] = append(got[w], id)
				}
			}
		}(w)
	}
	wg.Wait()
	seen := map[int64]bool{}
	for w := range got {
		for i, id := range got[w] {
			require.False(t, seen[id], "id %d issued twice", id)
			seen[id] = true
			if i > 0 {
				require.Greater(t, id, got[w][i-1], "goroutine %d", w)
			}
		}
	}
}

// A closed generator hands out no id of its held run.
func TestRunsStopAtClose(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := open(t, runsCfg, clk)
	for i := 0; i < 50; i++ {
		next(t, g)
	}
	require.NotNil(t, g.(*timeGen).runs.cur.Load())
	require.NoError(t, g.Close())
	_, err := g.Next()
	require.True(t, errors.Is(err, errs.ErrClosed), "got %v", err)
	_, _, err = g.(RunNexter).NextRun(make([]int64, 4))
	require.True(t, errors.Is(err, errs.ErrClosed), "got %v", err)
}
