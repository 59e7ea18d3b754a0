package gen

import (
	"errors"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

// nowMs is a fixed "present" for manual clocks: 2026-11-22T00:00:00Z.
const nowMs int64 = 1795305600000

// open opens a generator for a test; without a worker key it asks for
// worker=0 (the default, a host lease, is tested on its own).
func open(t *testing.T, cfg string, clk clock.Clock) Generator {
	t.Helper()
	c, err := config.Parse(withWorker(cfg))
	require.NoError(t, err)
	g, err := Open(c, Options{Clock: clk})
	require.NoError(t, err)
	t.Cleanup(func() { g.Close() })
	return g
}

func withWorker(cfg string) string {
	if strings.Contains(cfg, "worker=") {
		return cfg
	}
	return cfg + " worker=0"
}

func next(t *testing.T, g Generator) int64 {
	t.Helper()
	id, err := g.Next()
	require.NoError(t, err)
	require.GreaterOrEqual(t, id, int64(0))
	return id
}

func TestSeed004WorkedExample(t *testing.T) {
	g := open(t, "preset=snowflake", clock.NewManualClock(nowMs))
	id, err := g.Compose(Parts{UnixMs: 1505914988849, Epoch: -1, Datacenter: 17, Worker: 25, Sequence: 0})
	require.NoError(t, err)
	require.Equal(t, int64(910499571847892992), id)
	p, err := g.Decode(910499571847892992)
	require.NoError(t, err)
	require.Equal(t, Parts{ID: 910499571847892992, UnixMs: 1505914988849, Time: 1505914988849 - int64(1288834974657),
		Epoch: -1, Datacenter: 17, Worker: 25, Sequence: 0}, p)
}

func TestPresetsIssueDecodableIncreasingIDs(t *testing.T) {
	tests := []struct {
		config     string
		dc, worker int64
		unitMs     int64
	}{
		{"preset=snowflake datacenter=3 worker=9", 3, 9, 1},
		{"preset=hutool datacenter=31 worker=31", 31, 31, 1},
		{"preset=leaf worker=1023", -1, 1023, 1},
		{"preset=baidu layout=time:29,worker:21,seq:13 epoch=2016-09-20T00:00:00+08:00 worker=77", -1, 77, 1000},
		{"preset=sonyflake worker=65535", -1, 65535, 10},
		{"layout=time:41,seq:22", -1, -1, 1},
		{"layout=time:40,worker:3,seq:20 unit=1s epoch=2020-01-01T00:00:00Z worker=5", -1, 5, 1000},
	}
	for _, tt := range tests {
		t.Run(tt.config, func(t *testing.T) {
			clk := clock.NewManualClock(nowMs)
			g := open(t, tt.config, clk)
			prev := int64(-1)
			for i := 0; i < 200; i++ {
				if i%50 == 49 {
					clk.Add(time.Duration(tt.unitMs) * time.Millisecond)
				}
				id := next(t, g)
				require.Greater(t, id, prev)
				prev = id
				p, err := g.Decode(id)
				require.NoError(t, err)
				require.Equal(t, tt.dc, p.Datacenter)
				require.Equal(t, tt.worker, p.Worker)
				require.Equal(t, int64(-1), p.Epoch)
				wantMs := clk.Now() / int64(time.Millisecond)
				require.LessOrEqual(t, p.UnixMs, wantMs)
				require.Greater(t, p.UnixMs, wantMs-tt.unitMs)
				back, err := g.Compose(p)
				require.NoError(t, err)
				require.Equal(t, id, back)
			}
		})
	}
}

func TestLeafRandomSequenceStart(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := open(t, "preset=leaf worker=1", clk)
	starts := map[int64]bool{}
	for i := 0; i < 200; i++ {
		clk.Add(time.Millisecond)
		p, err := g.Decode(next(t, g))
		require.NoError(t, err)
		require.Less(t, p.Sequence, int64(100))
		starts[p.Sequence] = true
	}
	require.Greater(t, len(starts), 20, "the first sequence of each tick should be random below 100")
}

func TestBaiduDefaultBitsRanOut(t *testing.T) {
	// The real clock: Baidu's 28 bits of seconds since 2016-05-20 +08:00
	// ended on 2024-11-20 21:24:16 +08:00.
	g, err := OpenString("preset=baidu worker=1")
	require.NoError(t, err, "opening still works: decoding old ids is useful")
	defer g.Close()
	_, err = g.Next()
	require.ErrorIs(t, err, errs.ErrTimeOverflow)
	require.Contains(t, err.Error(), "2024-11-20T13:24:16Z")
	require.ErrorIs(t, g.NextBatch(make([]int64, 3)), errs.ErrTimeOverflow)

	// Its last second is still fine, the next one is not.
	last := time.Date(2024, 11, 20, 21, 24, 15, 0, time.FixedZone("+08", 8*3600)).UnixMilli()
	clk := clock.NewManualClock(last)
	g2 := open(t, "preset=baidu worker=1", clk)
	id := next(t, g2)
	p, err := g2.Decode(id)
	require.NoError(t, err)
	require.Equal(t, int64(1<<28-1), p.Time)
	clk.Add(time.Second)
	_, err = g2.Next()
	require.ErrorIs(t, err, errs.ErrTimeOverflow)
}

func TestTimeFieldOverflowNeverWraps(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	// 4 time bits of 1 ms: ticks 0..15 from an epoch 14 ms ago.
	g := open(t, "layout=time:4,seq:2 epoch="+itoa(nowMs-14), clk)
	var ids []int64
	for i := 0; i < 8; i++ { // tick 14: 4 ids, then tick 15 after the clock moves
		if i == 4 {
			clk.Add(time.Millisecond)
		}
		ids = append(ids, next(t, g))
	}
	// Tick 15 is the last: its sequence is used up, and there is no next tick.
	_, err := g.Next()
	require.ErrorIs(t, err, errs.ErrTimeOverflow)
	clk.Add(time.Hour)
	_, err = g.Next()
	require.ErrorIs(t, err, errs.ErrTimeOverflow)
	for i := 1; i < len(ids); i++ {
		require.Greater(t, ids[i], ids[i-1])
	}
	require.Equal(t, int64(63), ids[len(ids)-1], "the largest id of a 6-bit layout")
}

func TestSequenceExhaustionWaitsForNextTick(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := open(t, "layout=time:41,seq:2", clk)
	for i := 0; i < 4; i++ {
		next(t, g)
	}
	done := make(chan int64)
	go func() { id, _ := g.Next(); done <- id }()
	select {
	case <-done:
		t.Fatal("the 5th id of a 4-per-tick layout must wait for the next tick")
	case <-time.After(30 * time.Millisecond):
	}
	clk.Add(time.Millisecond)
	id := <-done
	p, err := g.Decode(id)
	require.NoError(t, err)
	require.Equal(t, int64(0), p.Sequence, "a new tick starts the sequence again; it never wraps within a tick")
	require.Equal(t, nowMs+1, p.UnixMs)
}

func TestBorrowRunsAheadUpToMaxDrift(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := open(t, "layout=time:41,seq:2 on_exhausted=borrow max_drift=2ms", clk)
	var last Parts
	for i := 0; i < 12; i++ { // 4 in the current tick, 8 borrowed from the next two
		p, err := g.Decode(next(t, g))
		require.NoError(t, err)
		last = p
	}
	require.Equal(t, nowMs+2, last.UnixMs)
	done := make(chan struct{})
	go func() { _, _ = g.Next(); close(done) }()
	select {
	case <-done:
		t.Fatal("borrowing must stop at max_drift")
	case <-time.After(30 * time.Millisecond):
	}
	clk.Add(time.Millisecond)
	<-done
}

func TestClockBackPolicies(t *testing.T) {
	type outcome int
	const (
		ok outcome = iota
		refused
	)
	tests := []struct {
		policy string
		back   time.Duration
		want   outcome
	}{
		{"error", time.Millisecond, refused},
		{"error", time.Second, refused},
		{"error", time.Hour, refused},
		{"wait:5ms", time.Millisecond, ok},
		{"wait:5ms", time.Second, refused},
		{"wait:5ms", time.Hour, refused},
		{"tolerate:2s", time.Millisecond, ok},
		{"tolerate:2s", time.Second, ok},
		{"tolerate:2s", time.Hour, refused},
	}
	for _, tt := range tests {
		t.Run(tt.policy+"/"+tt.back.String(), func(t *testing.T) {
			clk := clock.NewManualClock(nowMs)
			g := open(t, "clock=wall on_clock_back="+tt.policy, clk)
			first := next(t, g)
			clk.Add(-tt.back)
			if tt.policy == "wait:5ms" && tt.want == ok {
				// The clock catches up while the generator waits.
				go func() { time.Sleep(2 * time.Millisecond); clk.Add(tt.back) }()
			}
			start := time.Now()
			id, err := g.Next()
			if tt.want == refused {
				require.ErrorIs(t, err, errs.ErrClockBackwards)
				require.Contains(t, err.Error(), "on_clock_back="+tt.policy)
				require.Less(t, time.Since(start), time.Second, "refusing must not wait out the step")
				return
			}
			require.NoError(t, err)
			require.Greater(t, id, first)
			p, _ := g.Decode(id)
			require.Equal(t, nowMs, p.UnixMs, "ids continue on the last tick, never an earlier one")
		})
	}
}

func TestMonotonicClockIgnoresWallSteps(t *testing.T) {
	c := clock.NewMonoClock()
	a := c.Now()
	time.Sleep(time.Millisecond)
	require.Greater(t, c.Now(), a)
	require.InDelta(t, float64(time.Now().UnixNano()), float64(c.Now()), float64(time.Second))
}

func TestConcurrentNextUniqueAndIncreasingPerGoroutine(t *testing.T) {
	for _, config := range []string{"preset=snowflake", "layout=time:41,seq:22", "preset=zk-session worker=3", "preset=zxid", "preset=leaf"} {
		t.Run(config, func(t *testing.T) {
			g := open(t, config, nil)
			const workers, per = 8, 20000
			results := make([][]int64, workers)
			var wg sync.WaitGroup
			for w := 0; w < workers; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					ids := make([]int64, 0, per)
					for i := 0; i < per; i++ {
						if i%1000 == 999 {
							buf := make([]int64, 37)
							if err := g.NextBatch(buf); err != nil {
								panic(err)
							}
							ids = append(ids, buf...)
							continue
						}
						id, err := g.Next()
						if err != nil {
							panic(err)
						}
						ids = append(ids, id)
					}
					results[w] = ids
				}(w)
			}
			wg.Wait()
			seen := make(map[int64]struct{}, workers*per)
			for _, ids := range results {
				for i, id := range ids {
					require.GreaterOrEqual(t, id, int64(0))
					if i > 0 {
						require.Greater(t, id, ids[i-1])
					}
					_, dup := seen[id]
					require.False(t, dup, "duplicate id %d", id)
					seen[id] = struct{}{}
				}
			}
		})
	}
}

