//go:build fleet

package fleet

// Business numbers (reset=, format=) on every segment store: 16 processes
// on one counter across the ends of periods, their clocks shifted ±2 s.
//
// Periods are shortened through the test hook gen.Options.Periods
// (numbers.Fixed: a period of 2 s of the store's clock in place of a
// day, 4 s on etcd), not by stepping the servers' clocks with a fake-time wrapper:
// etcd is a static Go binary that no LD_PRELOAD wrapper reaches, and a
// wrapper around one server restarted per test would cost the run more
// than the budget. The hook cannot hide a bug: it replaces only the pure
// function from a time of the store's clock to its period (which
// internal/numbers tests for days, months, years, DST days of 23 and 25
// hours and midnights skipped or repeated); the reading of the store's
// clock, the takes from <name>@<period>, the end of a segment's period
// and the give-backs are the code a day runs, and every check below
// reads the store's own clock, never the test's.

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/gen"
	storetable "github.com/idgen/idgen/internal/lease/stores"
	"github.com/idgen/idgen/internal/numbers"
	"github.com/idgen/idgen/internal/segment"
)

// numberPeriod is the length of a test period: 2 s, and 4 s on etcd,
// whose clock is read in whole seconds (the Date of its answers): a take
// in the last second of a period cannot tell it is still in it, so a
// period must be well longer than that second for its first take never
// to fall there (a day is).
func numberPeriod(cfg string) time.Duration {
	if strings.Contains(cfg, "etcd://") {
		return 4 * time.Second
	}
	return 2 * time.Second
}

// The helper process's environment (TestMain runs numberHelper instead
// of the tests when it is set).
const (
	envNumbers = "IDGEN_NUMBERS_HELPER" // the configuration string
	envSkew    = "IDGEN_NUMBERS_SKEW"   // how far its clock is shifted
	envUntil   = "IDGEN_NUMBERS_UNTIL"  // store ms: stop once the store's clock reads it (-N: N ms after opening)
	envOut     = "IDGEN_NUMBERS_OUT"    // where each number goes: "label value before after"
	envCrash   = "IDGEN_NUMBERS_CRASH"  // "1": exit without closing (a crash)
	envLong    = "IDGEN_NUMBERS_LONG"   // "1": periods of an hour (no end within the test)
)

// storeClock opens cfg's counter store to read its clock (the test's
// time bounds are the store's).
func storeClock(cfg string) (segment.Clock, func(), error) {
	c, err := config.Parse(cfg)
	if err != nil {
		return nil, nil, err
	}
	o := storetable.Options{URL: c.Store, Dir: c.LeaseDir, Explicit: c.LeaseDir != "", Table: c.LeaseTable,
		SegmentTable: c.SegmentTable(), TTL: time.Second, Timeout: 10 * time.Second}
	st, err := storetable.OpenCounters(o)
	if err != nil {
		return nil, nil, err
	}
	clk, ok := segment.ClockOf(st)
	if !ok {
		st.Close()
		return nil, nil, fmt.Errorf("%s has no clock", st.Where())
	}
	return clk, func() { st.Close() }, nil
}

