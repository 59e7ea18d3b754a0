package metrics

import (
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/gen"
	"github.com/idgen/idgen/internal/lease/leasetest"
)

// tracked opens cfg (with opt) and lists it as the API layers do.
func tracked(t *testing.T, cfg string, opt gen.Options) gen.Generator {
	t.Helper()
	c, err := config.Parse(cfg)
	require.NoError(t, err)
	g, err := gen.Open(c, opt)
	require.NoError(t, err)
	n := gen.Track(g)
	t.Cleanup(func() { gen.Untrack(n); g.Close() })
	return g
}

var sampleLine = regexp.MustCompile(`^(idgen_[a-z_]+)\{name="([^"]*)",generator="(\d+)"[^}]*\} (\S+)$`)

// value is the value of family's one series for generators named name.
func value(t *testing.T, text, family, name string) (float64, bool) {
	t.Helper()
	found, v := false, 0.0
	for _, line := range strings.Split(text, "\n") {
		m := sampleLine.FindStringSubmatch(line)
		if m == nil || m[1] != family || m[2] != name {
			continue
		}
		require.False(t, found, "two %s series for %s", family, name)
		f, err := strconv.ParseFloat(m[4], 64)
		require.NoError(t, err, line)
		found, v = true, f
	}
	return v, found
}

func mustValue(t *testing.T, family, name string) float64 {
	t.Helper()
	text := string(Text())
	v, ok := value(t, text, family, name)
	require.True(t, ok, "%s for %s missing in\n%s", family, name, text)
	return v
}

// TestWellFormed: HELP and TYPE before each family's samples, once; every
// other line a sample with the two labels.
func TestWellFormed(t *testing.T) {
	tracked(t, "preset=snowflake worker=3 name=wf", gen.Options{})
	tracked(t, "preset=uuidv7", gen.Options{})
	seen := map[string]bool{}
	cur := ""
	for _, line := range strings.Split(strings.TrimSuffix(string(Text()), "\n"), "\n") {
		switch {
		case strings.HasPrefix(line, "# HELP "):
			cur = strings.Fields(line)[2]
			require.False(t, seen[cur], "family %s twice", cur)
			seen[cur] = true
		case strings.HasPrefix(line, "# TYPE "):
			f := strings.Fields(line)
			require.Equal(t, cur, f[2])
			require.Contains(t, []string{"counter", "gauge"}, f[3])
			require.Equal(t, f[3] == "counter", strings.HasSuffix(cur, "_total"), line)
		default:
			m := sampleLine.FindStringSubmatch(line)
			require.NotNil(t, m, "not a sample: %q", line)
			require.Equal(t, cur, m[1], "a sample under another family's header")
		}
	}
	for _, f := range families {
		if f.name != "idgen_lease_fence_seconds" && f.name != "idgen_store_clock_skew_seconds" && f.name != "idgen_segment_left" {
			require.True(t, seen[f.name], f.name)
		}
	}
	require.True(t, seen["idgen_generator_info"])
}

// TestLeaseStatesAndFence: HELD with the fence max_outage ahead; RIDING
// while renewals fail, the fence standing still (so its headroom falls);
// LOST once the generator's clock passes it.
func TestLeaseStatesAndFence(t *testing.T) {
	clk := clock.NewManualClock(time.Now().UnixMilli())
	st := leasetest.New()
	g := tracked(t, "preset=snowflake worker=lease lease_ttl=300ms max_outage=20s name=states", gen.Options{Clock: clk, Store: st})
	_, err := g.Next()
	require.NoError(t, err)
	require.Equal(t, 1.0, mustValue(t, "idgen_lease_state", "states"))
	fence := mustValue(t, "idgen_lease_fence_seconds", "states")
	require.InDelta(t, 20, fence, 2)
	st.FailRenewals.Store(true)
	deadline := time.Now().Add(10 * time.Second)
	for mustValue(t, "idgen_lease_state", "states") != 2 {
		require.True(t, time.Now().Before(deadline), "RIDING within 10 s of the failing renewals")
		time.Sleep(20 * time.Millisecond)
	}
	require.Greater(t, mustValue(t, "idgen_lease_renewal_failures_total", "states"), 0.0)
	a := mustValue(t, "idgen_lease_fence_seconds", "states")
	time.Sleep(300 * time.Millisecond)
	require.Less(t, mustValue(t, "idgen_lease_fence_seconds", "states"), a, "the fence stands still: its headroom falls")
	clk.Add(25 * time.Second)
	require.Equal(t, 3.0, mustValue(t, "idgen_lease_state", "states"), "past the fence: LOST")
	st.FailRenewals.Store(false)
}

// TestClockStepAndIssued: ids issued and a step back of a wall clock move
// their counters.
func TestClockStepAndIssued(t *testing.T) {
	clk := clock.NewManualClock(time.Now().UnixMilli())
	g := tracked(t, "preset=snowflake worker=4 clock=wall on_clock_back=tolerate:1s name=stepped", gen.Options{Clock: clk})
	for range 10 {
		_, err := g.Next()
		require.NoError(t, err)
	}
	require.Equal(t, 10.0, mustValue(t, "idgen_ids_issued_total", "stepped"))
	require.Equal(t, 0.0, mustValue(t, "idgen_clock_backs_total", "stepped"))
	clk.Add(-50 * time.Millisecond)
	_, err := g.Next()
	require.NoError(t, err)
	require.Equal(t, 1.0, mustValue(t, "idgen_clock_backs_total", "stepped"))
	require.Equal(t, 11.0, mustValue(t, "idgen_ids_issued_total", "stepped"))
}