func TestBatchIsStrictlyIncreasingAcrossTicks(t *testing.T) {
	g := open(t, "preset=snowflake", nil)
	buf := make([]int64, 20000) // about 5 ticks of 4096
	require.NoError(t, g.NextBatch(buf))
	for i := 1; i < len(buf); i++ {
		require.Greater(t, buf[i], buf[i-1])
	}
	after := next(t, g)
	require.Greater(t, after, buf[len(buf)-1])
	require.NoError(t, g.NextBatch(nil))
}

func TestZkSessionFormula(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := open(t, "preset=zk-session worker=127", clk)
	id := next(t, g)
	// ZooKeeper: (ms << 24) >>> 8 | sid << 56.
	ms := uint64(nowMs)
	want := int64(ms<<24>>8) | 127<<56
	require.Equal(t, want, id)
	for i := int64(1); i < 1<<16+5; i++ { // carries from seq into time
		require.Equal(t, want+i, next(t, g))
	}
	p, err := g.Decode(want)
	require.NoError(t, err)
	require.Equal(t, Parts{ID: want, UnixMs: nowMs, Time: nowMs & (1<<40 - 1), Epoch: -1, Datacenter: -1, Worker: 127, Sequence: 0}, p)
	back, err := g.Compose(Parts{UnixMs: nowMs, Epoch: -1, Datacenter: -1, Worker: 127})
	require.NoError(t, err)
	require.Equal(t, want, back)
	_, err = g.Compose(Parts{UnixMs: nowMs, Worker: 128})
	require.ErrorIs(t, err, errs.ErrRange)
}

