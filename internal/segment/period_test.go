package segment

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/numbers"
)

// twoClocks is a store's clock and a generator's clock skew apart, both
// moved only by the test (and by a counter's sleeps).
type twoClocks struct {
	store atomic.Int64 // ns
	skew  time.Duration
	gen   *clock.ManualClock
}

func newTwoClocks(startMs int64, skew time.Duration) *twoClocks {
	c := &twoClocks{skew: skew, gen: clock.NewManualClock(0)}
	c.store.Store(startMs * int64(time.Millisecond))
	c.gen.Set(startMs + skew.Milliseconds())
	return c
}

func (c *twoClocks) add(d time.Duration) { c.store.Add(int64(d)); c.gen.Add(d) }
func (c *twoClocks) storeMs() int64      { return c.store.Load() / int64(time.Millisecond) }

// clocksEnv sleeps by moving both clocks. It is manual: a counter fetches
// in the call that runs out, never in a goroutine of its own, so that
// nothing reads the clocks while the test moves them (a background fetch
// racing the test's steps read a window of several of them under -race:
// a late "until", a value seen past its end, a skew off by a step).
type clocksEnv struct{ c *twoClocks }

func (e clocksEnv) Now() time.Time        { return time.Now() }
func (e clocksEnv) Sleep(d time.Duration) { e.c.add(d) }
func (e clocksEnv) Manual() bool          { return true }

const periodLen = 10 * time.Second

func openPeriods(t *testing.T, st *MemStore, clk *twoClocks, step int64) *Counter {
	return open(t, st, Config{Step: step, Padding: 90, Periods: numbers.Fixed(periodLen), Clock: clk.gen, Env: clocksEnv{clk}})
}

// Each period's values begin at start; none is handed out once the
// store's clock reached the period's end, whatever the generator's clock
// says (±2 s off), and the next period's begin at start again.
func TestPeriodsBeginAtStartAndEndWithTheStoresClock(t *testing.T) {
	for _, skew := range []time.Duration{-2 * time.Second, 0, 2 * time.Second} {
		st := NewMemStore()
		clk := newTwoClocks(1_800_000_000_000+500, skew) // 0.5 s into a period
		st.ClockMs = clk.storeMs
		c := openPeriods(t, st, clk, 7)
		per := numbers.Fixed(periodLen).At(clk.storeMs())
		var got []int64
		for clk.storeMs() < per.End+3000 {
			v, p, err := c.NextIn()
			require.NoError(t, err)
			require.LessOrEqual(t, p.Start, clk.storeMs(), "skew %s: a value of a period the store has not begun", skew)
			require.Less(t, clk.storeMs(), p.End, "skew %s: value %d of %s handed out at store time %d, past its end", skew, v, p.Label, clk.storeMs())
			if p.Label == per.Label {
				got = append(got, v)
			} else {
				require.Equal(t, numbers.Fixed(periodLen).At(per.End).Label, p.Label)
				if len(got) > 0 && got[len(got)-1] != -1 {
					require.Equal(t, int64(1), v, "skew %s: the next period begins at start", skew)
					got = append(got, -1)
				}
			}
			clk.add(37 * time.Millisecond)
		}
		for i := 1; i < len(got)-1; i++ {
			require.Equal(t, got[i-1]+1, got[i], "skew %s: no gap within a period", skew)
		}
		ms, ok := c.Skew()
		require.True(t, ok)
		require.InDelta(t, skew.Milliseconds(), ms, 2, "the stats report the skew measured")
		require.NoError(t, c.Close())
	}
}

// A clean close gives the tail back to its period's counter: the next
// generator goes on without a gap.
func TestPeriodCloseGivesTheTailBack(t *testing.T) {
	st := NewMemStore()
	clk := newTwoClocks(1_800_000_000_000+500, time.Second)
	st.ClockMs = clk.storeMs
	c := openPeriods(t, st, clk, 100)
	for i := 0; i < 5; i++ {
		_, _, err := c.NextIn()
		require.NoError(t, err)
	}
	require.NoError(t, c.Close())
	d := openPeriods(t, st, clk, 100)
	v, _, err := d.NextIn()
	require.NoError(t, err)
	require.Equal(t, int64(6), v)
}

// Takes racing across the end of a period from several counters (and
// goroutines each): no value twice, each period from start with no hole
// but at its very end, nothing past the end.
func TestPeriodsRaceAcrossTheEnd(t *testing.T) {
	st := NewMemStore()
	clk := newTwoClocks(1_800_000_000_000+9_000, 0) // 1 s before the end
	st.ClockMs = clk.storeMs
	var mu sync.Mutex
	seen := map[string]map[int64]bool{}
	var wg sync.WaitGroup
	for k := 0; k < 4; k++ {
		c := openPeriods(t, st, clk, 5)
		for g := 0; g < 3; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := 0; i < 300; i++ {
					v, p, err := c.NextIn()
					if err != nil {
						require.ErrorIs(t, err, errs.ErrWorker)
						continue
					}
					now := clk.storeMs()
					mu.Lock()
					require.Less(t, p.Start-1, now)
					if seen[p.Label] == nil {
						seen[p.Label] = map[int64]bool{}
					}
					require.False(t, seen[p.Label][v], "%s %d twice", p.Label, v)
					seen[p.Label][v] = true
					mu.Unlock()
					clk.add(time.Millisecond)
				}
			}()
		}
	}
	wg.Wait()
	require.Len(t, seen, 2, "the run crossed one end")
	for label, vs := range seen {
		require.True(t, vs[1], "%s begins at start", label)
	}
}
