package gen

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/hostid"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
)

// The lease tests run real processes: the test binary re-executed in a
// helper mode chosen by $IDGEN_TEST_HELPER.
func TestMain(m *testing.M) {
	switch os.Getenv("IDGEN_TEST_HELPER") {
	case "":
		os.Exit(m.Run())
	case "generate":
		os.Exit(helperGenerate())
	case "stream":
		os.Exit(helperStream())
	case "hold":
		os.Exit(helperHold())
	}
	os.Exit(3)
}

// helperGenerate opens $CONFIG, writes $N ids to $OUT (binary), exits 0;
// exits 5 for errs.ErrWorker and 6 for other errors.
func helperGenerate() int {
	g, err := OpenString(os.Getenv("CONFIG"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		if errors.Is(err, errs.ErrWorker) {
			return 5
		}
		return 6
	}
	n, _ := strconv.Atoi(os.Getenv("N"))
	ids := make([]int64, n)
	for i := range ids {
		if ids[i], err = g.Next(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 6
		}
	}
	f, err := os.Create(os.Getenv("OUT"))
	if err != nil {
		return 6
	}
	defer f.Close()
	if err := binary.Write(f, binary.LittleEndian, ids); err != nil {
		return 6
	}
	return 0
}

// helperStream opens $CONFIG and prints ids, one per line, until killed.
func helperStream() int {
	g, err := OpenString(os.Getenv("CONFIG"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 6
	}
	w := bufio.NewWriterSize(os.Stdout, 64)
	for {
		id, err := g.Next()
		if err != nil {
			return 6
		}
		fmt.Fprintln(w, id)
		w.Flush()
	}
}

// helperHold opens $CONFIG, prints its configuration string, issues ids
// for $MS milliseconds, writes them to $OUT (binary) and exits 0.
func helperHold() int {
	g, err := OpenString(os.Getenv("CONFIG"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 6
	}
	fmt.Println(g.Config())
	ms, _ := strconv.Atoi(os.Getenv("MS"))
	var ids []int64
	for end := time.Now().Add(time.Duration(ms) * time.Millisecond); time.Now().Before(end); {
		id, err := g.Next()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 6
		}
		ids = append(ids, id)
		time.Sleep(50 * time.Microsecond)
	}
	g.Close()
	f, err := os.Create(os.Getenv("OUT"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 6
	}
	defer f.Close()
	if err := binary.Write(f, binary.LittleEndian, ids); err != nil {
		return 6
	}
	return 0
}

func helper(mode string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append([]string{"IDGEN_TEST_HELPER=" + mode}, env...)...)
	cmd.Stderr = os.Stderr
	return cmd
}

func TestLeaseEightProcessesNoDuplicates(t *testing.T) {
	dir := t.TempDir()
	config := "CONFIG=preset=snowflake worker=lease lease_dir=" + dir
	const procs, per = 8, 250000
	var cmds []*exec.Cmd
	for i := 0; i < procs; i++ {
		cmd := helper("generate", config, "N="+strconv.Itoa(per), "OUT="+filepath.Join(dir, fmt.Sprintf("ids%d", i)))
		require.NoError(t, cmd.Start())
		cmds = append(cmds, cmd)
	}
	for _, cmd := range cmds {
		require.NoError(t, cmd.Wait())
	}
	g := open(t, "preset=snowflake", nil)
	all := make([]int64, 0, procs*per)
	workers := map[[2]int64]bool{}
	for i := 0; i < procs; i++ {
		ids := make([]int64, per)
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("ids%d", i)))
		require.NoError(t, err)
		require.NoError(t, binary.Read(f, binary.LittleEndian, ids))
		f.Close()
		p, _ := g.Decode(ids[0])
		workers[[2]int64{p.Datacenter, p.Worker}] = true
		all = append(all, ids...)
	}
	require.Len(t, workers, procs, "8 distinct (datacenter, worker) pairs")
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	for i := 1; i < len(all); i++ {
		require.NotEqual(t, all[i-1], all[i], "duplicate id")
	}
}