func TestZkSessionDecodeTakesTheTimeClosestToNow(t *testing.T) {
	span := int64(1) << 40
	// The 40 low bits of a time just before a wrap, decoded just after it.
	before := 3*span - 5
	clk := clock.NewManualClock(3*span + 5)
	g := open(t, "preset=zk-session worker=1", clk)
	id, err := g.Compose(Parts{Time: before & (span - 1), Epoch: -1, Datacenter: -1, UnixMs: -1, Worker: 1})
	require.NoError(t, err)
	p, err := g.Decode(id)
	require.NoError(t, err)
	require.Equal(t, before, p.UnixMs)
}

func TestZkSessionOverflowStopsBeforeTheWorkerBits(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := open(t, "preset=zk-session layout=worker:8,time:3,seq:2 worker=1", clk)
	var last int64
	for {
		id, err := g.Next()
		if err != nil {
			require.ErrorIs(t, err, errs.ErrTimeOverflow)
			break
		}
		last = id
	}
	p, _ := g.Decode(last)
	require.Equal(t, int64(1), p.Worker)
}

func TestZxidRollsIntoNextEpochNeverWraps(t *testing.T) {
	g := open(t, "preset=zxid layout=epoch:2,counter:3 zxid_epoch=2", nil)
	var got []int64
	for {
		id, err := g.Next()
		if err != nil {
			require.ErrorIs(t, err, errs.ErrTimeOverflow)
			break
		}
		got = append(got, id)
	}
	// Epochs 2 and 3, counters 0..6 each: the all-ones counter 7 is never used.
	require.Len(t, got, 14)
	for i, id := range got {
		p, err := g.Decode(id)
		require.NoError(t, err)
		require.Equal(t, int64(2+i/7), p.Epoch)
		require.Equal(t, int64(i%7), p.Sequence)
		require.Equal(t, int64(-1), p.UnixMs)
	}

	full := open(t, "preset=zxid zxid_epoch=5", nil)
	z, err := full.Compose(Parts{Epoch: 5, Sequence: 0xfffffffe, UnixMs: -1, Time: -1, Worker: -1, Datacenter: -1})
	require.NoError(t, err)
	require.Equal(t, int64(5)<<32|0xfffffffe, z)
	_, err = full.Compose(Parts{Epoch: 1 << 31, Sequence: 0, UnixMs: -1, Time: -1})
	require.ErrorIs(t, err, errs.ErrRange, "bit 63 stays 0")
	require.Equal(t, int64(5)<<32, next(t, full))
}

