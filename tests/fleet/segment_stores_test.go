//go:build fleet

package fleet

// Segment counters on MySQL/MariaDB, Redis and etcd (mysqlstore,
// redisstore, etcdstore: counter.go). They join the tests of
// segment_test.go that range over every store; here: each store's
// counters used directly by 16 racing stores in one process, the give-back
// compare-and-set, a counter near INT64_MAX, and the store stopped under
// live generators (Redis through a frozen proxy: stopped, this Redis comes
// back empty, which segment_redis_test.go covers).

import (
	"context"
	"fmt"
	"math"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/etcdstore"
	"github.com/idgen/idgen/internal/lease/mysqlstore"
	"github.com/idgen/idgen/internal/lease/redisstore"
	"github.com/idgen/idgen/internal/segment"
)

// counterStore opens one store of a kind for the test's counters.
type counterStore struct {
	name string
	open func(t *testing.T) segment.Store
}

func storeURL(t *testing.T, raw string) *config.StoreURL {
	u, err := config.ParseStoreURL(raw)
	require.NoError(t, err)
	return u
}

func newCounterStores() []counterStore {
	const timeout = 10 * time.Second
	return []counterStore{
		{"mysql", func(t *testing.T) segment.Store {
			st, err := mysqlstore.OpenCounters(storeURL(t, myURL), testRoot(t)+"_segment", timeout)
			require.NoError(t, err)
			return st
		}},
		{"redis", func(t *testing.T) segment.Store {
			st, err := redisstore.OpenCounters(storeURL(t, redisURL(t, 0)), timeout)
			require.NoError(t, err)
			return st
		}},
		{"etcd", func(t *testing.T) segment.Store {
			st, err := etcdstore.OpenCounters(storeURL(t, "etcd://root:s3cret@"+etcdEndpoints+"/"+testRoot(t)), timeout)
			require.NoError(t, err)
			return st
		}},
	}
}

// 16 stores (16 connections) race 40 takes each on one counter: the
// segments are disjoint and together exactly start .. start+16*40*n-1.
func TestSegmentCountersRaceInProcess(t *testing.T) {
	const racers, takes, n, start = 16, 40, 100, 1000
	for _, cs := range newCounterStores() {
		t.Run(cs.name, func(t *testing.T) {
			sts := make([]segment.Store, racers)
			for i := range sts {
				sts[i] = cs.open(t)
				defer sts[i].Close()
			}
			type seg struct{ lo, hi int64 }
			var mu sync.Mutex
			var segs []seg
			var wg sync.WaitGroup
			began := time.Now()
			for _, st := range sts {
				wg.Add(1)
				go func(st segment.Store) {
					defer wg.Done()
					for k := 0; k < takes; k++ {
						ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
						prev, last, err := st.Take(ctx, "race", start, n, 0)
						cancel()
						if err != nil {
							t.Error(err)
							return
						}
						mu.Lock()
						segs = append(segs, seg{prev + 1, last})
						mu.Unlock()
					}
				}(st)
			}
			wg.Wait()
			took := time.Since(began)
			require.Len(t, segs, racers*takes)
			sort.Slice(segs, func(i, j int) bool { return segs[i].lo < segs[j].lo })
			next := int64(start)
			for _, s := range segs {
				require.Equal(t, next, s.lo, "segments are disjoint and leave no hole")
				require.Equal(t, s.lo+n-1, s.hi)
				next = s.hi + 1
			}
			t.Logf("%s: %d stores x %d takes of %d: %d disjoint segments, values %d..%d, no hole, no overlap; %s (%.0f takes/s, %.2f ms a take on average under the race)",
				cs.name, racers, takes, n, len(segs), start, next-1, took.Round(time.Millisecond),
				float64(len(segs))/took.Seconds(), took.Seconds()*1000*racers/float64(len(segs)))
		})
	}
}

// A give-back lands only while the counter stands at the end of the
// giver's segment; a counter made at INT64_MAX-3 gives 3 values, then
// ErrTimeOverflow, never a wrap.
func TestSegmentCountersGiveBackAndTheEnd(t *testing.T) {
	for _, cs := range newCounterStores() {
		t.Run(cs.name, func(t *testing.T) {
			a, b := cs.open(t), cs.open(t)
			defer a.Close()
			defer b.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			take := func(st segment.Store, name string, start, n int64) (int64, int64) {
				prev, last, err := st.Take(ctx, name, start, n, 0)
				require.NoError(t, err)
				return prev, last
			}
			prev, last := take(a, "gb", 1, 10)
			require.Equal(t, [2]int64{0, 10}, [2]int64{prev, last})
			prev, last = take(b, "gb", 1, 10)
			require.Equal(t, [2]int64{10, 20}, [2]int64{prev, last})
			ok, err := a.GiveBack(ctx, "gb", 10, 4)
			require.NoError(t, err)
			require.False(t, ok, "b took a segment since: a's rest is lost, never given back")
			ok, err = b.GiveBack(ctx, "gb", 20, 15)
			require.NoError(t, err)
			require.True(t, ok)
			prev, last = take(a, "gb", 1, 10)
			require.Equal(t, [2]int64{15, 25}, [2]int64{prev, last}, "the next take goes on where b gave back")

			prev, last = take(a, "end", math.MaxInt64-2, 1000)
			require.Equal(t, [2]int64{math.MaxInt64 - 3, math.MaxInt64}, [2]int64{prev, last}, "cut short at INT64_MAX")
			_, _, err = b.Take(ctx, "end", 1, 1000, 0)
			require.ErrorIs(t, err, errs.ErrTimeOverflow)
			require.Contains(t, err.Error(), "INT64_MAX")
		})
	}
}