func TestLeaseAllTakenIsErrWorker(t *testing.T) {
	dir := t.TempDir()
	config := "layout=time:41,worker:5,seq:17 worker=lease lease_dir=" + dir
	seen := map[int64]bool{}
	for i := 0; i < 32; i++ { // 32 leases held by this process: real flocks
		g := open(t, config, nil)
		p, err := g.Decode(next(t, g))
		require.NoError(t, err)
		require.False(t, seen[p.Worker])
		seen[p.Worker] = true
	}
	cmd := helper("generate", "CONFIG="+config, "N=1", "OUT="+filepath.Join(dir, "x"))
	err := cmd.Run()
	require.Error(t, err)
	require.Equal(t, 5, cmd.ProcessState.ExitCode(), "the 33rd process gets errs.ErrWorker")
	_, err = OpenString(config)
	require.ErrorIs(t, err, errs.ErrWorker)
	require.Contains(t, err.Error(), "all 32 pairs")
}

func TestLeaseKill9FreesAtOnceAndNextHolderIsAbove(t *testing.T) {
	// A time layout of one pair: with more, the next holder takes a pair
	// that never had a record at once (the pool marker lists those that
	// had one) rather than wait for the dead holder's fence.
	for _, preset := range []string{"layout=time:41,seq:22", "preset=zk-session", "preset=zxid"} {
		t.Run(preset, func(t *testing.T) {
			dir := t.TempDir()
			config := preset + " worker=lease lease_dir=" + dir
			cmd := helper("stream", "CONFIG="+config)
			out, err := cmd.StdoutPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			sc := bufio.NewScanner(out)
			var maxSeen int64
			require.True(t, sc.Scan(), "the holder prints ids") // after its first open's wait
			deadline := time.Now().Add(400 * time.Millisecond)
			for sc.Scan() && time.Now().Before(deadline) {
				v, err := strconv.ParseInt(sc.Text(), 10, 64)
				require.NoError(t, err)
				maxSeen = max(maxSeen, v)
			}
			require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
			for sc.Scan() { // what it printed before dying
				if v, err := strconv.ParseInt(sc.Text(), 10, 64); err == nil {
					maxSeen = max(maxSeen, v)
				}
			}
			_ = cmd.Wait()
			require.Greater(t, maxSeen, int64(0))
			start := time.Now()
			g := open(t, config, nil) // the lease is free at once: same (lowest) id
			first := next(t, g)
			require.Greater(t, first, maxSeen, "the next holder starts above everything the dead one issued")
			require.Less(t, time.Since(start), 3*time.Second)
			pd, _ := g.Decode(maxSeen)
			pf, _ := g.Decode(first)
			require.Equal(t, pd.Worker, pf.Worker, "the dead holder's id was reused")
			require.Equal(t, pd.Datacenter, pf.Datacenter)
		})
	}
}

func TestLeaseRestartsNeverReissue(t *testing.T) {
	for _, preset := range []string{"preset=snowflake", "preset=leaf", "preset=zk-session", "preset=zxid", "preset=sonyflake"} {
		t.Run(preset, func(t *testing.T) {
			dir := t.TempDir()
			config := preset + " worker=lease lease_dir=" + dir
			var last int64 = -1
			for round := 0; round < 3; round++ {
				g, err := OpenString(config)
				require.NoError(t, err)
				for i := 0; i < 1000; i++ {
					id := next(t, g)
					require.Greater(t, id, last)
					last = id
				}
				require.NoError(t, g.Close())
			}
		})
	}
}