func TestZxidBatchCrossesEpochs(t *testing.T) {
	g := open(t, "preset=zxid layout=epoch:4,counter:3", nil)
	buf := make([]int64, 20)
	require.NoError(t, g.NextBatch(buf))
	for i := 1; i < len(buf); i++ {
		require.Greater(t, buf[i], buf[i-1])
		require.NotEqual(t, int64(7), buf[i]&7)
	}
}

func TestDecodeComposeRules(t *testing.T) {
	g := open(t, "preset=snowflake", clock.NewManualClock(nowMs))
	_, err := g.Decode(-1)
	require.ErrorIs(t, err, errs.ErrInvalid)
	sf := open(t, "preset=sonyflake", clock.NewManualClock(nowMs))
	_, err = sf.Decode(math.MaxInt64)
	require.NoError(t, err, "every non-negative id fits a 63-bit layout")
	small := open(t, "layout=time:30,seq:10 unit=1s epoch=1700000000000", clock.NewManualClock(nowMs))
	_, err = small.Decode(1 << 45)
	require.ErrorIs(t, err, errs.ErrInvalid, "bits above a 40-bit layout")

	base := Parts{UnixMs: nowMs, Epoch: -1, Datacenter: 1, Worker: 2, Sequence: 3}
	for _, tt := range []struct {
		name string
		edit func(*Parts)
		want error
	}{
		{"worker too big", func(p *Parts) { p.Worker = 32 }, errs.ErrRange},
		{"negative worker", func(p *Parts) { p.Worker = -2 }, errs.ErrRange},
		{"sequence too big", func(p *Parts) { p.Sequence = 4096 }, errs.ErrRange},
		{"before epoch", func(p *Parts) { p.UnixMs = 5 }, errs.ErrRange},
		{"no time at all", func(p *Parts) { p.UnixMs = -1; p.Time = -1 }, errs.ErrInvalid},
		{"raw time too big", func(p *Parts) { p.UnixMs = -1; p.Time = 1 << 41 }, errs.ErrRange},
		{"epoch on a layout without one", func(p *Parts) { p.Epoch = 3 }, errs.ErrInvalid},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := base
			tt.edit(&p)
			_, err := g.Compose(p)
			require.ErrorIs(t, err, tt.want)
		})
	}
	id, err := g.Compose(Parts{UnixMs: -1, Time: 7, Epoch: 0, Datacenter: 0, Worker: 0, Sequence: 1})
	require.NoError(t, err)
	require.Equal(t, int64(7<<22|1), id, "raw time is used when unix_ms is negative; 0 is fine for absent fields")
}

