//go:build fleet

package fleet

// Segment counters (preset=segment, DESIGN "Segments: dense counters from
// a store") on every store: the host directory, ZooKeeper, PostgreSQL, and
// each registered store (MySQL, Redis, etcd; a store that kept none would
// be skipped; segment_stores_test.go has their own outage and INT64_MAX
// cases). Real processes (build/holder prints the values it issues),
// real faults: kill -9 mid-segment, the store stopped under live
// generators.

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/stretchr/testify/require"
)

// segStore is where a test's counter lives: the store= (or lease_dir=)
// part of a configuration string.
type segStore struct {
	name string
	keys func(t *testing.T) string
}

func segStores() []segStore {
	out := []segStore{{name: "host", keys: func(t *testing.T) string { return "lease_dir=" + t.TempDir() }}}
	for _, s := range stores() {
		out = append(out, segStore{name: s.name, keys: func(t *testing.T) string { return "store=" + s.source(t, 0) }})
	}
	return out
}

// startSegHolder starts a holder; a store without counters yet skips.
func startSegHolder(t *testing.T, cfg string, pauseUs int) *holder {
	t.Helper()
	h := startHolder(t, cfg, pauseUs)
	if strings.Contains(h.open, "keeps no segment counters") {
		t.Skipf("no segment counters on this store yet: %s", h.open)
	}
	require.Empty(t, h.open, h.open)
	return h
}

func sortedIDs(hs ...*holder) []int64 {
	var all []int64
	for _, h := range hs {
		all = append(all, h.ids()...)
	}
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	return all
}

// holes counts the values missing between the lowest and highest issued.
func holes(all []int64) int64 {
	if len(all) == 0 {
		return 0
	}
	return all[len(all)-1] - all[0] + 1 - int64(len(all))
}

func TestSegmentSixteenProcessesOneCounter(t *testing.T) {
	for _, s := range segStores() {
		t.Run(s.name, func(t *testing.T) {
			cfg := "preset=segment name=orders step=100 " + s.keys(t)
			hs := make([]*holder, 16)
			var wg sync.WaitGroup
			for i := range hs {
				wg.Add(1)
				go func(i int) { defer wg.Done(); hs[i] = startHolder(t, cfg, 100) }(i)
			}
			wg.Wait()
			for _, h := range hs {
				if strings.Contains(h.open, "keeps no segment counters") {
					t.Skipf("no segment counters on this store yet: %s", h.open)
				}
				require.Empty(t, h.open, h.open)
			}
			time.Sleep(1500 * time.Millisecond)
			for _, h := range hs {
				h.stop()
			}
			n := noDuplicates(t, hs...) // unique, and each process's values increase
			all := sortedIDs(hs...)
			require.Equal(t, int64(1), all[0], "the counter starts at start=1")
			interleaved := 0
			for _, h := range hs {
				ids := h.ids()
				require.NotEmpty(t, ids)
				if ids[len(ids)-1]-ids[0]+1 > int64(len(ids)) {
					interleaved++
				}
			}
			t.Logf("%s: 16 processes, %d values, 0 duplicates, each increasing; %d processes' values interleave with others'; %d values skipped (tails of segments not given back)",
				s.name, n, interleaved, holes(all))
		})
	}
}

func TestSegmentKill9WastesAtMostTwoSegments(t *testing.T) {
	const step = 1000
	for _, s := range segStores() {
		t.Run(s.name, func(t *testing.T) {
			cfg := fmt.Sprintf("preset=segment name=k9 step=%d %s", step, s.keys(t))
			a := startSegHolder(t, cfg, 200)
			time.Sleep(700 * time.Millisecond)
			a.signal(syscall.SIGKILL)
			<-a.exited
			b := startSegHolder(t, cfg, 200)
			time.Sleep(300 * time.Millisecond)
			b.stop()
			noDuplicates(t, a, b)
			aIDs, bIDs := a.ids(), b.ids()
			require.NotEmpty(t, aIDs)
			require.NotEmpty(t, bIDs)
			aLast := aIDs[len(aIDs)-1]
			require.Greater(t, bIDs[0], aLast, "no value of the killed process is issued again")
			waste := bIDs[0] - aLast - 1
			require.LessOrEqual(t, waste, int64(2*step), "a crash loses at most the current and the prefetched segment")
			t.Logf("%s: killed -9 after %d values (last %d); the next process began at %d: %d values wasted (at most 2 segments = %d)",
				s.name, len(aIDs), aLast, bIDs[0], waste, 2*step)
		})
	}
}

func TestSegmentCleanCloseAndRestartNoGap(t *testing.T) {
	for _, s := range segStores() {
		t.Run(s.name, func(t *testing.T) {
			cfg := "preset=segment name=invoices step=1000 start=100 " + s.keys(t)
			var hs []*holder
			for i := 0; i < 3; i++ {
				h := startSegHolder(t, cfg, 200)
				time.Sleep(time.Duration(300+200*i) * time.Millisecond) // mid-segment, a prefetch in hand
				h.stop()
				hs = append(hs, h)
			}
			all := sortedIDs(hs...)
			require.Equal(t, int64(100), all[0])
			for i, v := range all {
				require.Equal(t, int64(100+i), v, "no gap and no duplicate across clean restarts")
			}
			t.Logf("%s: 3 processes one after another, each closed mid-segment: values 100..%d, no gap", s.name, all[len(all)-1])
		})
	}
}