func TestLeaseRestartAfterWallClockSetBack(t *testing.T) {
	// One pair for the time layout: another, never used, would be taken at once.
	for _, preset := range []string{"preset=zk-session", "preset=zxid", "layout=time:41,seq:22 max_wait=50ms"} {
		t.Run(preset, func(t *testing.T) {
			dir := t.TempDir()
			c, err := config.Parse(preset + " worker=lease lease_dir=" + dir)
			require.NoError(t, err)
			plantRecord(t, dir, c, 0) // a manual clock never passes a missing record's wait
			g, err := Open(c, Options{Clock: clock.NewManualClock(nowMs)})
			require.NoError(t, err)
			var last int64
			for i := 0; i < 1000; i++ { // within one tick: the manual clock stands still
				last = next(t, g)
			}
			require.NoError(t, g.Close())
			// The next holder's clock reads an hour earlier.
			g2, err := Open(c, Options{Clock: clock.NewManualClock(nowMs - 3600*1000)})
			if c.Scheme == config.SchemeTime {
				require.ErrorIs(t, err, errs.ErrClockBackwards, "a time-based holder refuses rather than reissue")
				return
			}
			require.NoError(t, err)
			defer g2.Close()
			require.Greater(t, next(t, g2), last, "never at or below what the previous holder issued")
		})
	}
}

// writeRecord plants a valid record in the one lease file of dir.
func writeRecord(t *testing.T, dir string, v int64) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "*.lease"))
	require.Len(t, matches, 1)
	body := fmt.Sprintf("idgen-lease 1 %020d %03d ", v, 0)
	require.NoError(t, os.WriteFile(matches[0], []byte(fmt.Sprintf("%s%08x\n", body, crc32.ChecksumIEEE([]byte(body)))), 0o644))
}

// plantRecord writes a valid record for pair 0/0 of c's pool in dir.
func plantRecord(t *testing.T, dir string, c *config.Spec, v int64) {
	t.Helper()
	name := filepath.Join(dir, dirstore.FileName(poolOf(c).Name, lease.Pair{}))
	require.NoError(t, os.WriteFile(name, nil, 0o644))
	writeRecord(t, dir, v)
}

// readRecord reads the one lease file of dir.
func readRecord(t *testing.T, dir string) int64 {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "*.lease"))
	require.Len(t, matches, 1)
	b, err := os.ReadFile(matches[0])
	require.NoError(t, err)
	f := strings.Fields(string(b))
	require.Len(t, f, 7, string(b)) // idgen-lease 2 <issued_up_to> <backwards> <seq> <holder> <crc>
	v, err := strconv.ParseInt(f[2], 10, 64)
	require.NoError(t, err)
	return v
}

func TestLeaseClockBehindRecordWaitsThenFails(t *testing.T) {
	dir := t.TempDir()
	config := "layout=time:41,seq:22 worker=lease lease_dir=" + dir // one pair: no other to take at once
	g, err := OpenString(config)
	require.NoError(t, err)
	next(t, g)
	require.NoError(t, g.Close())

	// A record an hour ahead (as after the wall clock was set back an hour).
	nowTick := time.Now().UnixMilli() - int64(1288834974657)
	writeRecord(t, dir, nowTick+3600*1000)
	start := time.Now()
	_, err = OpenString(config + " max_wait=200ms")
	require.ErrorIs(t, err, errs.ErrClockBackwards)
	require.GreaterOrEqual(t, time.Since(start), 200*time.Millisecond, "waits max_wait first")
	require.Contains(t, err.Error(), "previous holder issued up to")
	require.Contains(t, err.Error(), "clock reads")

	// A record 300 ms ahead: the holder waits it out and starts above it.
	rec := time.Now().UnixMilli() - int64(1288834974657) + 300
	writeRecord(t, dir, rec)
	g = open(t, config, nil)
	// The open returned once the clock had passed the record: measured
	// against the record, not against a start time that a busy host may
	// take after most of the 300 ms went by.
	require.Greater(t, time.Now().UnixMilli()-int64(1288834974657), rec, "waited for the clock to pass the record")
	p, _ := g.Decode(next(t, g))
	require.Greater(t, p.Time, rec)
}

