//go:build fleet

package fleet

// The Redis lease store (worker=redis://…): its server registers here, so
// every test over stores() runs on it too; the tests below are Redis's own
// faults: the server killed -9 without persistence and restarted empty
// under live holders (one holder killed just before), FLUSHALL under live
// holders, the server stopped shorter and longer than max_outage, and
// authentication and reachability errors.

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var redisDBs struct {
	sync.Mutex
	byTest map[string]int
}

func redisDir() string { return filepath.Join(work, "redis") }

func init() {
	register(server{
		name: "redis",
		start: func(dir string) error {
			out, err := script("redis.sh", "start", dir)
			if err != nil {
				return fmt.Errorf("%v\n%s", err, out)
			}
			return nil
		},
		stop: func(dir string) { _, _ = script("redis.sh", "stop", dir) },
		store: func() store {
			port := readTrim(filepath.Join(redisDir(), "port"))
			return store{name: "redis", target: "127.0.0.1:" + port, source: func(t *testing.T, proxy int) string {
				return redisURL(t, proxy)
			}}
		},
	})
}

// redisURL is a worker= value with a database of its own for the test.
func redisURL(t *testing.T, proxy int) string {
	port := readTrim(filepath.Join(redisDir(), "port"))
	if proxy > 0 {
		port = strconv.Itoa(proxy)
	}
	return "redis://idgen:s3cret@127.0.0.1:" + port + "/" + strconv.Itoa(redisDB(t))
}

// redisDB is the test's database number (redis.sh starts 4096).
func redisDB(t *testing.T) int {
	redisDBs.Lock()
	defer redisDBs.Unlock()
	if redisDBs.byTest == nil {
		redisDBs.byTest = map[string]int{}
	}
	n, ok := redisDBs.byTest[t.Name()]
	if !ok {
		n = len(redisDBs.byTest) + 1
		redisDBs.byTest[t.Name()] = n
	}
	return n
}

// redisCli runs redis-cli in the test's database.
func redisCli(t *testing.T, args ...string) string {
	t.Helper()
	out, err := script("redis.sh", append([]string{"cli", redisDir(), "-n", strconv.Itoa(redisDB(t))}, args...)...)
	require.NoError(t, err, out)
	return strings.TrimSpace(out)
}

// redisRestart starts the server again (empty) and says when it serves.
func redisRestart(t *testing.T) time.Time {
	out, err := script("redis.sh", "restart", redisDir())
	require.NoError(t, err, out)
	return time.Now()
}

// fourLive opens n holders of cfg and waits until every one is HELD.
func fourLive(t *testing.T, cfg string, n int) []*watched {
	hs := startWatchedAll(t, cfg, n, 300)
	sort.Slice(hs, func(i, j int) bool { return hs[i].pair() < hs[j].pair() })
	time.Sleep(time.Second)
	return hs
}

// lossUnderLiveHolders: three live holders and one killed -9 just before
// the loss fill a 4-pair pool; after the loss a newcomer can only have the
// dead holder's pair, whose record is gone: it must wait past everything
// the dead holder may have issued, while the live holders keep their
// pairs without a pause.
func lossUnderLiveHolders(t *testing.T, what string, lose func() time.Time) {
	cfg := "layout=time:41,worker:2,seq:20 lease_ttl=2s max_outage=3s worker=" + redisURL(t, 0)
	hs := fourLive(t, cfg, 4)
	dead := hs[1]
	dead.signal(syscall.SIGKILL)
	<-dead.exited
	deadIDs := dead.ids()
	require.NotEmpty(t, deadIDs)
	lost := lose() // when the data was lost
	opened := time.Now()
	b := startWatched(t, cfg, 300)
	took := time.Since(opened)
	require.Equal(t, dead.pair(), b.pair(), "the newcomer has the dead holder's pair, the only one free")
	time.Sleep(2 * time.Second)
	live := []*watched{hs[0], hs[2], hs[3]}
	var gaps []int64
	for _, h := range live {
		assert.Equal(t, workerOf(h.pair()), workerOf(h.lastPair()), "the live holder kept its pair")
		assert.Equal(t, "1", leasesTaken(h), "the live holder kept its first lease: its renewal published its fence again")
		h.stop()
		assert.Empty(t, h.failures(), "live holder %s never stopped", h.pair())
		gaps = append(gaps, maxGap(t, h.holder))
	}
	b.stop()
	bIDs := b.ids()
	require.NotEmpty(t, bIDs)
	deadLast, bFirst := unixMs(t, dead.cfg, deadIDs[len(deadIDs)-1]), unixMs(t, b.cfg, bIDs[0])
	require.Greater(t, bFirst, deadLast+3000, "the newcomer waited past the dead holder's lost fence (max_outage 3 s after its last renewal, which came before its last id)")
	n := noDuplicates(t, append(asHolders(live), dead.holder, b.holder)...)
	marker := redisCli(t, "--scan", "--pattern", "idgen:*:pool")
	require.NotEmpty(t, marker)
	lostAt := redisCli(t, "HGET", marker, "lost")
	require.NotEmpty(t, lostAt, "a live holder marked the loss")
	lostMs, _ := strconv.ParseInt(lostAt, 10, 64)
	t.Logf("%s under 3 live holders, one killed -9 just before: loss marked %+d ms after it; live holders never stopped (longest gap %v ms) and kept their pairs; the newcomer opened on the dead holder's pair %s after %s, its first id %+d ms after the dead holder's last; %d ids, 0 duplicates",
		what, lostMs-lost.UnixMilli(), gaps, b.pair(), took.Round(10*time.Millisecond), bFirst-deadLast, n)
	for i, g := range gaps {
		assert.LessOrEqual(t, g, int64(1000), "live holder %d never paused", i)
	}
}