// TestBurstWaitsForTicks: 4 ids a tick, 300 calls: some wait.
func TestBurstWaitsForTicks(t *testing.T) {
	g := tracked(t, "layout=time:41,worker:10,seq:2 worker=1 name=burst", gen.Options{})
	for range 300 {
		_, err := g.Next()
		require.NoError(t, err)
	}
	require.Greater(t, mustValue(t, "idgen_tick_waits_total", "burst"), 0.0)
	text := string(Text())
	require.Regexp(t, `idgen_generator_info\{name="burst",generator="\d+",preset="snowflake",store="none",datacenter="",worker="1"\} 1`, text)
}

// A leased layout without a worker field (the layout is the pair) has no
// worker to report: -1 in its stats, an empty label, as a fixed one.
func TestLeasedLayoutWithoutAWorkerReportsNone(t *testing.T) {
	g := tracked(t, "layout=time:41,seq:22 worker=lease name=noworker", gen.Options{Store: leasetest.New()})
	_, err := g.Next()
	require.NoError(t, err)
	s := gen.StatsOf(g)
	require.Equal(t, [2]int64{-1, -1}, [2]int64{s.Datacenter, s.Worker})
	require.Regexp(t, `idgen_generator_info\{name="noworker",generator="\d+",preset="snowflake",store="host",datacenter="",worker=""\} 1`, string(Text()))
}

// A segment counter names its store too: host for the lease directory.
func TestSegmentCounterStoreLabel(t *testing.T) {
	g := tracked(t, "preset=segment name=tickets lease_dir="+t.TempDir(), gen.Options{})
	_, err := g.Next()
	require.NoError(t, err)
	require.Regexp(t, `idgen_generator_info\{name="tickets",generator="\d+",preset="segment",store="host",`, string(Text()))
}

func TestClosedGeneratorGoesAway(t *testing.T) {
	c, err := config.Parse("preset=snowflake worker=6 name=gone")
	require.NoError(t, err)
	g, err := gen.Open(c, gen.Options{})
	require.NoError(t, err)
	n := gen.Track(g)
	_, ok := value(t, string(Text()), "idgen_ids_issued_total", "gone")
	require.True(t, ok)
	gen.Untrack(n)
	g.Close()
	_, ok = value(t, string(Text()), "idgen_ids_issued_total", "gone")
	require.False(t, ok)
}

// BenchmarkText100: one scrape of 100 generators.
func BenchmarkText100(b *testing.B) {
	for i := range 100 {
		c, err := config.Parse("preset=snowflake worker=" + strconv.Itoa(i%32) + " datacenter=" + strconv.Itoa(i/32) + " name=bench")
		require.NoError(b, err)
		g, err := gen.Open(c, gen.Options{})
		require.NoError(b, err)
		n := gen.Track(g)
		b.Cleanup(func() { gen.Untrack(n); g.Close() })
	}
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		_ = Text()
	}
}

// TestDashboardUsesTheFamilies: the Grafana dashboard in docs/ is valid
// JSON and queries only families this package writes.
func TestDashboardUsesTheFamilies(t *testing.T) {
	b, err := os.ReadFile("../../docs/grafana/idgen-dashboard.json")
	require.NoError(t, err)
	var d struct {
		Panels []struct {
			Targets []struct{ Expr string } `json:"targets"`
		} `json:"panels"`
	}
	require.NoError(t, json.Unmarshal(b, &d))
	known := map[string]bool{"idgen_generator_info": true}
	for _, f := range families {
		known[f.name] = true
	}
	used := map[string]bool{}
	for _, p := range d.Panels {
		for _, tg := range p.Targets {
			for _, n := range regexp.MustCompile(`idgen_[a-z_]+`).FindAllString(tg.Expr, -1) {
				require.True(t, known[n], "the dashboard queries %s, which idgen does not write", n)
				used[n] = true
			}
		}
	}
	for _, n := range []string{"idgen_ids_issued_total", "idgen_tick_waits_total", "idgen_clock_backs_total", "idgen_lease_fence_seconds", "idgen_lease_state"} {
		require.True(t, used[n], "the dashboard shows %s", n)
	}
}

// TestScrapesRaceOpensAndCloses: scrapes while generators are opened,
// used and closed on other goroutines (go test -race).
func TestScrapesRaceOpensAndCloses(t *testing.T) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range 50 {
			c, err := config.Parse("preset=snowflake name=churn worker=" + strconv.Itoa(20+i%8))
			if err != nil {
				panic(err)
			}
			g, err := gen.Open(c, gen.Options{})
			if err != nil {
				panic(err)
			}
			n := gen.Track(g)
			_, _ = g.Next()
			gen.Untrack(n)
			g.Close()
		}
	}()
	for {
		select {
		case <-done:
			_, ok := value(t, string(Text()), "idgen_ids_issued_total", "churn")
			require.False(t, ok, "every churned generator is gone")
			return
		default:
			text := string(Text())
			require.True(t, text == "" || strings.HasPrefix(text, "# HELP "), text)
		}
	}
}