// The store stopped under four live generators: they issue what they
// hold, then IDGEN_EWORKER naming the store, then go on when it is back.
func TestSegmentStoreStoppedNewStores(t *testing.T) {
	t.Run("mysql", func(t *testing.T) {
		cfg := "preset=segment name=outage step=2000 max_wait=1s store=" + myStore(t).source(t, 0)
		segOutage(t, cfg, "MySQL", func() func() { return myStop(t, false) })
	})
	t.Run("redis", func(t *testing.T) {
		p := startProxy(t, storeTarget(t, "redis"))
		cfg := "preset=segment name=outage step=2000 max_wait=1s store=" + redisURL(t, p.port)
		segOutage(t, cfg, "Redis", func() func() { p.freeze(); return p.thaw })
	})
	t.Run("etcd", func(t *testing.T) {
		cfg := "preset=segment name=outage step=2000 max_wait=1s store=" + etcdStore(t).source(t, 0)
		segOutage(t, cfg, "etcd cluster", func() func() {
			restart := etcdKill(t, "1", "2", "3")
			return func() { restart(); etcdHealthy(t, []string{"1", "2", "3"}, 60*time.Second) }
		})
	})
}

// storeTarget is what a proxy forwards to for the registered store name.
func storeTarget(t *testing.T, name string) string {
	for _, s := range stores() {
		if s.name == name {
			return s.target
		}
	}
	t.Fatalf("no %s store registered", name)
	return ""
}

// Real processes on a counter near INT64_MAX: the last values, then
// IDGEN_EOVERFLOW naming INT64_MAX; a row an operator put there too.
func TestSegmentNearInt64MaxNewStores(t *testing.T) {
	check := func(t *testing.T, cfg string) {
		h := startSegHolder(t, cfg, 200)
		_, line := h.waitStatus(-3, 20*time.Second)
		require.Contains(t, line, "INT64_MAX")
		h.stop()
		require.Equal(t, []int64{math.MaxInt64 - 2, math.MaxInt64 - 1, math.MaxInt64}, h.ids(), "the last values, then IDGEN_EOVERFLOW")
	}
	for _, s := range stores()[2:] {
		t.Run(s.name, func(t *testing.T) {
			check(t, fmt.Sprintf("preset=segment name=new start=%d store=%s", int64(math.MaxInt64-2), s.source(t, 0)))
		})
	}
	t.Run("mysql-row", func(t *testing.T) {
		src := myStore(t).source(t, 0)
		probe := startSegHolder(t, "preset=segment name=probe store="+src, 200) // makes the table
		probe.stop()
		mysql(t, fmt.Sprintf("INSERT INTO %s_segment (name, last) VALUES ('full', %d)", testRoot(t), int64(math.MaxInt64-3)))
		check(t, "preset=segment name=full store="+src)
	})
	t.Run("redis-key", func(t *testing.T) {
		require.Equal(t, "OK", redisCli(t, "SET", redisstore.CounterKey("full"), fmt.Sprint(int64(math.MaxInt64-3))))
		check(t, "preset=segment name=full store="+redisURL(t, 0))
	})
	t.Run("etcd-key", func(t *testing.T) {
		src := etcdStore(t).source(t, 0)
		etcdSh(t, "ctl", etcdDir(), "put", etcdstore.CounterKey("/"+testRoot(t), "full"), fmt.Sprintf("idgen-segment 1 %d", int64(math.MaxInt64-3)))
		check(t, "preset=segment name=full store="+src)
	})
}

// A counter table a DBA made beforehand serves a user with only SELECT,
// INSERT and UPDATE on it; without it, the error says what to create and
// grant, never the password.
func TestSegmentMySQLLeastPrivilegeUser(t *testing.T) {
	table := testRoot(t) + "_dba"
	mysql(t, "CREATE TABLE "+table+"_segment (name VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin NOT NULL PRIMARY KEY, last BIGINT NOT NULL) ENGINE=InnoDB")
	mysql(t, "GRANT SELECT, INSERT, UPDATE ON idgen."+table+"_segment TO 'idgen_lp'@'%'")
	h := startSegHolder(t, "preset=segment name=lp step=100 store="+myLPURL+" lease_table="+table, 200)
	time.Sleep(300 * time.Millisecond)
	h.stop()
	ids := h.ids()
	require.NotEmpty(t, ids)
	require.Equal(t, int64(1), ids[0])
	require.Equal(t, fmt.Sprint(ids[len(ids)-1]), mysql(t, "SELECT last FROM "+table+"_segment WHERE name = 'lp'"), "the clean close gave the rest back")

	missing := startHolder(t, "preset=segment name=lp store="+myLPURL+" lease_table="+testRoot(t)+"_none", 200)
	<-missing.exited
	for _, want := range []string{"open -5 ", "CREATE TABLE `" + testRoot(t) + "_none_segment` (name VARCHAR(64)", "GRANT SELECT, INSERT, UPDATE ON `idgen`.`" + testRoot(t) + "_none_segment` TO 'idgen_lp'@'%'"} {
		require.Contains(t, missing.open, want)
	}
	require.NotContains(t, missing.open, "lp-pw")
	t.Logf("least-privilege user: %d values from the DBA's table; without it: %s", len(ids), missing.open)
}
