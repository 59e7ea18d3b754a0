//go:build fleet

package fleet

// The MySQL/MariaDB store's expiries, costs, bad sources and outages: the
// server stopped for less than max_outage (nobody stops), for longer (the
// holders stop at their fences and lease again by themselves), killed -9,
// and a 4-pair pool whose holders are killed -9.

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/mysqlstore"
)

func TestMySQLExpiriesAreBucketed(t *testing.T) {
	cfg := "preset=snowflake lease_ttl=2s max_outage=2s worker=" + myStore(t).source(t, 0)
	var hs []*holder
	for i := 0; i < 3; i++ {
		hs = append(hs, startHolder(t, cfg, 1000))
	}
	time.Sleep(1500 * time.Millisecond)
	out := mysql(t, "SELECT TIMESTAMPDIFF(MICROSECOND, '1970-01-01', expires_at) DIV 1000 MOD 500, "+
		"TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), expires_at) DIV 1000 FROM "+testRoot(t)+" WHERE holder IS NOT NULL")
	rows := strings.Split(out, "\n")
	require.Len(t, rows, 3, out)
	for _, r := range rows {
		f := strings.Fields(r)
		require.Equal(t, "0", f[0], "expiries fall on 500 ms bucket boundaries (lease_ttl/4)")
		ahead, err := strconv.ParseInt(f[1], 10, 64)
		require.NoError(t, err)
		require.Greater(t, ahead, int64(0), "expiries are ahead of the database's clock")
		require.LessOrEqual(t, ahead, int64(2500), "at most lease_ttl plus one interval ahead")
	}
	for _, h := range hs {
		h.stop()
	}
	t.Logf("expiries (ms mod 500, ms ahead of the database's clock): %q", rows)
}

// myCounters reads the server's statement counters.
func myCounters(t *testing.T) map[string]int64 {
	out := map[string]int64{}
	for _, line := range strings.Split(mysql(t, "SHOW GLOBAL STATUS WHERE Variable_name IN ('Questions', 'Com_update', 'Com_select', 'Com_insert')"), "\n") {
		f := strings.Fields(line)
		v, err := strconv.ParseInt(f[1], 10, 64)
		require.NoError(t, err)
		out[f[0]] = v
	}
	return out
}

// Figures for the report, no timed assertion: the median time to open the
// store and claim a pair, and what a holder costs the server each second
// by the server's own counters (a renewal is one UPDATE every lease_ttl/3).
func TestMySQLOpenTimeAndRenewalCost(t *testing.T) {
	const ttl = 3 * time.Second
	u, err := config.ParseStoreURL(myURL)
	require.NoError(t, err)
	var took []time.Duration
	for i := 0; i < 15; i++ {
		start := time.Now()
		s, err := mysqlstore.Open(u, testRoot(t), ttl)
		require.NoError(t, err)
		ctx, cancel := bg()
		c, err := s.Acquire(ctx, onePair(ttl))
		require.NoError(t, err)
		took = append(took, time.Since(start))
		require.NoError(t, c.Release(ctx, lease.Record{IssuedUpTo: int64(i)}))
		cancel()
		require.NoError(t, s.Close())
	}
	slices.Sort(took)
	cfg := "preset=snowflake lease_ttl=3s max_outage=10s worker=" + myStore(t).source(t, 0)
	var hs []*holder
	for i := 0; i < 4; i++ {
		h := startHolder(t, cfg, 1000)
		require.Empty(t, h.open)
		hs = append(hs, h)
	}
	time.Sleep(time.Second)
	before, start := myCounters(t), time.Now()
	time.Sleep(9 * time.Second)
	after, secs := myCounters(t), time.Since(start).Seconds()
	for _, h := range hs {
		h.stop()
	}
	per := func(k string) float64 { return float64(after[k]-before[k]) / secs / float64(len(hs)) }
	t.Logf("open and claim a pair (in process, 15 times): median %s, min %s, max %s; each of 4 holders at lease_ttl=3s costs the server %.2f statements/s (%.2f UPDATE, %.2f SELECT, %.2f INSERT; the counters' own reads included)",
		took[len(took)/2].Round(10*time.Microsecond), took[0].Round(10*time.Microsecond), took[len(took)-1].Round(10*time.Microsecond),
		per("Questions"), per("Com_update"), per("Com_select"), per("Com_insert"))
	require.InDelta(t, 1.0, per("Com_update"), 0.5, "one renewal a second (lease_ttl/3) per holder, no more")
}

