//go:build fleet

package fleet

// Riding out outages of the host lease directory: the directory moved
// away and made again under live holders, a one-pair pool paused past
// lease_ttl, and (for every store) a 4-pair pool whose holders are killed
// -9.

import (
	"fmt"
	"os"
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

	"github.com/idgen/idgen/internal/config"
)

// ---- host directory -----------------------------------------------------------

func TestOutageHostDirectory(t *testing.T) {
	t.Parallel()
	t.Run("DirectoryMovedAwayAndMadeAgain", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "leases")
		require.NoError(t, os.Mkdir(dir, 0o755))
		cfg := "preset=snowflake lease_dir=" + dir // host defaults: lease_ttl=1s max_outage=1s
		hs := make([]*watched, 3)
		for i := range hs {
			hs[i] = startWatched(t, cfg, 300)
		}
		time.Sleep(time.Second)
		moved := nowMs()
		require.NoError(t, os.Rename(dir, dir+".old"))
		require.NoError(t, os.Mkdir(dir, 0o755))
		// A newcomer in the new directory, which knows nothing of the
		// live holders' pairs.
		n1 := startWatched(t, cfg, 300)
		newcomerOpen := n1.openedAt.UnixMilli() - moved
		var lost, back []int64
		var stuck []string
		deadline := time.Now().Add(10 * time.Second)
		for _, h := range hs {
			e, err := h.await("status", -5, moved, 5*time.Second)
			require.NoError(t, err, "the holder notices its directory is gone")
			lost = append(lost, e.ms-moved)
			if e, err = h.await("status", 0, e.ms, time.Until(deadline)); err != nil {
				stuck = append(stuck, fmt.Sprintf("%s, last lines:%s", h.pair(), tail(h.transcript(), 3)))
				continue
			}
			back = append(back, e.ms-moved)
		}
		time.Sleep(500 * time.Millisecond)
		// Every live generator's pair is locked in the directory that
		// now has the name, where newcomers look, and no two share one.
		var notHere []string
		seen := map[string]bool{}
		for _, h := range append(hs, n1) {
			p := h.lastPair()
			if h.lastLeaseState() != leaseHeld {
				continue
			}
			require.False(t, seen[p], "two live holders on %s", p)
			seen[p] = true
			if !lockedIn(t, dir, p) {
				notHere = append(notHere, p)
			}
		}
		for _, h := range append(hs, n1) {
			h.stop()
		}
		n := noDuplicates(t, append(asHolders(hs), n1.holder)...)
		// Where the holders tried to lease again: files made after the
		// move in the directory moved away.
		var madeInOld []string
		ents, err := os.ReadDir(dir + ".old")
		require.NoError(t, err)
		for _, e := range ents {
			if fi, err := e.Info(); err == nil && fi.ModTime().UnixMilli() > moved && strings.HasSuffix(e.Name(), ".lease") {
				madeInOld = append(madeInOld, e.Name()[strings.Index(e.Name(), ".")+1:])
			}
		}
		t.Logf("lease_dir moved away and made again under 3 holders: a newcomer opened in the new one after %d ms on %s; the holders stopped after %v ms and issued again after %v ms; HELD pairs not locked in the new directory: %v; lease files written after the move in the directory moved away: %v; %d ids, 0 duplicates",
			newcomerOpen, n1.pair(), lost, back, notHere, madeInOld, n)
		assert.Empty(t, stuck, "every holder leases again by itself")
		assert.Empty(t, notHere, "every holder leases again in the directory that has the name")
	})

	t.Run("OnePairPoolPausedPastLeaseTTL", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "leases")
		require.NoError(t, os.Mkdir(dir, 0o755))
		cfg := "layout=time:41,seq:22 lease_dir=" + dir // one pair; lease_ttl=1s max_outage=1s
		a := startWatched(t, cfg, 100)
		time.Sleep(500 * time.Millisecond)
		a.signal(syscall.SIGSTOP)
		paused := nowMs()
		time.Sleep(500 * time.Millisecond)
		b, err := launch(t, cfg, 100)
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(b.open, "open -5 "), "the paused holder's pair is still locked: %q", b.open)
		time.Sleep(time.Until(time.UnixMilli(paused).Add(3 * time.Second)))
		a.signal(syscall.SIGCONT)
		resumed := nowMs()
		time.Sleep(time.Second)
		first := int64(-1)
		for _, id := range a.ids() {
			if ms := unixMs(t, a.cfg, id); ms >= resumed {
				first = ms
				break
			}
		}
		failures := a.failures()
		state := a.lastLeaseState()
		a.stop()
		// A successor after it (clean close: no wait).
		c := startWatched(t, cfg, 100)
		time.Sleep(300 * time.Millisecond)
		c.stop()
		n := noDuplicates(t, a.holder, c.holder)
		require.NotEqual(t, int64(-1), first, "the holder issues again after the pause")
		t.Logf("one-pair pool paused 3 s (lease_ttl 1 s): a taker meanwhile: %s; after SIGCONT the first id is dated %+d ms, errors seen: %v, lease state %d; %d ids, 0 duplicates",
			b.open, first-resumed, failures, state, n)
		assert.LessOrEqual(t, first-resumed, int64(1000), "issuing again at once")
		assert.Equal(t, int64(leaseHeld), state)
	})

	t.Run("FourPairPoolKill9", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "leases")
		require.NoError(t, os.Mkdir(dir, 0o755))
		cfg := "layout=time:41,worker:2,seq:20 lease_ttl=1s max_outage=4s lease_dir=" + dir
		kill9FourPairs(t, cfg, 1500*time.Millisecond, func(worker string) int64 {
			m, err := filepath.Glob(filepath.Join(dir, "*.0."+worker+".lease"))
			require.NoError(t, err)
			require.Len(t, m, 1)
			b, err := os.ReadFile(m[0])
			require.NoError(t, err)
			f := strings.Fields(string(b))
			v, err := strconv.ParseInt(f[2], 10, 64)
			require.NoError(t, err)
			return v
		})
	})
}

