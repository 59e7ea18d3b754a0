package leasetest

// The contract of a counter store's clock (segment.Clock), which business
// numbers (reset=) read at each take: counters that restart each period
// of the store's clock, on every store alike.

import (
	"sync"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/numbers"
	"github.com/idgen/idgen/internal/segment"
)

// casePeriods: 3 counters (each on its own store handle) with 2 goroutines
// each draw values of period counters (numbers.Fixed periods) until the
// store's clock has passed one period's end. Every value is checked
// against the store's own clock, read by a fourth handle just before the
// call and just after it: no value of a period that had ended before the
// call, none of one that had not begun when it returned. No (period,
// value) twice, and each period's values begin at start.
func casePeriods(c *check, open CounterOpener, o CounterOptions) {
	per := o.period()
	clk, ok := segment.ClockOf(open(c.T))
	require.True(c, ok, "the store has a clock (segment.ClockOf)")
	var mu sync.Mutex
	seen := map[string]map[int64]bool{}
	var wg sync.WaitGroup
	var cnts []*segment.Counter
	for k := 0; k < 3; k++ {
		cnt, err := segment.NewCounter(open(c.T), segment.Config{Name: "suite_periods", Start: 1, Step: 5, Padding: 50,
			MaxWait: 3 * time.Second, Periods: numbers.Fixed(per), Clock: clock.NewMonoClock()})
		require.NoError(c, err)
		c.Cleanup(func() { _ = cnt.Close() })
		cnts = append(cnts, cnt)
	}
	// The end of the period the counters opened in (a store may make new
	// counters only after a wait: Redis's probation).
	lo0, hi0, err := clk.StoreClock(c.ctx())
	require.NoError(c, err)
	require.LessOrEqual(c, lo0, hi0)
	end := numbers.Fixed(per).At(lo0).End
	for _, cnt := range cnts {
		for g := 0; g < 2; g++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() { _ = recover() }() // a failed assertion ends this goroutine (recorded)
				for {
					before, _, err := clk.StoreClock(c.ctx())
					require.NoError(c, err)
					if before >= end+per.Milliseconds()/2 {
						return
					}
					v, p, err := cnt.NextIn()
					require.NoError(c, err)
					_, after, err := clk.StoreClock(c.ctx())
					require.NoError(c, err)
					mu.Lock()
					ok := c.periodValue(seen, before, after, v, p)
					mu.Unlock()
					if !ok {
						return
					}
					time.Sleep(10 * time.Millisecond)
				}
			}()
		}
	}
	wg.Wait()
	require.GreaterOrEqual(c, len(seen), 2, "the run crossed the end of a period")
	for label, vs := range seen {
		require.True(c, vs[1], "period %s begins at start", label)
	}
}

// periodValue checks value v of period p, drawn between the store's
// clock readings before and after, and records it in seen (the caller
// holds its lock); false when a check failed.
func (c *check) periodValue(seen map[string]map[int64]bool, before, after, v int64, p *numbers.Period) (ok bool) {
	defer func() {
		if recover() != nil { // a failed assertion (recorded)
			ok = false
		}
	}()
	require.Less(c, before, p.End, "value %d of period %s handed out after the store's clock passed its end", v, p.Label)
	require.GreaterOrEqual(c, after, p.Start, "value %d of period %s handed out before the store's clock reached it", v, p.Label)
	if seen[p.Label] == nil {
		seen[p.Label] = map[int64]bool{}
	}
	require.False(c, seen[p.Label][v], "suite_periods@%s value %d twice", p.Label, v)
	seen[p.Label][v] = true
	return true
}