func TestCloseStopsIssuing(t *testing.T) {
	g, err := OpenString("")
	require.NoError(t, err)
	next(t, g)
	require.NoError(t, g.Close())
	require.NoError(t, g.Close(), "closing twice is harmless")
	_, err = g.Next()
	require.ErrorIs(t, err, errs.ErrClosed)
	require.ErrorIs(t, g.NextBatch(make([]int64, 2)), errs.ErrClosed)
}

func TestEpochInTheFutureIsRefused(t *testing.T) {
	c, err := config.Parse("epoch=2200-01-01T00:00:00Z")
	require.NoError(t, err)
	_, err = Open(c, Options{})
	require.ErrorIs(t, err, errs.ErrInvalid)
	require.Contains(t, err.Error(), "epoch")
}

// An epoch ahead of the clock is refused before a store is contacted: a
// lease configuration leaves its lease directory empty.
func TestEpochInTheFutureTouchesNoStore(t *testing.T) {
	dir := t.TempDir()
	files := func() int {
		es, err := os.ReadDir(dir)
		require.NoError(t, err)
		return len(es)
	}
	c, err := config.Parse("epoch=2200-01-01T00:00:00Z worker=lease lease_dir=" + dir)
	require.NoError(t, err)
	_, err = Open(c, Options{})
	require.ErrorIs(t, err, errs.ErrInvalid)
	require.Contains(t, err.Error(), "2200-01-01")
	require.Zero(t, files(), "the refused open wrote to the lease directory")

	c, err = config.Parse("epoch=2020-01-01T00:00:00Z worker=lease lease_dir=" + dir)
	require.NoError(t, err)
	g, err := Open(c, Options{})
	require.NoError(t, err)
	require.NotZero(t, files(), "an open that takes a lease writes its pool")
	require.NoError(t, g.Close())
}

func TestDistinctWorkersNeverCollide(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	seen := map[int64]bool{}
	for w := 0; w < 4; w++ {
		g := open(t, "preset=leaf worker="+itoa(int64(w)), clk)
		for i := 0; i < 3000; i++ {
			id := next(t, g)
			require.False(t, seen[id])
			seen[id] = true
		}
	}
}