func TestMySQLBadSourcesFailBoundedAndClearly(t *testing.T) {
	host := myHost()
	tests := []struct {
		name, cfg, code, want string
		within                time.Duration
	}{
		{"malformed", "worker=mysql://127.0.0.1/idgen", "-1", "worker:", time.Second},
		{"no database", "worker=mysql://idgen:s3cret@" + host, "-1", "worker:", time.Second},
		{"unknown parameter", "worker=" + myURL + "?timeout=1s", "-1", "worker:", time.Second},
		{"refused", "lease_ttl=1s worker=mysql://idgen:s3cret@127.0.0.1:1/idgen", "-5", "127.0.0.1:1", 8 * time.Second},
		{"refused says so", "lease_ttl=1s worker=mysql://idgen:s3cret@127.0.0.1:1/idgen", "-5", "connection refused", 8 * time.Second},
		{"wrong password", "worker=mysql://idgen:hunter2@" + host + "/idgen", "-5", "authentication failed for user \"idgen\"", 8 * time.Second},
		{"tls on a server without", "worker=" + myURL + "?tls=true", "-5", "the server offers no TLS", 8 * time.Second},
		{"unknown database", "worker=mariadb://idgen:s3cret@" + host + "/nosuch", "-5", host, 8 * time.Second},
		{"table with a quote", "worker=" + myURL + " lease_table='x`;drop table y;--'", "-1", "lease_table", time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			h := startHolder(t, tt.cfg, 0)
			took := time.Since(start)
			require.True(t, strings.HasPrefix(h.open, "open "+tt.code+" "), "%q", h.open)
			require.Contains(t, h.open, tt.want)
			require.NotContains(t, h.open, "s3cret")
			require.NotContains(t, h.open, "hunter2")
			require.Less(t, took, tt.within)
			t.Logf("%s in %s", h.open, took.Round(time.Millisecond))
		})
	}
	good := startHolder(t, "lease_ttl=2s max_outage=2s worker="+myURL+" lease_table="+testRoot(t), 500)
	require.Empty(t, good.open)
	require.Contains(t, good.cfg, "mysql://idgen@"+host+"/idgen")
	require.NotContains(t, good.cfg, "s3cret", "no password in the configuration string")
	good.stop()
}

// myStop stops the server (kill -9 when crash) and returns the function
// that starts it again (once; at the end of the test at the latest).
func myStop(t *testing.T, crash bool) func() {
	t.Helper()
	how := "stop"
	if crash {
		how = "stop-immediate"
	}
	out, err := script("mariadb.sh", how, myDir())
	require.NoError(t, err, out)
	var once sync.Once
	restart := func() {
		once.Do(func() {
			out, err := script("mariadb.sh", "restart", myDir())
			require.NoError(t, err, out)
		})
	}
	t.Cleanup(restart)
	return restart
}

// TestOutageMySQL runs beside the other outage groups (after every
// sequential test): only it stops the MariaDB server.
func TestOutageMySQL(t *testing.T) {
	t.Parallel()
	my := myStore(t)
	stop := func(t *testing.T, crash bool) func() func() time.Time {
		return func() func() time.Time {
			restart := myStop(t, crash)
			return func() time.Time {
				restart() // mariadb.sh restart returns once the server answers
				return time.Now()
			}
		}
	}
	t.Run("Stopped30sUnderFourHolders", func(t *testing.T) {
		cfg := "preset=snowflake lease_ttl=3s max_outage=40s worker=" + my.source(t, 0)
		storeDownRidesOut(t, "MariaDB", cfg, 30*time.Second, stop(t, false))
	})
	t.Run("StoppedLongerThanMaxOutage", func(t *testing.T) {
		cfg := "preset=snowflake lease_ttl=2s max_outage=3s worker=" + my.source(t, 0)
		storeDownPastTheFence(t, "MariaDB", cfg, 3*time.Second, 8*time.Second, stop(t, false))
	})
	t.Run("Killed9LongerThanMaxOutage", func(t *testing.T) {
		cfg := "preset=snowflake lease_ttl=2s max_outage=3s worker=" + my.source(t, 0)
		storeDownPastTheFence(t, "MariaDB killed -9", cfg, 3*time.Second, 6*time.Second, stop(t, true))
	})
	t.Run("FourPairPoolKill9", func(t *testing.T) {
		cfg := "layout=time:41,worker:2,seq:20 lease_ttl=2s max_outage=6s worker=" + my.source(t, 0)
		kill9FourPairs(t, cfg, 3600*time.Millisecond, func(worker string) int64 {
			v, err := strconv.ParseInt(mysql(t, "SELECT issued_up_to FROM "+testRoot(t)+" WHERE worker = "+worker), 10, 64)
			require.NoError(t, err)
			return v
		})
	})
}
