package gen

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
)

// baidu29 is the usual fix of Baidu's layout (29 bits of seconds from
// 2016-09-20), on the cached generator.
const baidu29 = "preset=baidu-cached layout=time:29,worker:21,seq:13 epoch=2016-09-20T00:00:00+08:00"

func TestBaiduCachedWithBaidusDefaultBitsOpensButNeverIssues(t *testing.T) {
	g := open(t, "preset=baidu-cached worker=1", nil)
	_, err := g.Next()
	require.ErrorIs(t, err, errs.ErrTimeOverflow)
	require.ErrorIs(t, g.NextBatch(make([]int64, 10)), errs.ErrTimeOverflow)
	_, err = g.Next()
	require.ErrorIs(t, err, errs.ErrTimeOverflow, "every next, not only the first")
	require.Contains(t, g.Config(), "boost=3 padding=50")
	require.Contains(t, g.Config(), "max_drift=8s", "the default bound: one ring's worth of seconds")
}

// A clock that runs fast: one second of its time every 2 ms, so that a test
// can use up max_drift and wait for the clock many times.
func fastClock(t *testing.T, start int64) *clock.ManualClock {
	clk := clock.NewManualClock(start)
	runFast(t, clk)
	return clk
}

// runFast makes clk run fast from now on.
func runFast(t *testing.T, clk *clock.ManualClock) {
	stop := make(chan struct{})
	go func() {
		tk := time.NewTicker(2 * time.Millisecond)
		defer tk.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
				clk.Add(time.Second)
			}
		}
	}()
	t.Cleanup(func() { close(stop) })
}

func TestBaiduCachedEightThreadsUniqueAndWithinDrift(t *testing.T) {
	// First with the clock standing still: 13,344 ids are more than one
	// second's 8,192, so the ring must borrow a second ahead (well within
	// max_drift, 2 s: a filler chunk that reaches past it waits for the
	// clock, which stands still here); then with a clock that runs fast,
	// using up max_drift and waiting for the clock many times.
	clk := clock.NewManualClock(nowMs)
	g := open(t, baidu29+" worker=7 boost=1 max_drift=2s", clk)
	const threads = 8
	ids := make([][]int64, threads)
	var worst atomic.Int64 // the most an id was dated ahead of the clock, ms
	issue := func(per int) {
		var wg sync.WaitGroup
		for w := range threads {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range per {
					var id int64
					var err error
					if i%3 == 0 {
						var b [3]int64
						err = g.NextBatch(b[:])
						id = b[2]
						ids[w] = append(ids[w], b[:2]...)
					} else {
						id, err = g.Next()
					}
					if err != nil {
						panic(err)
					}
					now := clk.Now() / int64(time.Millisecond)
					p, err := g.Decode(id)
					if err != nil {
						panic(err)
					}
					if ahead := p.UnixMs - now; ahead > worst.Load() {
						worst.Store(ahead)
					}
					ids[w] = append(ids[w], id)
				}
			}()
		}
		wg.Wait()
	}
	issue(1000) // 8 x (1000 + 334 x 2) = 13,344 ids
	require.Greater(t, worst.Load(), int64(0), "the ring did borrow a future second")
	runFast(t, clk)
	issue(10000)
	seen := map[int64]bool{}
	for _, list := range ids {
		for i, id := range list {
			require.False(t, seen[id], "duplicate %d", id)
			seen[id] = true
			p, err := g.Decode(id)
			require.NoError(t, err)
			require.Equal(t, int64(7), p.Worker)
			if i > 0 {
				require.Greater(t, id, list[i-1], "each thread sees increasing ids")
			}
		}
	}
	require.LessOrEqual(t, worst.Load(), int64(2000+1000), "dated at most max_drift (2s) + one unit ahead of the clock")
}

func TestBaiduCachedNeverHandsOutStaleIDs(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := open(t, baidu29+" worker=1", clk)
	a, err := g.Next()
	require.NoError(t, err)
	clk.Add(10 * time.Second) // the ring's ids are now dated 2 to 10 s behind
	b, err := g.Next()
	require.NoError(t, err)
	require.Greater(t, b, a)
	p, err := g.Decode(b)
	require.NoError(t, err)
	require.GreaterOrEqual(t, p.UnixMs, nowMs+9000, "an id that waited in the ring is thrown away, not handed out")
	var batch [5]int64
	clk.Add(30 * time.Second)
	require.NoError(t, g.NextBatch(batch[:]))
	p, err = g.Decode(batch[0])
	require.NoError(t, err)
	require.GreaterOrEqual(t, p.UnixMs, nowMs+39000)
}

func TestBaiduCachedRestartNeverReissuesABorrowedSecond(t *testing.T) {
	dir := t.TempDir()
	cfg := "preset=baidu-cached layout=time:30,seq:13 epoch=2016-09-20T00:00:00+08:00 worker=lease lease_dir=" + dir + " max_drift=2s boost=1"
	c, err := config.Parse(cfg)
	require.NoError(t, err)
	a, err := Open(c, Options{})
	require.NoError(t, err)
	var burst [20000]int64 // more than a second's 8192: borrows
	require.NoError(t, a.NextBatch(burst[:]))
	last := burst[len(burst)-1]
	pa, err := a.Decode(last)
	require.NoError(t, err)
	require.Greater(t, pa.UnixMs, time.Now().UnixMilli(), "the burst ran ahead of the clock")
	reserved := a.LastValue() // the ring holds more, up to this tick
	require.NoError(t, a.Close())

	b, err := Open(c, Options{})
	require.NoError(t, err, "the same single pair, leased again")
	defer b.Close()
	first, err := b.Next()
	require.NoError(t, err)
	pb, err := b.Decode(first)
	require.NoError(t, err)
	require.Greater(t, pb.Time, reserved, "the successor starts past every second the ring had borrowed")
	require.Greater(t, first, last)
}

func TestBaiduCachedClosed(t *testing.T) {
	g := open(t, baidu29+" worker=2", nil)
	_, err := g.Next()
	require.NoError(t, err)
	require.NoError(t, g.Close())
	require.NoError(t, g.Close())
	_, err = g.Next()
	require.ErrorIs(t, err, errs.ErrClosed)
	require.ErrorIs(t, g.NextBatch(make([]int64, 4)), errs.ErrClosed)
}