// segOutage stops a store under four live generators: they issue what
// they hold, then fail with IDGEN_EWORKER naming the store, then go on
// when it is back.
func segOutage(t *testing.T, cfg, where string, stop func() (restart func())) {
	var hs []*holder
	for i := 0; i < 4; i++ {
		hs = append(hs, startSegHolder(t, cfg, 200))
	}
	time.Sleep(500 * time.Millisecond)
	counts := make([]int, len(hs))
	for i, h := range hs {
		counts[i] = len(h.ids())
	}
	restart := stop()
	stopped := nowMs()
	var failedAt []int64
	for i, h := range hs {
		ms, line := h.waitStatus(-5, 60*time.Second)
		require.Contains(t, line, where, "IDGEN_EWORKER names the store")
		require.Greater(t, len(h.ids()), counts[i], "it went on issuing the values in hand")
		failedAt = append(failedAt, ms-stopped)
	}
	back := nowMs()
	restart()
	var recovered []int64
	for _, h := range hs {
		ms, _ := h.waitStatus(0, 90*time.Second)
		recovered = append(recovered, ms-back)
	}
	time.Sleep(500 * time.Millisecond)
	for _, h := range hs {
		h.stop()
	}
	n := noDuplicates(t, hs...)
	t.Logf("%s stopped: the 4 generators issued what they held, then IDGEN_EWORKER after %v ms; store started again: issuing again after %v ms; %d values, 0 duplicates",
		where, failedAt, recovered, n)
}

func TestSegmentStoreStoppedThenEWorkerThenRecovers(t *testing.T) {
	t.Run("host", func(t *testing.T) {
		// The host directory has no server to stop: its counter file is
		// replaced by a symlink (which idgen never follows) under the
		// file's lock, so no take slips in, then put back atomically.
		dir := t.TempDir()
		file := filepath.Join(dir, "outage.segment")
		segOutage(t, "preset=segment name=outage step=2000 max_wait=1s lease_dir="+dir, "segment counter file", func() func() {
			f, err := os.OpenFile(file, os.O_RDWR, 0)
			require.NoError(t, err)
			require.NoError(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX))
			saved, err := io.ReadAll(f)
			require.NoError(t, err)
			require.NoError(t, os.Remove(file))
			require.NoError(t, os.Symlink("/dev/null", file))
			require.NoError(t, f.Close())
			return func() {
				require.NoError(t, os.WriteFile(file+".new", saved, 0o600))
				require.NoError(t, os.Rename(file+".new", file)) // over the symlink, at once
			}
		})
	})
	t.Run("zk", func(t *testing.T) {
		cfg := "preset=segment name=outage step=2000 max_wait=1s store=" + stores()[0].source(t, 0)
		segOutage(t, cfg, "ZooKeeper", func() func() {
			restart := zkStopAll(t)
			return func() { restart(); zkServing(t, 1, 60*time.Second) }
		})
	})
	t.Run("pg", func(t *testing.T) {
		cfg := "preset=segment name=outage step=2000 max_wait=1s store=" + stores()[1].source(t, 0)
		segOutage(t, cfg, "PostgreSQL", func() func() { return pgStop(t) })
	})
}

func TestSegmentNearInt64MaxOverflowsNeverWraps(t *testing.T) {
	check := func(t *testing.T, cfg string) {
		h := startSegHolder(t, cfg, 200)
		_, line := h.waitStatus(-3, 20*time.Second)
		require.Contains(t, line, "INT64_MAX")
		h.stop()
		ids := h.ids()
		require.Equal(t, []int64{math.MaxInt64 - 2, math.MaxInt64 - 1, math.MaxInt64}, ids, "the last values, then IDGEN_EOVERFLOW")
	}
	t.Run("pg", func(t *testing.T) {
		src := stores()[1].source(t, 0)
		table := testRoot(t) + "_segment"
		probe := startSegHolder(t, "preset=segment name=probe store="+src, 200) // makes the table
		probe.stop()
		psql(t, fmt.Sprintf(`INSERT INTO %q (name, last, prev) VALUES ('full', %d, 0)`, table, int64(math.MaxInt64-3)))
		check(t, "preset=segment name=full store="+src)
	})
	t.Run("zk", func(t *testing.T) {
		src := stores()[0].source(t, 0)
		raw := zkRaw(t)
		root := "/" + testRoot(t)
		for _, p := range []string{root, root + "/segment"} {
			_, err := raw.Create(p, nil, 0, zk.WorldACL(zk.PermAll))
			if err != nil && err != zk.ErrNodeExists {
				require.NoError(t, err)
			}
		}
		_, err := raw.Create(root+"/segment/full", []byte(fmt.Sprintf("idgen-segment 1 %d", int64(math.MaxInt64-3))), 0, zk.WorldACL(zk.PermAll))
		require.NoError(t, err)
		check(t, "preset=segment name=full store="+src)
	})
}