// numberHelper is one process: it draws numbers until the store's clock
// reads $IDGEN_NUMBERS_UNTIL, each between two readings of the store's
// clock, and writes them to $IDGEN_NUMBERS_OUT.
func numberHelper() int {
	cfg := os.Getenv(envNumbers)
	skew, _ := time.ParseDuration(os.Getenv(envSkew))
	until, _ := strconv.ParseInt(os.Getenv(envUntil), 10, 64)
	c, err := config.Parse(cfg)
	if err != nil {
		fmt.Println("open", err)
		return 3
	}
	per := numberPeriod(cfg)
	if os.Getenv(envLong) == "1" {
		per = time.Hour
	}
	g, err := gen.Open(c, gen.Options{Clock: shifted{clock.NewMonoClock(), skew}, Periods: numbers.Fixed(per)})
	if err != nil {
		fmt.Println("open", err)
		return 3
	}
	clk, done, err := storeClock(cfg)
	if err != nil {
		fmt.Println("clock", err)
		return 3
	}
	defer done()
	out, err := os.Create(os.Getenv(envOut))
	if err != nil {
		return 4
	}
	w := bufio.NewWriter(out)
	ctx := context.Background()
	if until < 0 { // for -until ms from now (once opened)
		now, _, err := clk.StoreClock(ctx)
		if err != nil {
			return 5
		}
		until = now - until
	}
	for {
		before, _, err := clk.StoreClock(ctx)
		if err != nil || before >= until {
			break
		}
		v, p, err := gen.NextNumber(g)
		_, after, err2 := clk.StoreClock(ctx)
		if err != nil || err2 != nil {
			fmt.Fprintf(w, "error %v %v\n", err, err2)
			continue
		}
		fmt.Fprintf(w, "%s %d %d %d %d %d\n", p.Label, v, before, after, p.Start, p.End)
		time.Sleep(3 * time.Millisecond)
	}
	w.Flush()
	out.Close()
	if os.Getenv(envCrash) == "1" {
		return 0 // no close: the segments in hand are lost
	}
	g.Close()
	return 0
}

// number is one line a helper wrote.
type number struct {
	label                     string
	value                     int64
	before, after, start, end int64
	proc                      int
	skew                      time.Duration
}

// runHelpers runs n helpers on cfg until the store's clock reads until,
// the i-th with its clock shifted by skews[i % len(skews)], and returns
// what they drew.
func runHelpers(t *testing.T, cfg string, n int, skews []time.Duration, until int64, env ...string) []number {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), envNumbers+"="+cfg, envSkew+"="+skews[i%len(skews)].String(),
			envUntil+"="+strconv.FormatInt(until, 10), envOut+"="+filepath.Join(dir, strconv.Itoa(i)))
		cmd.Env = append(cmd.Env, env...)
		cmd.Stderr = os.Stderr
		wg.Add(1)
		go func() {
			defer wg.Done()
			out, err := cmd.Output()
			require.NoError(t, err, "helper %d: %s", i, out)
		}()
	}
	wg.Wait()
	var all []number
	for i := 0; i < n; i++ {
		b, err := os.ReadFile(filepath.Join(dir, strconv.Itoa(i)))
		require.NoError(t, err)
		for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
			if line == "" {
				continue
			}
			require.False(t, strings.HasPrefix(line, "error"), "helper %d: %s", i, line)
			x := number{proc: i, skew: skews[i%len(skews)]}
			_, err := fmt.Sscan(line, &x.label, &x.value, &x.before, &x.after, &x.start, &x.end)
			require.NoError(t, err, line)
			all = append(all, x)
		}
	}
	return all
}

// checkNumbers: no number twice; none of a period handed out after the
// store's clock passed its end or before it began; every period's values
// begin at start; each process's numbers go forward.
func checkNumbers(t *testing.T, all []number) map[string][]int64 {
	seen := map[string]map[int64]int{}
	byLabel := map[string][]int64{}
	last := map[int]number{}
	for _, x := range all {
		require.Less(t, x.before, x.end, "process %d (clock %+v): %s@%d handed out after the store's clock passed the period's end", x.proc, x.skew, x.label, x.value)
		require.GreaterOrEqual(t, x.after, x.start, "process %d (clock %+v): %s@%d handed out before the store's clock reached the period", x.proc, x.skew, x.label, x.value)
		if seen[x.label] == nil {
			seen[x.label] = map[int64]int{}
		}
		other, dup := seen[x.label][x.value]
		require.False(t, dup, "%s value %d handed out twice: by processes %d and %d", x.label, x.value, other, x.proc)
		seen[x.label][x.value] = x.proc
		byLabel[x.label] = append(byLabel[x.label], x.value)
		if l, ok := last[x.proc]; ok {
			require.True(t, x.start > l.start || x.start == l.start && x.value > l.value, "process %d went back: %s %d after %s %d", x.proc, x.label, x.value, l.label, l.value)
		}
		last[x.proc] = x
	}
	for label, vs := range seen {
		_, ok := vs[1]
		require.True(t, ok, "period %s begins at start (1)", label)
	}
	return byLabel
}