// workerOf is the worker of a pair "D/W" (a lease line says -1 for a
// layout without a datacenter field, the configuration string 0).
func workerOf(pair string) string { return pair[strings.LastIndexByte(pair, '/')+1:] }

// leasesTaken is the leases_taken of a holder's latest lease line.
func leasesTaken(w *watched) string {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := len(w.evs) - 1; i >= 0; i-- {
		if w.evs[i].kind == "lease" {
			return field(w.evs[i].line, "taken")
		}
	}
	return ""
}

func TestOutageRedis(t *testing.T) {
	t.Parallel()
	t.Run("Kill9EmptyRestartUnderLiveHolders", func(t *testing.T) {
		lossUnderLiveHolders(t, "Redis killed -9 and restarted empty", func() time.Time {
			killed := time.Now()
			out, err := script("redis.sh", "kill9", redisDir())
			require.NoError(t, err, out)
			redisRestart(t)
			return killed
		})
	})
	t.Run("FlushAllUnderLiveHolders", func(t *testing.T) {
		lossUnderLiveHolders(t, "FLUSHALL", func() time.Time {
			require.Equal(t, "OK", redisCli(t, "FLUSHALL"))
			return time.Now()
		})
	})
	stop := func(t *testing.T) func() func() time.Time {
		return func() func() time.Time {
			out, err := script("redis.sh", "stop", redisDir())
			require.NoError(t, err, out)
			var once sync.Once
			restart := func() time.Time {
				var at time.Time
				once.Do(func() { at = redisRestart(t) })
				return at
			}
			t.Cleanup(func() { restart() })
			return restart
		}
	}
	t.Run("Stopped10sUnderFourHolders", func(t *testing.T) {
		cfg := "preset=snowflake lease_ttl=3s max_outage=20s worker=" + redisURL(t, 0)
		storeDownRidesOut(t, "Redis (no persistence: back empty)", cfg, 10*time.Second, stop(t))
	})
	t.Run("StoppedLongerThanMaxOutage", func(t *testing.T) {
		cfg := "preset=snowflake lease_ttl=2s max_outage=3s worker=" + redisURL(t, 0)
		storeDownPastTheFence(t, "Redis (no persistence: back empty)", cfg, 3*time.Second, 8*time.Second, stop(t))
	})
}

