//go:build fleet

package fleet

// The etcd store (worker=etcd://…) against a real 3-member cluster with
// authentication on (tests/servers/etcd.sh): it joins every test that
// ranges over stores(), and here: the leader killed under 4 holders, 2 of
// 3 members killed (the holders ride out, then stop at their fence) and
// started again (they recover), a record deleted under its holder, and
// bad sources.

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var etcdEndpoints string // 127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3 (user root, password s3cret)

func init() {
	register(server{
		name: "etcd",
		start: func(dir string) error {
			if out, err := script("etcd.sh", "start", dir); err != nil {
				return fmt.Errorf("%v\n%s", err, out)
			}
			etcdEndpoints = readTrim(filepath.Join(dir, "endpoints"))
			return nil
		},
		stop: func(dir string) { _, _ = script("etcd.sh", "stop", dir) },
		store: func() store {
			return store{name: "etcd", target: etcdEndpoints, source: func(t *testing.T, proxy int) string {
				hosts := etcdEndpoints
				if proxy > 0 {
					hosts = "127.0.0.1:" + strconv.Itoa(proxy)
				}
				return "etcd://root:s3cret@" + hosts + "/" + testRoot(t)
			}}
		},
	})
}

func etcdDir() string { return filepath.Join(work, "etcd") }

func etcdStore(t *testing.T) store {
	for _, s := range stores() {
		if s.name == "etcd" {
			return s
		}
	}
	t.Fatal("no etcd store registered")
	return store{}
}

// etcdSh runs etcd.sh and fails the test if it fails.
func etcdSh(t *testing.T, args ...string) string {
	t.Helper()
	out, err := script("etcd.sh", args...)
	require.NoError(t, err, out)
	return strings.TrimSpace(out)
}

// etcdKill kills members -9; they are started again at cleanup if the
// test did not.
func etcdKill(t *testing.T, members ...string) (restart func()) {
	t.Helper()
	for _, n := range members {
		etcdSh(t, "kill", n, etcdDir())
	}
	var once sync.Once
	restart = func() {
		once.Do(func() {
			for _, n := range members {
				etcdSh(t, "start1", n, etcdDir())
			}
		})
	}
	t.Cleanup(func() {
		restart()
		etcdHealthy(t, members, 60*time.Second)
	})
	return restart
}