func (w *watched) lastLeaseState() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := len(w.evs) - 1; i >= 0; i-- {
		if w.evs[i].kind == "lease" {
			return w.evs[i].code
		}
	}
	return -1
}

// lockedIn reports whether the lease file of pair ("D/W") in dir is
// locked by someone (a flock of our own is refused).
func lockedIn(t *testing.T, dir, pair string) bool {
	dw := strings.SplitN(pair, "/", 2)
	m, err := filepath.Glob(filepath.Join(dir, "*."+dw[0]+"."+dw[1]+".lease"))
	require.NoError(t, err)
	if len(m) != 1 {
		return false
	}
	f, err := os.Open(m[0])
	require.NoError(t, err)
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	return err == syscall.EWOULDBLOCK
}

// ---- a 4-pair pool with 2 holders killed -9 -----------------------------------

// kill9FourPairs fills a 4-pair pool (cfg), closes 2 holders cleanly and
// kills the other 2 with -9; newcomers must take the closed pairs at
// once, and the killed ones only after their fences (fence reads a pair's
// record, in the layout's ticks). probeAfter is a moment after the kill
// when the killed holders' locks are gone and their fences not passed.
func kill9FourPairs(t *testing.T, cfg string, probeAfter time.Duration, fence func(worker string) int64) {
	spec, err := config.Parse(cfg)
	require.NoError(t, err)
	tickMs := func(v int64) int64 { return spec.EpochMs + v*spec.Unit.Milliseconds() }

	// Four holders, opened together (a new host directory makes the
	// first openers wait one max_outage for pairs without a record).
	hs := make([]*watched, 4)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range hs {
		wg.Add(1)
		go func(i int) { defer wg.Done(); hs[i], errs[i] = launch(t, cfg, 300) }(i)
	}
	wg.Wait()
	for i := range hs {
		require.NoError(t, errs[i])
		require.Empty(t, hs[i].open)
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].pair() < hs[j].pair() })
	time.Sleep(time.Second)
	hs[2].stop()
	hs[3].stop()
	killed := nowMs()
	for _, h := range hs[:2] {
		h.signal(syscall.SIGKILL)
	}
	for _, h := range hs[:2] {
		<-h.exited
	}
	fences := map[string]int64{}
	for _, h := range hs[:2] {
		fences[h.pair()] = tickMs(fence(strings.SplitN(h.pair(), "/", 2)[1]))
	}

	// Newcomers: the two pairs closed cleanly, at once.
	type opened struct {
		w    *watched
		took time.Duration
		err  error
		miss []string // failed attempts
	}
	openUntil := func(within time.Duration) opened {
		start := time.Now()
		var o opened
		for time.Since(start) < within {
			w, err := launch(t, cfg, 300)
			if err != nil {
				o.err = err
				return o
			}
			if w.open == "" {
				o.w, o.took = w, w.openedAt.Sub(start)
				return o
			}
			if len(o.miss) < 3 {
				o.miss = append(o.miss, w.open)
			}
			time.Sleep(100 * time.Millisecond)
		}
		o.err = fmt.Errorf("no pair within %s: %v", within, o.miss)
		return o
	}
	both := func(within time.Duration) [2]opened {
		var r [2]opened
		var wg sync.WaitGroup
		for i := range r {
			wg.Add(1)
			go func(i int) { defer wg.Done(); r[i] = openUntil(within) }(i)
		}
		wg.Wait()
		for _, o := range r {
			require.NoError(t, o.err)
		}
		return r
	}
	free := both(10 * time.Second)
	freePairs := []string{free[0].w.pair(), free[1].w.pair()}
	sort.Strings(freePairs)
	require.Equal(t, []string{hs[2].pair(), hs[3].pair()}, freePairs, "the newcomers take the pairs closed cleanly")

	// Now only the killed holders' pairs are left. What a caller that
	// may not wait (max_wait=100ms) is told at once (ZooKeeper,
	// PostgreSQL: the dead holders' locks still look live for lease_ttl)
	// and once their locks are gone but not their fences.
	// A probe that took a pair must have opened past that pair's fence
	// (a loaded machine may launch it late); it then says "" (too late to
	// read the message).
	probe := func() (string, int64) {
		w, err := launch(t, cfg+" max_wait=100ms", 300)
		require.NoError(t, err)
		if w.open == "" {
			w.stop()
			f, killedPair := fences[w.pair()]
			require.True(t, killedPair, "a caller with max_wait=100ms took %s, not a killed holder's pair", w.pair())
			require.GreaterOrEqual(t, w.openedAt.UnixMilli(), f-5, "a caller with max_wait=100ms took %s %d ms after the kill, before its fence", w.pair(), w.openedAt.UnixMilli()-killed)
			return "", w.openedAt.UnixMilli() - killed
		}
		return w.open, w.openedAt.UnixMilli() - killed
	}
	earlyMsg, earlyAt := probe()
	time.Sleep(time.Until(time.UnixMilli(killed).Add(probeAfter)))
	probeMsg, probeAt := probe()

	blocked := both(20 * time.Second)
	var after []string
	for _, o := range blocked {
		p := o.w.pair()
		f, ok := fences[p]
		require.True(t, ok, "a blocked newcomer takes a killed holder's pair, got %s", p)
		at := o.w.openedAt.UnixMilli()
		var ids []int64
		require.Eventually(t, func() bool { ids = idsSoFar(o.w.file); return len(ids) > 0 }, 5*time.Second, 10*time.Millisecond,
			"the newcomer on %s issues: %s", p, o.w.transcript())
		first := unixMs(t, o.w.cfg, ids[0])
		after = append(after, fmt.Sprintf("%s: open %+d ms after its fence (%d attempts failed first), first id %+d ms", p, at-f, len(o.miss), first-f))
		assert.GreaterOrEqual(t, at, f-5, "pair %s taken only after its fence", p)
		assert.LessOrEqual(t, at, f+2500, "pair %s taken soon after its fence", p)
		assert.Greater(t, first, f, "its first id lies above the fence")
	}
	time.Sleep(300 * time.Millisecond)
	all := append([]*watched{}, hs...)
	for _, o := range append(free[:], blocked[:]...) {
		o.w.stop()
		all = append(all, o.w)
	}
	n := noDuplicates(t, asHolders(all)...)
	t.Logf("4-pair pool, 2 holders closed and 2 killed -9 (fences %+d and %+d ms after the kill): the closed pairs %v taken in %s and %s; a caller with max_wait=100ms, %d ms after the kill: %q; %d ms after the kill: %q; the killed holders' pairs: %v; %d ids, 0 duplicates",
		fences[hs[0].pair()]-killed, fences[hs[1].pair()]-killed, freePairs, free[0].took.Round(time.Millisecond), free[1].took.Round(time.Millisecond),
		earlyAt, earlyMsg, probeAt, probeMsg, after, n)
	assert.Less(t, free[0].took, 1500*time.Millisecond, "a free pair is taken at once")
	assert.Less(t, free[1].took, 1500*time.Millisecond, "a free pair is taken at once")
	if probeMsg != "" {
		assert.Less(t, probeAt+killed, min(fences[hs[0].pair()], fences[hs[1].pair()]), "probed before the fences")
		assert.Regexp(t, `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d`, probeMsg, "a caller that may not wait is told until when the killed holders' pairs are blocked")
	} else if earlyMsg == "" {
		t.Errorf("both probes came after the fences (%d and %d ms after the kill): the machine is too loaded to test what a caller that may not wait is told", earlyAt, probeAt)
	}
}