func TestDefaultGeneratorAndConfigure(t *testing.T) {
	t.Setenv("IDGEN_CONFIG", "preset=leaf worker=9")
	t.Setenv("XDG_RUNTIME_DIR", t.TempDir())
	defaultGen.g.Store(nil)
	g, err := Default()
	require.NoError(t, err)
	require.Contains(t, g.Config(), "preset=leaf")
	require.Contains(t, g.Config(), "worker=9")
	a, err := g.Next()
	require.NoError(t, err)
	require.Error(t, Configure("preset=nope"))
	g2, _ := Default()
	require.Same(t, g, g2, "a failed configure keeps the old generator")
	require.NoError(t, Configure("preset=snowflake worker=4"))
	var b int64
	require.NoError(t, WithDefault(func(g Generator) (err error) { b, err = g.Next(); return err }))
	p, _ := g2.Decode(a)
	require.Equal(t, int64(9), p.Worker)
	d, _ := Default()
	pb, _ := d.Decode(b)
	require.Equal(t, int64(4), pb.Worker)
	_, err = g.Next()
	require.ErrorIs(t, err, errs.ErrClosed, "configure closes the old default")
	t.Setenv("IDGEN_CONFIG", "bogus=1")
	defaultGen.g.Store(nil)
	_, err = Default()
	require.ErrorIs(t, err, errs.ErrInvalid)
	require.Contains(t, err.Error(), "$IDGEN_CONFIG")
	defaultGen.g.Store(nil)
}

func TestRandomPartsRoundTrip(t *testing.T) {
	for _, preset := range config.Presets() {
		if c, err := config.Parse("preset=" + preset); err != nil || c.Scheme.IsText() {
			continue // text ids have no numeric parts (text_test.go, uuid_test.go, ulid_test.go); segment needs name= (segment_test.go)
		}
		t.Run(preset, func(t *testing.T) {
			g := open(t, "preset="+preset, clock.NewManualClock(nowMs))
			for i := 0; i < 500; i++ {
				id := rand.Int64()
				c, _ := config.Parse("preset=" + preset)
				if b := c.Layout.Bits(); b < 63 {
					id &= 1<<b - 1
				}
				p, err := g.Decode(id)
				require.NoError(t, err)
				if preset == "zk-session" {
					p.UnixMs = -1 // the restored high bits are not part of the id
				}
				back, err := g.Compose(p)
				require.NoError(t, err)
				require.Equal(t, id, back)
			}
		})
	}
}

func itoa(v int64) string {
	s, _ := layout.FormatID(v, 10, false)
	return s
}

var _ = errors.Is

func TestMonoClockRecentIsFreshAndNeverAhead(t *testing.T) {
	c := clock.NewMonoClock()
	defer c.Stop()
	deadline := time.Now().Add(60 * time.Millisecond)
	worst := int64(0)
	for time.Now().Before(deadline) {
		r := c.Recent()
		n := c.Now()
		require.LessOrEqual(t, r, n, "a recent reading is never ahead of the clock")
		worst = max(worst, n-r)
	}
	// About 1 ms on a quiet machine; the bound leaves room for a loaded CI.
	require.Less(t, worst, int64(50*time.Millisecond), "busy: the cached reading stays within a few ms (worst %v)", time.Duration(worst))
	// After a quiet spell the refresher parks; the next reading is the clock's own.
	time.Sleep(100 * time.Millisecond)
	r := c.Recent()
	require.InDelta(t, float64(c.Now()), float64(r), float64(time.Millisecond))
	c.Stop()
	c.Stop()
	require.InDelta(t, float64(c.Now()), float64(c.Recent()), float64(time.Millisecond), "stopped: reads the clock")
}

func TestIdsCarryTheCurrentTime(t *testing.T) {
	g := open(t, "preset=snowflake", nil)
	for i := 0; i < 5; i++ {
		before := time.Now().UnixMilli()
		id := next(t, g)
		after := time.Now().UnixMilli()
		p, err := g.Decode(id)
		require.NoError(t, err)
		// Within the call, give or take the clock cache's few ms; a stale
		// reading from before the idle spell would be 30 ms behind.
		require.GreaterOrEqual(t, p.UnixMs, before-5, "not stale")
		require.LessOrEqual(t, p.UnixMs, after+1)
		time.Sleep(30 * time.Millisecond) // idle: the next id must not carry a stale time
	}
}