// etcdHealthy waits until the members answer with a leader, and says when.
func etcdHealthy(t *testing.T, members []string, within time.Duration) time.Time {
	t.Helper()
	deadline := time.Now().Add(within)
	for _, n := range members {
		for {
			out, _ := script("etcd.sh", "health", n, etcdDir())
			if strings.TrimSpace(out) == "ok" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("etcd member %s is not healthy within %s", n, within)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	return time.Now()
}

func TestEtcdLeaderKilledAndQuorumLost(t *testing.T) {
	const maxOutage = 4 * time.Second
	// lease_ttl 3 s: an etcd lease must outlive an election (timeout 1 s
	// here) and the keep-alive that failed over during it on a loaded host;
	// with 2 s one holder's lease expired while the leader changed.
	cfg := "preset=snowflake lease_ttl=3s max_outage=4s worker=" + etcdStore(t).source(t, 0)
	hs := make([]*watched, 4)
	for i := range hs {
		hs[i] = startWatched(t, cfg, 100)
	}
	time.Sleep(time.Second)

	// The leader killed: the others elect a new one; nobody stops.
	leader := etcdSh(t, "leader", etcdDir())
	killed := nowMs()
	restart := etcdKill(t, leader)
	time.Sleep(3 * ttl)
	newLeader := etcdSh(t, "leader", etcdDir())
	var gaps []int64
	for _, h := range hs {
		assert.Empty(t, h.failures(), "holder %s never stopped while the leader changed", h.pair())
		assert.Positive(t, idsBetween(t, h.holder, killed+3000, nowMs()), "holder %s issues under the new leader", h.pair())
		gaps = append(gaps, maxGap(t, h.holder))
	}
	t.Logf("leader %s killed: member %s leads now; nobody stopped; longest gap between two ids per holder: %v ms", leader, newLeader, gaps)
	restart()
	etcdHealthy(t, []string{leader}, 60*time.Second)
	time.Sleep(2 * time.Second)

	// Two of three killed: no quorum. The holders ride out to their fence
	// (max_outage after their last renewal) and stop there.
	now := etcdSh(t, "leader", etcdDir())
	down := []string{now, remove([]string{"1", "2", "3"}, now)[0]} // the leader and a follower
	lost := nowMs()
	restart = etcdKill(t, down...)
	var riding, fenced, lastIDs []int64
	for _, h := range hs {
		riding = append(riding, h.mustAwait("lease", leaseRiding, lost, 5*time.Second).ms-lost)
		fenced = append(fenced, h.mustAwait("status", -5, lost, maxOutage+5*time.Second).ms-lost)
	}
	time.Sleep(time.Until(time.UnixMilli(lost).Add(maxOutage + 4*time.Second)))
	for _, h := range hs {
		lastIDs = append(lastIDs, lastIDBefore(t, h.holder, nowMs())-lost)
	}
	started := nowMs()
	restart()
	serving := etcdHealthy(t, down, 60*time.Second).UnixMilli()
	var held, back []int64
	for _, h := range hs {
		held = append(held, h.mustAwait("lease", leaseHeld, started, 30*time.Second).ms-started)
		back = append(back, h.mustAwait("status", 0, started, 30*time.Second).ms-started)
	}
	time.Sleep(time.Second)
	for _, h := range hs {
		h.stop()
	}
	n := noDuplicates(t, asHolders(hs)...)
	t.Logf("members %v killed (no quorum) for %d ms, max_outage %s: RIDING after %v ms; IDGEN_EWORKER after %v ms (%s); last ids dated %v ms after the kill",
		down, started-lost, maxOutage, riding, fenced, msgOf(hs[0].failures()[0]), lastIDs)
	t.Logf("members started again: both healthy %d ms after the start began; HELD after %v ms, issuing after %v ms; %d ids, 0 duplicates",
		serving-started, held, back, n)
	for i := range hs {
		assert.LessOrEqual(t, lastIDs[i], maxOutage.Milliseconds()+50, "nothing past the fence")
		assert.GreaterOrEqual(t, fenced[i], maxOutage.Milliseconds()-1000, "rode out to the fence")
		assert.LessOrEqual(t, back[i], int64(20000), "issuing again within 20 s of the restart")
	}
}

func remove(s []string, x string) []string {
	var out []string
	for _, v := range s {
		if v != x {
			out = append(out, v)
		}
	}
	return out
}

func TestEtcdRecordDeletedStopsItsHolderAtOnce(t *testing.T) {
	src := etcdStore(t).source(t, 0)
	cfg := "layout=time:41,seq:22 lease_ttl=2s max_outage=10s worker=" + src
	a := startWatched(t, cfg, 100)
	time.Sleep(time.Second)
	out := etcdSh(t, "ctl", etcdDir(), "get", "--prefix", "--keys-only", "/"+testRoot(t)+"/")
	var record string
	for _, k := range strings.Fields(out) {
		if !strings.HasSuffix(k, ".lock") {
			record = k
		}
	}
	require.NotEmpty(t, record, out)
	deleted := nowMs()
	etcdSh(t, "ctl", etcdDir(), "del", record)
	stopped := a.mustAwait("status", -5, deleted, 3*time.Second)
	require.Contains(t, stopped.line, "removed")
	last := lastIDBefore(t, a.holder, stopped.ms+1)
	back := a.mustAwait("status", 0, stopped.ms, 20*time.Second)
	time.Sleep(300 * time.Millisecond)
	a.stop()
	n := noDuplicates(t, a.holder)
	assert.Less(t, last, deleted+2000, "it stopped at its next renewal, not at its fence 10 s ahead")
	t.Logf("record deleted: the holder stopped %d ms later (%s), its last id dated %+d ms; issuing again %d ms after the stop; %d ids",
		stopped.ms-deleted, msgOf(stopped.line), last-deleted, back.ms-stopped.ms, n)
}

func TestEtcdBadSourcesFailBoundedAndClearly(t *testing.T) {
	root := "/" + testRoot(t)
	tests := []struct {
		name, cfg, code, want string
		within                time.Duration
	}{
		{"malformed", "worker=etcd://", "-1", "worker:", time.Second},
		{"bad port", "worker=etcd://127.0.0.1:99999", "-1", "port", time.Second},
		{"parameters", "worker=etcd://127.0.0.1:2379?x=1", "-1", "worker:", time.Second},
		{"unreachable", "lease_ttl=1s worker=etcd://root:s3cret@127.0.0.1:1,127.0.0.1:2" + root, "-5", "127.0.0.1:1: connection refused; 127.0.0.1:2: connection refused", 8 * time.Second},
		{"wrong password", "worker=etcd://root:hunter2@" + etcdEndpoints + root, "-5", `authentication failed for user "root"`, 8 * time.Second},
		{"no credentials", "worker=etcd://" + etcdEndpoints + root, "-5", "give user:password@", 8 * time.Second},
		{"unknown user", "worker=etcd://nobody:hunter2@" + etcdEndpoints + root, "-5", `authentication failed for user "nobody"`, 8 * time.Second},
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
	// A dead member first: the holder fails over to the others, and its
	// configuration string keeps the user, never the password.
	h := startHolder(t, "lease_ttl=2s max_outage=2s worker=etcd://root:s3cret@127.0.0.1:1,"+etcdEndpoints+root, 500)
	require.Empty(t, h.open)
	require.Contains(t, h.cfg, "etcd://root@127.0.0.1:1,")
	require.NotContains(t, h.cfg, "s3cret")
	time.Sleep(time.Second)
	h.stop()
	require.NotEmpty(t, h.ids())
}

// TestOutageEtcd stops the whole cluster (kill -9 of all three members)
// shorter and longer than max_outage. It runs beside the other outage
// groups (t.Parallel), after every sequential test: it stops its cluster
// for everyone.
func TestOutageEtcd(t *testing.T) {
	t.Parallel()
	src := func(t *testing.T) string { return etcdStore(t).source(t, 0) }
	stop := func(t *testing.T) func() func() time.Time {
		return func() func() time.Time {
			restart := etcdKill(t, "1", "2", "3")
			return func() time.Time {
				restart()
				return etcdHealthy(t, []string{"1", "2", "3"}, 60*time.Second)
			}
		}
	}
	t.Run("Stopped30sUnderFourHolders", func(t *testing.T) {
		cfg := "preset=snowflake lease_ttl=3s max_outage=40s worker=" + src(t)
		storeDownRidesOut(t, "etcd cluster", cfg, 30*time.Second, stop(t))
	})
	t.Run("StoppedLongerThanMaxOutage", func(t *testing.T) {
		cfg := "preset=snowflake lease_ttl=2s max_outage=3s worker=" + src(t)
		storeDownPastTheFence(t, "etcd cluster", cfg, 3*time.Second, 8*time.Second, stop(t))
	})
}