func TestLeaseRecordIsFlushedWhileRunning(t *testing.T) {
	dir := t.TempDir()
	g := open(t, "preset=snowflake worker=lease lease_dir="+dir, nil)
	id := next(t, g)
	p, _ := g.Decode(id)
	time.Sleep(600 * time.Millisecond)
	v := readRecord(t, dir)
	require.GreaterOrEqual(t, v, p.Time+500, "the record is renewed to now + lease_ttl while the generator runs")
}

func TestLeaseOnePoolPerLayoutWhoeverFixesTheDatacenter(t *testing.T) {
	dir := t.TempDir()
	a := open(t, "preset=snowflake worker=lease lease_dir="+dir, nil)
	b := open(t, "preset=leaf worker=lease lease_dir="+dir, nil)
	c := open(t, "preset=snowflake datacenter=0 worker=lease lease_dir="+dir, nil)
	d := open(t, "preset=snowflake datacenter=3 worker=lease lease_dir="+dir, nil)
	e := open(t, "preset=hutool worker=lease lease_dir="+dir, nil)
	pa, _ := a.Decode(next(t, a))
	pb, _ := b.Decode(next(t, b))
	pc, _ := c.Decode(next(t, c))
	pd, _ := d.Decode(next(t, d))
	pe, _ := e.Decode(next(t, e))
	require.Equal(t, [2]int64{0, 0}, [2]int64{pa.Datacenter, pa.Worker})
	require.Equal(t, int64(0), pb.Worker, "another layout is another pool")
	require.Equal(t, [2]int64{0, 1}, [2]int64{pc.Datacenter, pc.Worker}, "datacenter=0 leases from the same pool as pair leasing")
	require.Equal(t, [2]int64{3, 0}, [2]int64{pd.Datacenter, pd.Worker})
	require.Equal(t, [2]int64{0, 2}, [2]int64{pe.Datacenter, pe.Worker}, "hutool has snowflake's layout, unit and epoch: the same pool")
	entries, _ := filepath.Glob(filepath.Join(dir, "*.lease"))
	require.Len(t, entries, 5)
}

func TestLeaseBadDir(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	for _, dir := range []string{file, "/proc/self"} {
		_, err := OpenString("worker=lease lease_dir=" + dir)
		require.ErrorIs(t, err, errs.ErrWorker, dir)
		require.Contains(t, err.Error(), dir)
	}
	_, err := OpenString("worker=lease lease_dir=/nonexistent/idgen-leases")
	require.ErrorIs(t, err, errs.ErrInvalid, "an explicit lease_dir that does not exist is a bad config")
	require.True(t, strings.HasPrefix(err.Error(), "lease_dir:"), err.Error())
}

func TestHutoolDerivations(t *testing.T) {
	require.Equal(t, int32(99162322), hostid.JavaStringHash("hello"), "Java's \"hello\".hashCode()")
	require.Equal(t, int32(1634517500), hostid.JavaStringHash("123456789012"), "overflows like Java's int")
	// MAC ..:00:01 -> (0x00 | 0x01<<8) >> 6 = 4; ..:ff:ff -> 0xffff>>6 = 1023 % 32 = 31.
	require.Equal(t, int64(4), hostid.HutoolDatacenterID([]byte{2, 0xfc, 0, 0, 0, 1}, 31))
	require.Equal(t, int64(31), hostid.HutoolDatacenterID([]byte{1, 2, 3, 4, 0xff, 0xff}, 31))
	require.Equal(t, int64(1), hostid.HutoolDatacenterID(nil, 31), "no MAC: datacenter 1")
	// "4" + "12345" -> "412345".hashCode() = 1535508607 (read from a JVM); & 0xffff = 127; % 32 = 31.
	require.Equal(t, int64(31), hostid.HutoolWorkerID(4, 12345, 31))
	g := open(t, "preset=hutool worker=pid datacenter=mac", nil)
	p, _ := g.Decode(next(t, g))
	dc := hostid.HutoolDatacenterID(hostid.LocalHardwareAddress(), 31)
	require.Equal(t, dc, p.Datacenter)
	require.Equal(t, hostid.HutoolWorkerID(dc, int64(os.Getpid()), 31), p.Worker)
}
