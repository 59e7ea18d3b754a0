package gen

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
	"github.com/idgen/idgen/internal/lease/leasetest"
)

// openWith opens cfg with an injected clock and lease store.
func openWith(t *testing.T, cfg string, clk clock.Clock, st lease.Store) Generator {
	t.Helper()
	c, err := config.Parse(cfg)
	require.NoError(t, err)
	g, err := Open(c, Options{Clock: clk, Store: st})
	require.NoError(t, err)
	t.Cleanup(func() { g.Close() })
	return g
}

func tickOf(t *testing.T, g Generator, id int64) int64 {
	p, err := g.Decode(id)
	require.NoError(t, err)
	return p.Time
}

// While renewals fail, the generator issues up to the last acknowledged
// fence and not one tick further; when the store answers again it goes on.
func TestRenewalFailureStopsIssuingExactlyAtTheFence(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	st := leasetest.New()
	g := openWith(t, "preset=snowflake worker=lease lease_ttl=1s", clk, st)
	st.FailRenewals.Store(true)
	start := tickOf(t, g, next(t, g))
	fence := start + 1000 // now + lease_ttl, in 1 ms ticks
	var last int64
	for {
		clk.Add(time.Millisecond)
		id, err := g.Next()
		if err != nil {
			require.ErrorIs(t, err, errs.ErrWorker)
			require.Contains(t, err.Error(), "lease lost")
			break
		}
		last = tickOf(t, g, id)
		require.LessOrEqual(t, last, fence)
	}
	require.Equal(t, fence, last, "issued up to the fence exactly")
	require.Error(t, g.NextBatch(make([]int64, 10)))
	st.FailRenewals.Store(false)
	var id int64
	require.Eventually(t, func() bool { // the Keeper retries in the background
		var err error
		id, err = g.Next()
		return err == nil
	}, 2*time.Second, time.Millisecond)
	require.Equal(t, fence+1, tickOf(t, g, id), "issuing goes on once the store acknowledges again")
}

// A claim the store takes away while its record is still the holder's own
// (an expired session): the Keeper takes the same pair again at once and
// ids go on increasing.
func TestLostLeaseTakesItsOwnPairAgain(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	st := leasetest.New()
	cfg := "preset=snowflake worker=lease lease_ttl=300ms"
	g := openWith(t, cfg, clk, st)
	last := next(t, g)
	c, _ := config.Parse(cfg)
	st.Kick(poolOf(c).Name, lease.Pair{})
	require.Eventually(t, func() bool { return StatsOf(g).LeasesTaken == 2 }, 3*time.Second, 5*time.Millisecond)
	require.Contains(t, g.Config(), "leased=0/0")
	clk.Add(time.Millisecond)
	require.Greater(t, next(t, g), last)
	require.Equal(t, int64(lease.StateHeld), StatsOf(g).LeaseState)
}

// A claim the store takes away and whose record another holder moved: the
// generator rides on under its last acknowledged fence (no taker issues at
// or below the record) while it leases again in the background (another
// pair: the old one's record is ahead of the clock), never failing a call,
// and its ids stay unique and increasing.
func TestLostLeaseLeasesAgainWithIncreasingIDs(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	st := leasetest.New()
	cfg := "preset=snowflake worker=lease lease_ttl=300ms"
	g := openWith(t, cfg, clk, st)
	require.Contains(t, g.Config(), "leased=0/0")
	var ids []int64
	for i := 0; i < 100; i++ {
		ids = append(ids, next(t, g))
	}
	c, _ := config.Parse(cfg)
	rec, _ := st.Record(poolOf(c).Name, lease.Pair{})
	st.Kick(poolOf(c).Name, lease.Pair{})
	st.SetRecord(poolOf(c).Name, lease.Pair{}, lease.Record{IssuedUpTo: rec.IssuedUpTo + 60000}) // a successor's fence
	require.Eventually(t, func() bool {
		clk.Add(time.Millisecond)
		id, err := g.Next()
		require.NoError(t, err, "riding on the acknowledged fence")
		require.Greater(t, id, ids[len(ids)-1])
		ids = append(ids, id)
		return strings.Contains(g.Config(), "leased=0/1")
	}, 3*time.Second, 5*time.Millisecond)
	require.Equal(t, int64(2), StatsOf(g).LeasesTaken)
	for i := 0; i < 100; i++ {
		clk.Add(time.Millisecond)
		id, err := g.Next()
		require.NoError(t, err)
		require.Greater(t, id, ids[len(ids)-1])
		p, _ := g.Decode(id)
		require.Equal(t, int64(1), p.Worker)
		ids = append(ids, id)
	}
}