// untilPeriods is the store's time after the ends of k periods from now.
func untilPeriods(t *testing.T, cfg string, k int) int64 {
	clk, done, err := storeClock(cfg)
	require.NoError(t, err)
	defer done()
	lo, _, err := clk.StoreClock(context.Background())
	require.NoError(t, err)
	per := numberPeriod(cfg)
	end := numbers.Fixed(per).At(lo).End
	return end + int64(k-1)*per.Milliseconds() + 300
}

// TestNumbersSixteenProcessesAcrossPeriodEnds: 16 processes on one
// counter, their clocks 2 s behind, right and 2 s ahead of the real one,
// draw numbers across two ends of periods of the store's clock.
func TestNumbersSixteenProcessesAcrossPeriodEnds(t *testing.T) {
	skews := []time.Duration{-2 * time.Second, 0, 2 * time.Second}
	for _, s := range segStores() {
		t.Run(s.name, func(t *testing.T) {
			cfg := "preset=segment name=numbers step=5 padding=50 max_wait=5s reset=day format={yyyy}{MM}{dd}-{seq} " + s.keys(t)
			prime := runHelpers(t, cfg, 1, skews[1:2], 0) // makes the table, passes Redis's probation
			require.Empty(t, prime)
			began := time.Now()
			all := runHelpers(t, cfg, 16, skews, untilPeriods(t, cfg, 2))
			byLabel := checkNumbers(t, all)
			require.GreaterOrEqual(t, len(byLabel), 2, "the run crossed the end of a period")
			perSkew := map[time.Duration]map[string]bool{}
			for _, x := range all {
				if perSkew[x.skew] == nil {
					perSkew[x.skew] = map[string]bool{}
				}
				perSkew[x.skew][x.label] = true
			}
			for _, sk := range skews {
				require.GreaterOrEqual(t, len(perSkew[sk]), 2, "processes with clocks %+v off drew numbers in two periods", sk)
			}
			t.Logf("%s: 16 processes (clocks -2 s, 0, +2 s), %d numbers in %d periods in %s, 0 duplicates, each period from 1, none past its end by the store's clock",
				s.name, len(all), len(byLabel), time.Since(began).Round(100*time.Millisecond))
		})
	}
}

// TestNumbersRestartWithinAPeriod: a clean restart goes on where the last
// generator stopped (its tail given back); a crash loses at most the
// segments in hand (the current and the prefetched: 2 steps).
func TestNumbersRestartWithinAPeriod(t *testing.T) {
	const step = 5
	long := envLong + "=1"
	for _, s := range segStores() {
		t.Run(s.name, func(t *testing.T) {
			cfg := fmt.Sprintf("preset=segment name=restart step=%d reset=day format={yyyy}{MM}{dd}-{seq} %s", step, s.keys(t))
			one := []time.Duration{0}
			require.Empty(t, runHelpers(t, cfg, 1, one, 0, long)) // makes the table, passes Redis's probation
			a := runHelpers(t, cfg, 1, one, -200, long)
			b := runHelpers(t, cfg, 1, one, -200, long)
			c := runHelpers(t, cfg, 1, one, -200, long, envCrash+"=1")
			d := runHelpers(t, cfg, 1, one, -200, long)
			checkNumbers(t, append(append(append(a, b...), c...), d...))
			for _, x := range [][]number{a, b, c, d} {
				require.NotEmpty(t, x)
			}
			require.Equal(t, a[0].label, d[len(d)-1].label, "one period")
			require.Equal(t, a[len(a)-1].value+1, b[0].value, "a clean restart goes on without a gap")
			require.Equal(t, b[len(b)-1].value+1, c[0].value, "a clean restart goes on without a gap")
			lost := d[0].value - c[len(c)-1].value - 1
			require.LessOrEqual(t, lost, int64(2*step), "a crash loses at most the segments in hand")
			t.Logf("%s: clean restarts went on at %d and %d; a crash lost %d values (at most 2 segments of %d)", s.name, b[0].value, c[0].value, lost, step)
		})
	}
}