func TestRedisBadSourcesFailBoundedAndClearly(t *testing.T) {
	port := readTrim(filepath.Join(redisDir(), "port"))
	tests := []struct {
		name, cfg, code, want string
		within                time.Duration
	}{
		{"malformed", "worker=redis://:s3cret@127.0.0.1/x", "-1", "worker:", time.Second},
		{"bad wait", "worker=redis://:s3cret@127.0.0.1:" + port + "?wait=x", "-1", "worker:", time.Second},
		{"unreachable", "lease_ttl=1s worker=redis://:s3cret@127.0.0.1:1", "-5", "127.0.0.1:1", 8 * time.Second},
		{"refused names it", "lease_ttl=1s worker=redis://:s3cret@127.0.0.1:1", "-5", "refused", 8 * time.Second},
		{"wrong password", "worker=redis://idgen:hunter2@127.0.0.1:" + port, "-5", "authentication failed", 8 * time.Second},
		{"wrong default password", "worker=redis://:hunter2@127.0.0.1:" + port, "-5", "authentication failed", 8 * time.Second},
		{"no such database", "worker=redis://idgen:s3cret@127.0.0.1:" + port + "/5000", "-5", "SELECT 5000", 8 * time.Second},
		{"no replica answers wait", "lease_ttl=1s max_outage=1s worker=redis://idgen:s3cret@127.0.0.1:" + port + "/" + strconv.Itoa(redisDB(t)) + "?wait=1", "-5", "replicas", 8 * time.Second},
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
		})
	}
	good := startHolder(t, "lease_ttl=2s max_outage=2s worker="+redisURL(t, 0), 500)
	require.Empty(t, good.open)
	require.NotContains(t, good.cfg, "s3cret", "no password in the configuration string")
	require.Contains(t, good.cfg, "redis://idgen@127.0.0.1:")
	good.stop()
}

func TestRedisTLS(t *testing.T) {
	url := "lease_ttl=1s max_outage=1s worker=rediss://idgen:s3cret@127.0.0.1:" + readTrim(filepath.Join(redisDir(), "tlsport")) + "/" + strconv.Itoa(redisDB(t))
	t.Setenv("SSL_CERT_FILE", filepath.Join(redisDir(), "ca.pem"))
	h := startHolder(t, url, 500)
	require.Empty(t, h.open)
	require.Contains(t, h.cfg, "rediss://idgen@127.0.0.1:", "no password in the configuration string")
	time.Sleep(1500 * time.Millisecond) // renewals over TLS
	h.stop()
	require.Positive(t, noDuplicates(t, h))

	t.Setenv("SSL_CERT_FILE", "/nonexistent/ca.pem") // no root trusts the test CA
	bad := startHolder(t, url, 500)
	require.True(t, strings.HasPrefix(bad.open, "open -5 "), bad.open)
	require.Contains(t, bad.open, "certificate")
	require.Contains(t, bad.open, "127.0.0.1:"+readTrim(filepath.Join(redisDir(), "tlsport")))
	require.NotContains(t, bad.open, "s3cret")
}

// With ?wait=1 a fence counts only once a replica has it: a paused replica
// stops the acknowledgements (the holder rides on its last fence, which
// the replica has), and its return resumes them.
func TestRedisWaitForAReplica(t *testing.T) {
	out, err := script("redis.sh", "replica", redisDir())
	require.NoError(t, err, out)
	t.Cleanup(func() { _, _ = script("redis.sh", "replica-stop", redisDir()) })
	pid, err := strconv.Atoi(readTrim(filepath.Join(redisDir(), "replica", "redis.pid")))
	require.NoError(t, err)
	h := startWatched(t, "preset=snowflake lease_ttl=2s max_outage=4s worker="+redisURL(t, 0)+"?wait=1", 300)
	time.Sleep(time.Second)
	require.NoError(t, syscall.Kill(pid, syscall.SIGSTOP))
	paused := nowMs()
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGCONT) })
	riding := h.mustAwait("lease", leaseRiding, paused, 5*time.Second)
	time.Sleep(time.Until(time.UnixMilli(paused).Add(2500 * time.Millisecond)))
	require.NoError(t, syscall.Kill(pid, syscall.SIGCONT))
	resumed := nowMs()
	held := h.mustAwait("lease", leaseHeld, resumed, 5*time.Second)
	fence, _ := strconv.ParseInt(field(riding.line, "fence"), 10, 64)
	last := lastIDBefore(t, h.holder, resumed)
	time.Sleep(500 * time.Millisecond)
	h.stop()
	assert.Empty(t, h.failures(), "a replica paused for less than max_outage stops nothing")
	require.LessOrEqual(t, last, fence, "nothing issued past the last fence the replica acknowledged")
	n := noDuplicates(t, h.holder)
	t.Logf("?wait=1, replica paused 2.5 s: RIDING %d ms after the pause on the fence the replica had (%+d ms after the pause); HELD %d ms after it resumed; %d ids, 0 duplicates",
		riding.ms-paused, fence-paused, held.ms-resumed, n)
}