// Close records the real last tick, not the fence: a clean restart does not
// wait.
func TestCloseWritesTheRealLastValue(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	st := leasetest.New()
	cfg := "preset=snowflake worker=lease lease_ttl=5s"
	c, _ := config.Parse(cfg)
	g, err := Open(c, Options{Clock: clk, Store: st})
	require.NoError(t, err)
	last := tickOf(t, g, next(t, g))
	rec, _ := st.Record(poolOf(c).Name, lease.Pair{})
	require.Equal(t, last+5000, rec.IssuedUpTo, "while running, the record is the fence")
	require.NoError(t, g.Close())
	rec, _ = st.Record(poolOf(c).Name, lease.Pair{})
	require.Equal(t, last, rec.IssuedUpTo)
	clk.Add(time.Millisecond)
	start := time.Now()
	g2 := openWith(t, cfg, clk, st)
	require.Less(t, time.Since(start), 100*time.Millisecond, "no wait after a clean close")
	require.Greater(t, tickOf(t, g2, next(t, g2)), last)
}

// A predecessor's record ahead of the clock: waited out within max_wait,
// ErrClockBackwards naming both times (RFC 3339, never overflowed) beyond.
func TestTakeoverWaitsOrRefusesNamingBothTimes(t *testing.T) {
	st := leasetest.New()
	cfg := "layout=time:41,seq:12 worker=lease max_wait=300ms" // one pair: nothing else to prefer
	c, _ := config.Parse(cfg)
	pool := poolOf(c).Name
	nowTick := time.Now().UnixMilli() - 1288834974657

	st.SetRecord(pool, lease.Pair{}, lease.Record{IssuedUpTo: nowTick + 200})
	start := time.Now()
	g := openWith(t, cfg, nil, st)
	require.GreaterOrEqual(t, time.Since(start), 150*time.Millisecond, "waited for the clock")
	require.Greater(t, tickOf(t, g, next(t, g)), nowTick+200)
	require.NoError(t, g.Close())

	for _, ahead := range []int64{3600 * 1000, 1000 * 365 * 24 * 3600 * 1000} { // an hour; ~year 3000
		st.SetRecord(pool, lease.Pair{}, lease.Record{IssuedUpTo: nowTick + ahead})
		start = time.Now()
		_, err := Open(c, Options{Store: st})
		require.ErrorIs(t, err, errs.ErrClockBackwards)
		require.GreaterOrEqual(t, time.Since(start), 250*time.Millisecond, "waits max_wait first")
		msg := err.Error()
		require.Contains(t, msg, "previous holder issued up to "+time.UnixMilli(1288834974657+nowTick+ahead).UTC().Format("2006-01-02T15:04"))
		require.Contains(t, msg, "clock reads "+time.Now().UTC().Format("2006-01-02T15"))
		require.NotContains(t, msg, "1711")
	}
	// A record far beyond any clock (a 1-day unit near the end of its field)
	// still prints without overflowing.
	day := "layout=time:50,worker:3,seq:10 unit=24h epoch=0 worker=lease max_wait=10ms"
	dc, _ := config.Parse(day)
	for w := int64(0); w < 8; w++ {
		st.SetRecord(poolOf(dc).Name, lease.Pair{Worker: w}, lease.Record{IssuedUpTo: 1<<50 - 1})
	}
	_, err := Open(dc, Options{Store: st})
	require.ErrorIs(t, err, errs.ErrClockBackwards)
	require.Contains(t, err.Error(), "beyond")
	require.NotContains(t, err.Error(), "1711")
}

// Every id that decodes composes back to itself, over random layouts; an id
// whose time lies beyond int64 milliseconds is ErrRange.
func FuzzComposeDecode(f *testing.F) {
	f.Add(uint8(41), uint8(5), uint8(5), uint8(12), uint32(1), int64(1288834974657), int64(910499571847892992))
	f.Add(uint8(50), uint8(0), uint8(3), uint8(10), uint32(86400000), int64(0), int64(1<<63-1))
	f.Add(uint8(28), uint8(0), uint8(22), uint8(13), uint32(1000), int64(1463673600000), int64(12345))
	f.Fuzz(func(t *testing.T, tw, dw, ww, sw uint8, unitMs uint32, epoch, id int64) {
		tw, dw, ww, sw = 1+tw%50, dw%6, ww%12, 1+sw%22
		if int(tw)+int(dw)+int(ww)+int(sw) > 63 {
			return
		}
		unitMs = 1 + unitMs%86400000
		epoch = (epoch & (1<<62 - 1)) % (int64(9000000000000))
		lay := fmt.Sprintf("time:%d", tw)
		if dw > 0 {
			lay += fmt.Sprintf(",datacenter:%d", dw)
		}
		if ww > 0 {
			lay += fmt.Sprintf(",worker:%d", ww)
		}
		lay += fmt.Sprintf(",seq:%d", sw)
		c, err := config.Parse(fmt.Sprintf("layout=%s unit=%dms epoch=%d worker=0", lay, unitMs, epoch))
		require.NoError(t, err)
		sh := newShape(c, Options{Clock: clock.NewManualClock(nowMs)})
		if id < 0 {
			id = -(id + 1)
		}
		id &= 1<<c.Layout.Bits() - 1
		p, err := sh.Decode(id)
		if err != nil {
			require.ErrorIs(t, err, errs.ErrRange)
			tf, _ := c.Layout.Field(layout.FieldTime)
			tick := id >> tf.Shift & tf.Max()
			require.Greater(t, tick, (1<<63-1-epoch)/int64(unitMs), "only a time beyond int64 ms fails")
			return
		}
		back, err := sh.Compose(p)
		require.NoError(t, err)
		require.Equal(t, id, back)
	})
}

