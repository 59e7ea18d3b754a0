package segment

import (
	"math"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

func open(t *testing.T, st Store, cfg Config) *Counter {
	t.Helper()
	if cfg.Name == "" {
		cfg.Name = "orders"
	}
	if cfg.Start == 0 {
		cfg.Start = 1
	}
	if cfg.Step == 0 {
		cfg.Step = 1000
	}
	if cfg.Padding == 0 {
		cfg.Padding = 50
	}
	if cfg.MaxWait == 0 {
		cfg.MaxWait = 2 * time.Second
	}
	c, err := NewCounter(st, cfg)
	require.NoError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	return c
}

func TestValuesUniqueAcrossCountersAndGoroutinesIncreasingPerCaller(t *testing.T) {
	st := NewMemStore()
	var mu sync.Mutex
	var all []int64
	var wg sync.WaitGroup
	for k := 0; k < 4; k++ {
		c := open(t, st, Config{Step: 100 + int64(k)*37})
		for g := 0; g < 4; g++ {
			wg.Add(1)
			go func(batch bool) {
				defer wg.Done()
				var mine []int64
				for len(mine) < 20000 {
					if batch {
						first, got, err := c.Reserve(7)
						require.NoError(t, err)
						for i := int64(0); i < got; i++ {
							mine = append(mine, first+i)
						}
						continue
					}
					v, err := c.Next()
					require.NoError(t, err)
					mine = append(mine, v)
				}
				for i := 1; i < len(mine); i++ {
					require.Greater(t, mine[i], mine[i-1], "one caller's values increase")
				}
				mu.Lock()
				all = append(all, mine...)
				mu.Unlock()
			}(g%2 == 0)
		}
	}
	wg.Wait()
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	for i := 1; i < len(all); i++ {
		require.NotEqual(t, all[i-1], all[i], "duplicate value")
	}
	require.GreaterOrEqual(t, all[0], int64(1))
}

func TestCleanCloseGivesBackTheTailNoGap(t *testing.T) {
	st := NewMemStore()
	a := open(t, st, Config{Step: 1000, Start: 5})
	var last int64
	for i := 0; i < 1700; i++ { // into the second segment, the third prefetched
		v, err := a.Next()
		require.NoError(t, err)
		require.Equal(t, int64(5+i), v, "dense from start")
		last = v
	}
	require.Eventually(t, func() bool { return a.Left() > 1000 }, 5*time.Second, time.Millisecond, "the third segment is prefetched")
	require.NoError(t, a.Close())
	require.Equal(t, last, st.Get("orders"), "current and prefetched segments given back")
	b := open(t, st, Config{Step: 1000, Start: 5})
	v, err := b.Next()
	require.NoError(t, err)
	require.Equal(t, last+1, v, "the next generator goes on without a gap")
	require.NoError(t, b.Close())
	require.Equal(t, last+1, st.Get("orders"))
	_, err = b.Next()
	require.ErrorIs(t, err, errs.ErrClosed)
	require.NoError(t, b.Close(), "closing twice is harmless")
}

func TestGiveBackOnlyWhenNobodyTookSince(t *testing.T) {
	st := NewMemStore()
	a := open(t, st, Config{Step: 1000})
	b := open(t, st, Config{Step: 1000}) // takes 1001..2000 after a's 1..1000
	v, err := a.Next()
	require.NoError(t, err)
	require.Equal(t, int64(1), v)
	require.NoError(t, a.Close())
	require.Equal(t, int64(2000), st.Get("orders"), "b's segment stands after a's: a's rest is lost, never given back under b")
	w, err := b.Next()
	require.NoError(t, err)
	require.Equal(t, int64(1001), w)
	require.NoError(t, b.Close())
	require.Equal(t, int64(1001), st.Get("orders"), "b's unused tail is given back")
}

func TestPrefetchLandsBeforeTheCallerNeedsIt(t *testing.T) {
	st := NewMemStore()
	c := open(t, st, Config{Step: 1000, Padding: 50})
	st.OnTake = func() { time.Sleep(50 * time.Millisecond) } // a slow store
	for i := 0; i < 500; i++ {
		_, err := c.Next()
		require.NoError(t, err)
	}
	require.Equal(t, 1, st.Takes(), "no prefetch while half the segment is left")
	_, err := c.Next() // the 501st: fewer than 50% left
	require.NoError(t, err)
	// The store counts the take before the Counter holds its segment: wait
	// for the segment in hand, not for the store.
	require.Eventually(t, func() bool { return c.Left() == 499+1000 }, 5*time.Second, time.Millisecond)
	require.Equal(t, 2, st.Takes())
	for i := 0; i < 499; i++ {
		start := time.Now()
		_, err := c.Next()
		require.NoError(t, err)
		require.Less(t, time.Since(start), 40*time.Millisecond, "no caller waits for the store")
	}
	require.Equal(t, int64(1000), c.Issued())
}

// frozenEnv reads one instant: a segment's age is what the test sets, not
// what a busy host's scheduler adds (under -race a 1 µs segment read 156 µs).
type frozenEnv struct{ at time.Time }

func (e frozenEnv) Now() time.Time    { return e.at }
func (frozenEnv) Sleep(time.Duration) {}
func (frozenEnv) Manual() bool        { return true }

func TestAutoStepFollowsTheRateWithinBounds(t *testing.T) {
	now := time.Now()
	c := &Counter{cfg: Config{Auto: true, Min: 1000, Max: 10_000_000}, step: 1000, env: frozenEnv{now}}
	fast := &seg{size: 1000, born: now.Add(-time.Microsecond)}
	fast.used.Store(1000)
	require.Equal(t, int64(10_000_000), c.nextStep(fast), "a segment used in 1 µs: the maximum at once")
	c.step = 10_000_000
	slow := &seg{size: 10_000_000, born: now.Add(-10 * time.Second)}
	slow.used.Store(10)
	var steps []int64
	for i := 0; i < 20; i++ {
		c.step = c.nextStep(slow)
		steps = append(steps, c.step)
	}
	require.Equal(t, int64(5_000_000), steps[0], "it shrinks by half at most")
	require.Equal(t, int64(1000), steps[len(steps)-1], "and never below the minimum")
	mid := &seg{size: 1000, born: now.Add(-100 * time.Millisecond)}
	mid.used.Store(1000) // 10,000 values/s: 10,000 last one second
	c.step = 1000
	require.InDelta(t, 10_000, c.nextStep(mid), 2000)
	fixed := &Counter{cfg: Config{Step: 777}, step: 777, env: frozenEnv{now}}
	require.Equal(t, int64(777), fixed.nextStep(fast))
}

// At the cap a segment starts the next fetch as soon as it is current
// (trigger 0), sized from the rate of the whole segment before it; below
// the cap padding decides, as before.
func TestAtTheCapTheFetchStartsAtOnceSizedByTheSegmentBefore(t *testing.T) {
	st := NewMemStore()
	c := open(t, st, Config{Step: 1000, Auto: true, Min: 1000, Max: 4000, Padding: 50})
	require.Equal(t, int64(500), c.pre.trigger, "below the cap: padding's trigger")
	capped, err := c.take(t.Context(), 4000)
	require.NoError(t, err)
	require.Equal(t, int64(0), capped.trigger, "at the cap: the first value starts the fetch")
	require.True(t, capped.early)
	small, err := c.take(t.Context(), 3999)
	require.NoError(t, err)
	require.Equal(t, int64(2000), small.trigger)

	c.mu.Lock()
	defer c.mu.Unlock()
	c.step = 4000
	now := &seg{size: 4000, born: time.Now(), early: true}
	require.Equal(t, int64(4000), c.nextStep(now), "no segment used up yet: the step stays")
	c.lastSize, c.lastLife = 4000, time.Millisecond // 4 M values/s
	require.Equal(t, int64(4000), c.nextStep(now), "the segment before lasted 1 ms: still the cap, though s has just begun")
	c.lastSize, c.lastLife = 4000, 100*time.Second // 40 values/s
	require.Equal(t, int64(2000), c.nextStep(now), "a slow segment before: at most half")
	c.lastSize, c.lastLife = 1000, 100*time.Second
	require.Equal(t, int64(4000), c.nextStep(now), "a smaller segment before (the way up to the cap) says nothing of the rate at the cap")
}

func TestAutoStepGrowsUnderLoad(t *testing.T) {
	st := NewMemStore()
	c := open(t, st, Config{Step: 1000, Auto: true})
	for i := 0; i < 3_000_000; i++ {
		_, err := c.Next()
		require.NoError(t, err)
	}
	require.Greater(t, c.Step(), int64(1000), "a fast caller gets larger segments")
	require.LessOrEqual(t, c.Step(), int64(10_000_000))
}

func TestNearInt64MaxEndsWithOverflowNeverAWrap(t *testing.T) {
	st := NewMemStore()
	st.Set("orders", math.MaxInt64-5)
	c := open(t, st, Config{Step: 1000})
	var got []int64
	for {
		v, err := c.Next()
		if err != nil {
			require.ErrorIs(t, err, errs.ErrTimeOverflow, "%v", err)
			require.Contains(t, err.Error(), "orders")
			break
		}
		require.GreaterOrEqual(t, v, int64(0), "never a wrap")
		got = append(got, v)
	}
	require.Equal(t, []int64{math.MaxInt64 - 4, math.MaxInt64 - 3, math.MaxInt64 - 2, math.MaxInt64 - 1, math.MaxInt64}, got)
	_, _, err := c.Reserve(10)
	require.ErrorIs(t, err, errs.ErrTimeOverflow)

	used := open(t, st, Config{Step: 1000}) // a used-up counter opens
	_, err = used.Next()
	require.ErrorIs(t, err, errs.ErrTimeOverflow)
	require.Equal(t, int64(math.MaxInt64), st.Get("orders"))
}

func TestOutageIssuesWhatIsInHandThenFailsThenRecovers(t *testing.T) {
	st := NewMemStore()
	c := open(t, st, Config{Step: 100, MaxWait: 200 * time.Millisecond})
	var vals []int64
	for i := 0; i < 51; i++ {
		v, err := c.Next()
		require.NoError(t, err)
		vals = append(vals, v)
	}
	require.Eventually(t, func() bool { return c.Left() == 49+100 }, 5*time.Second, time.Millisecond)
	st.SetDown(true)
	for i := 0; i < 149; i++ {
		v, err := c.Next()
		require.NoError(t, err, "the values in hand keep issuing")
		vals = append(vals, v)
	}
	start := time.Now()
	_, err := c.Next()
	require.ErrorIs(t, err, errs.ErrWorker)
	require.Contains(t, err.Error(), "memory store")
	require.GreaterOrEqual(t, time.Since(start), 200*time.Millisecond, "it waited max_wait")
	st.SetDown(false)
	require.Eventually(t, func() bool {
		v, err := c.Next()
		if err == nil {
			vals = append(vals, v)
		}
		return err == nil
	}, 10*time.Second, 10*time.Millisecond, "it recovers by itself")
	for i := 1; i < len(vals); i++ {
		require.Greater(t, vals[i], vals[i-1])
	}
}

func TestStartOnlyBeginsANewCounter(t *testing.T) {
	st := NewMemStore()
	a := open(t, st, Config{Start: 1000})
	v, err := a.Next()
	require.NoError(t, err)
	require.Equal(t, int64(1000), v)
	b := open(t, st, Config{Start: 1})
	w, err := b.Next()
	require.NoError(t, err)
	require.Greater(t, w, v, "start changes nothing on a counter that exists")
}

func TestCloseWaitsForAPrefetchInFlightAndGivesItBack(t *testing.T) {
	st := NewMemStore()
	c := open(t, st, Config{Step: 100})
	st.OnTake = func() { time.Sleep(300 * time.Millisecond) }
	var last int64
	for i := 0; i < 60; i++ { // past the padding point: a prefetch starts
		v, err := c.Next()
		require.NoError(t, err)
		last = v
	}
	require.NoError(t, c.Close())
	require.Equal(t, last, st.Get("orders"), "the segment that landed during the close is given back too")
}

func TestCloseInAnOutageIsBounded(t *testing.T) {
	st := NewMemStore()
	c := open(t, st, Config{Step: 100, MaxWait: 100 * time.Millisecond})
	st.SetDown(true)
	for i := 0; i < 100; i++ {
		_, err := c.Next()
		require.NoError(t, err)
	}
	_, err := c.Next()
	require.ErrorIs(t, err, errs.ErrWorker)
	start := time.Now()
	require.NoError(t, c.Close())
	require.Less(t, time.Since(start), 3*time.Second, "a close never hangs on a store that does not answer")
	_, err = c.Next()
	require.ErrorIs(t, err, errs.ErrClosed)
}