func TestDecodeBeyondInt64MillisecondsIsErrRange(t *testing.T) {
	g := open(t, "layout=time:50,worker:3,seq:10 unit=24h epoch=0", nil)
	_, err := g.Decode(1<<63 - 1)
	require.ErrorIs(t, err, errs.ErrRange)
	require.Contains(t, err.Error(), "beyond")
}

// Two processes without any configuration, whose TMPDIR and
// XDG_RUNTIME_DIR differ (a service and a shell), lease from the one host
// directory: distinct pairs, no duplicates.
func TestDefaultsShareOneHostDirectoryWhateverTheEnvironment(t *testing.T) {
	if _, err := os.Stat(config.DefaultLeaseDir); err == nil {
		if _, err := dirstore.Open(config.DefaultLeaseDir, false); err != nil {
			t.Skipf("the host's %s is not usable here: %v", config.DefaultLeaseDir, err)
		}
	}
	cfg := "layout=time:41,worker:7,seq:15" // no worker key: the default lease, in the default directory
	dir := t.TempDir()
	var cmds []*exec.Cmd
	var outs []io.Reader
	for i, env := range [][]string{
		{"TMPDIR=/tmp/a-service", "XDG_RUNTIME_DIR=/run/user/1000"},
		{"TMPDIR=/var/tmp/a-shell", "XDG_RUNTIME_DIR="},
	} {
		cmd := helper("hold", append(env, "CONFIG="+cfg, "MS=1500", "OUT="+filepath.Join(dir, strconv.Itoa(i)))...)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	var pairs []string
	for _, out := range outs {
		line, _ := bufio.NewReader(out).ReadString('\n')
		require.Contains(t, line, "worker=lease")
		i := strings.Index(line, "leased=")
		require.GreaterOrEqual(t, i, 0, line)
		pairs = append(pairs, strings.Fields(line[i:])[0])
	}
	for _, cmd := range cmds {
		require.NoError(t, cmd.Wait())
	}
	require.NotEqual(t, pairs[0], pairs[1], "distinct pairs")
	var all []int64
	for i := range cmds {
		all = append(all, readIDs(t, filepath.Join(dir, strconv.Itoa(i)))...)
	}
	requireUnique(t, all)
}

func readIDs(t *testing.T, path string) []int64 {
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	ids := make([]int64, len(b)/8)
	for i := range ids {
		ids[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return ids
}

func requireUnique(t *testing.T, all []int64) {
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	for i := 1; i < len(all); i++ {
		require.NotEqual(t, all[i-1], all[i], "duplicate id")
	}
}

// A lease file removed under a live holder: it stops within one renewal
// period, and the next holder never issues an id the old one issued.
func TestRemovedLeaseFileStopsTheHolder(t *testing.T) {
	dir := t.TempDir()
	cfg := "layout=time:41,seq:22 worker=lease lease_dir=" + dir
	cmd := helper("stream", "CONFIG="+cfg)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(out)
	require.True(t, sc.Scan(), "the holder prints ids")
	files, _ := filepath.Glob(filepath.Join(dir, "*.lease"))
	require.Len(t, files, 1)
	require.NoError(t, os.Remove(files[0]))
	removed := time.Now()
	var maxSeen int64
	for sc.Scan() {
		if v, err := strconv.ParseInt(sc.Text(), 10, 64); err == nil {
			maxSeen = max(maxSeen, v)
		}
	}
	_ = cmd.Wait()
	stopped := time.Since(removed)
	require.Equal(t, 6, cmd.ProcessState.ExitCode(), "the holder stopped with an error")
	require.Less(t, stopped, 900*time.Millisecond, "within one renewal period (lease_ttl/3) and some scheduling")
	g := open(t, cfg, nil)
	require.Greater(t, next(t, g), maxSeen, "the next holder starts above everything the old one issued")
	t.Logf("holder stopped %s after its file was removed", stopped.Round(time.Millisecond))
}
