//go:build fleet

// Package fleet tests the fleet lease stores against real servers: a
// 3-node ZooKeeper ensemble and a PostgreSQL cluster, started by TestMain
// with tests/servers/*.sh and stopped at the end, also when a test fails.
// The holders are real processes (build/holder, a C program on the built
// library; IDGEN_BUILD names another build directory); faults are real:
// kill -9, SIGSTOP, a frozen TCP proxy, a killed leader, a crashed
// database.
//
//	make test-fleet    (builds build/holder and build/tcpproxy first)
package fleet

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/layout"
)

var (
	root      string // the repository
	build     string // the build outputs: $IDGEN_BUILD (make test-fleet sets it to $(BUILD)), else <root>/build
	work      string // servers' data
	zkConnect string // 127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3
	pgURL     string // postgres://idgen:s3cret@127.0.0.1:port/idgen?sslmode=disable
)

func TestMain(m *testing.M) {
	if os.Getenv(envNumbers) != "" { // a helper process of numbers_test.go
		os.Exit(numberHelper())
	}
	os.Exit(run(m))
}

func run(m *testing.M) int {
	wd, _ := os.Getwd()
	root = filepath.Join(wd, "..", "..")
	build = os.Getenv("IDGEN_BUILD")
	if build == "" {
		build = filepath.Join(root, "build")
	}
	var err error
	if work, err = os.MkdirTemp("", "idgen-fleet-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(work)
	_ = os.Chmod(work, 0o755) // the database runs as another user
	snapshotHosts()           // before the other suites of make test rebuild the wheel and the jar
	zkDir, pgDir := filepath.Join(work, "zk"), filepath.Join(work, "pg")
	defer script("zk.sh", "stop", zkDir)
	defer script("pg.sh", "stop", pgDir)
	start := time.Now()
	if out, err := script("zk.sh", "start", zkDir); err != nil {
		fmt.Fprintf(os.Stderr, "fleet: cannot start ZooKeeper: %v\n%s", err, out)
		return 1
	}
	fmt.Printf("fleet: ZooKeeper ensemble up in %s\n", time.Since(start).Round(time.Millisecond))
	start = time.Now()
	if out, err := script("pg.sh", "start", pgDir); err != nil {
		fmt.Fprintf(os.Stderr, "fleet: cannot start PostgreSQL: %v\n%s", err, out)
		return 1
	}
	fmt.Printf("fleet: PostgreSQL up in %s\n", time.Since(start).Round(time.Millisecond))
	zkConnect = readTrim(filepath.Join(zkDir, "connect"))
	pgURL = readTrim(filepath.Join(pgDir, "url"))
	for _, x := range extra {
		dir := filepath.Join(work, x.name)
		defer x.stop(dir)
		start = time.Now()
		if err := x.start(dir); err != nil {
			fmt.Fprintf(os.Stderr, "fleet: cannot start %s: %v\n", x.name, err)
			return 1
		}
		fmt.Printf("fleet: %s up in %s\n", x.name, time.Since(start).Round(time.Millisecond))
	}
	return m.Run()
}

// server is a store besides ZooKeeper and PostgreSQL: its file registers
// it from init, TestMain starts it in work/<name> (and stops it, also on
// failure), and every test that ranges over stores() runs on it too.
type server struct {
	name  string
	start func(dir string) error // dir: its data directory, made by start
	stop  func(dir string)
	store func() store // called after start
}

var extra []server

func register(s server) { extra = append(extra, s) }

func script(name string, args ...string) (string, error) {
	out, err := exec.Command(filepath.Join(root, "tests", "servers", name), args...).CombinedOutput()
	return string(out), err
}

func readTrim(p string) string {
	b, _ := os.ReadFile(p)
	return strings.TrimSpace(string(b))
}

// store is one coordinator under test.
type store struct {
	name string
	// source returns a worker= value for a pool private to the test
	// (its own root znode or table), optionally through a proxy port.
	source func(t *testing.T, proxyPort int) string
	// target is host:port[,...] a proxy forwards to.
	target string
}

var uniq struct {
	sync.Mutex
	n int
}

func nextUniq() int {
	uniq.Lock()
	defer uniq.Unlock()
	uniq.n++
	return uniq.n
}

func stores() []store {
	out := []store{
		{name: "zk", target: zkConnect, source: func(t *testing.T, proxy int) string {
			hosts := zkConnect
			if proxy > 0 {
				hosts = "127.0.0.1:" + strconv.Itoa(proxy)
			}
			return "zk://" + hosts + "/" + testRoot(t)
		}},
		{name: "pg", target: strings.SplitN(strings.TrimPrefix(pgURL, "postgres://idgen:s3cret@"), "/", 2)[0], source: func(t *testing.T, proxy int) string {
			u := pgURL
			if proxy > 0 {
				host := strings.SplitN(strings.TrimPrefix(pgURL, "postgres://idgen:s3cret@"), "/", 2)[0]
				u = strings.Replace(u, host, "127.0.0.1:"+strconv.Itoa(proxy), 1)
			}
			return u + " lease_table=" + testRoot(t)
		}},
	}
	for _, x := range extra {
		out = append(out, x.store())
	}
	return out
}

// testRoot names a pool space private to one test (and store).
func testRoot(t *testing.T) string {
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		if r >= 'A' && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return '_'
	}, t.Name())
	if len(name) > 40 {
		name = name[len(name)-40:]
	}
	return "t" + strconv.Itoa(os.Getpid()%10000) + "_" + strings.Trim(name, "_")
}

// holder is a running build/holder process.
type holder struct {
	t      *testing.T
	cmd    *exec.Cmd
	file   string
	cfg    string // its idgen_config_string, "" if open failed
	open   string // "open CODE MESSAGE" when open failed
	lines  chan string
	exited chan struct{}
}

func startHolder(t *testing.T, cfg string, pauseUs int) *holder {
	t.Helper()
	h := &holder{t: t, file: filepath.Join(t.TempDir(), "ids"), lines: make(chan string, 1000), exited: make(chan struct{})}
	h.cmd = exec.Command(filepath.Join(build, "holder"), cfg, h.file, strconv.Itoa(pauseUs))
	out, err := h.cmd.StdoutPipe()
	require.NoError(t, err)
	h.cmd.Stderr = os.Stderr
	require.NoError(t, h.cmd.Start())
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			h.lines <- sc.Text()
		}
		close(h.lines)
		_ = h.cmd.Wait()
		close(h.exited)
	}()
	t.Cleanup(func() {
		_ = h.cmd.Process.Signal(syscall.SIGCONT)
		_ = h.cmd.Process.Kill()
		<-h.exited
	})
	select {
	case line, ok := <-h.lines:
		require.True(t, ok, "holder printed nothing")
		switch {
		case strings.HasPrefix(line, "config "):
			h.cfg = strings.TrimPrefix(line, "config ")
		case strings.HasPrefix(line, "open "):
			h.open = line
		default:
			t.Fatalf("holder said %q", line)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("holder did not open within 30 s")
	}
	return h
}

// pair is the leased=D/W of the holder's configuration string.
func (h *holder) pair() string {
	for _, f := range strings.Fields(h.cfg) {
		if v, ok := strings.CutPrefix(f, "leased="); ok {
			return v
		}
	}
	return ""
}

// waitStatus waits for a "status CODE" line and returns its unix ms.
func (h *holder) waitStatus(code int, within time.Duration) (int64, string) {
	h.t.Helper()
	deadline := time.After(within)
	prefix := "status " + strconv.Itoa(code) + " "
	for {
		select {
		case line, ok := <-h.lines:
			if !ok {
				h.t.Fatalf("holder exited before status %d", code)
			}
			if strings.HasPrefix(line, prefix) {
				f := strings.SplitN(line, " ", 4)
				ms, _ := strconv.ParseInt(f[2], 10, 64)
				return ms, line
			}
		case <-deadline:
			h.t.Fatalf("no status %d within %s", code, within)
		}
	}
}

func (h *holder) signal(s syscall.Signal) { require.NoError(h.t, h.cmd.Process.Signal(s)) }

// stop ends the holder cleanly (SIGTERM: it closes its generator).
func (h *holder) stop() {
	h.signal(syscall.SIGTERM)
	select {
	case <-h.exited:
	case <-time.After(20 * time.Second):
		h.t.Fatal("holder did not exit on SIGTERM")
	}
}

func (h *holder) ids() []int64 {
	b, err := os.ReadFile(h.file)
	require.NoError(h.t, err)
	ids := make([]int64, len(b)/8)
	for i := range ids {
		ids[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return ids
}

// noDuplicates checks that the holders' ids are all distinct and that each
// holder's ids strictly increase.
func noDuplicates(t *testing.T, hs ...*holder) int {
	t.Helper()
	var all []int64
	for _, h := range hs {
		ids := h.ids()
		for i := 1; i < len(ids); i++ {
			if ids[i] <= ids[i-1] {
				require.Greater(t, ids[i], ids[i-1], "a holder's ids increase (at %d of %d)", i, len(ids))
			}
		}
		all = append(all, ids...)
	}
	slices.Sort(all)
	for i := 1; i < len(all); i++ {
		if all[i-1] == all[i] {
			require.NotEqual(t, all[i-1], all[i], "duplicate id")
		}
	}
	return len(all)
}

// unixMs decodes an id's time under cfg's layout.
func unixMs(t *testing.T, cfg string, id int64) int64 {
	d := timeDecoder(t, cfg)
	return d.epochMs + (id>>d.shift&d.max)*d.unitMs
}

// timeDecoder is cfg's time field, parsed once per configuration: the
// checks decode every id a holder wrote (hundreds of thousands in the
// outage tests), and parsing the configuration for each took half a
// minute per test.
func timeDecoder(t *testing.T, cfg string) decoded {
	if d, ok := decoders.Load(cfg); ok {
		return d.(decoded)
	}
	c, err := config.Parse(cfg)
	require.NoError(t, err)
	f, _ := c.Layout.Field(layout.FieldTime)
	d := decoded{epochMs: c.EpochMs, shift: f.Shift, max: f.Max(), unitMs: c.Unit.Milliseconds()}
	decoders.Store(cfg, d)
	return d
}

type decoded struct {
	epochMs, max, unitMs int64
	shift                uint
}

var decoders sync.Map // configuration string → decoded

const ttl = 2 * time.Second

func TestSixteenHoldersDistinctPairsNoDuplicates(t *testing.T) {
	for _, s := range stores() {
		t.Run(s.name, func(t *testing.T) {
			cfg := "preset=snowflake lease_ttl=2s max_outage=2s worker=" + s.source(t, 0)
			hs := make([]*holder, 16)
			var wg sync.WaitGroup
			for i := range hs {
				wg.Add(1)
				go func(i int) { defer wg.Done(); hs[i] = startHolder(t, cfg, 100) }(i)
			}
			wg.Wait()
			pairs := map[string]bool{}
			for _, h := range hs {
				require.Empty(t, h.open)
				require.NotEmpty(t, h.pair(), h.cfg)
				require.False(t, pairs[h.pair()], "pair %s twice", h.pair())
				pairs[h.pair()] = true
			}
			time.Sleep(time.Second)
			for _, h := range hs {
				h.stop()
			}
			n := noDuplicates(t, hs...)
			t.Logf("%s: 16 holders, 16 distinct pairs, %d ids, 0 duplicates", s.name, n)
			if s.name == "pg" {
				out, err := script("pg.sh", "psql", filepath.Join(work, "pg"),
					"SELECT count(*) FROM pg_class WHERE relname = '"+testRoot(t)+"'")
				require.NoError(t, err, out)
				require.Equal(t, "1", strings.TrimSpace(out), "the table was created once although 16 raced")
			}
		})
	}
}

func TestPoolOfFourFifthWaitsForAClose(t *testing.T) {
	for _, s := range stores() {
		t.Run(s.name, func(t *testing.T) {
			cfg := "layout=time:41,worker:2,seq:20 lease_ttl=2s max_outage=2s worker=" + s.source(t, 0)
			var hs []*holder
			for i := 0; i < 4; i++ {
				h := startHolder(t, cfg, 200)
				require.Empty(t, h.open)
				hs = append(hs, h)
			}
			fifth := startHolder(t, cfg, 200)
			require.True(t, strings.HasPrefix(fifth.open, "open -5 "), fifth.open)
			require.Contains(t, fifth.open, "all 4 pairs")
			hs[1].stop()
			again := startHolder(t, cfg, 200)
			require.Empty(t, again.open, "a pair is free after a close")
			require.Equal(t, hs[1].pair(), again.pair())
			for _, h := range []*holder{hs[0], hs[2], hs[3], again} {
				h.stop()
			}
			noDuplicates(t, hs[0], hs[1], hs[2], hs[3], again)
		})
	}
}

// takeOver starts holders until one opens (the pair's lock is still held
// by a dead or frozen holder for about lease_ttl) and says how long it took.
func takeOver(t *testing.T, cfg string, within time.Duration) (*holder, time.Duration) {
	t.Helper()
	start := time.Now()
	for time.Since(start) < within {
		h := startHolder(t, cfg, 200)
		if h.open == "" {
			return h, time.Since(start)
		}
		require.True(t, strings.HasPrefix(h.open, "open -5 "), h.open)
		time.Sleep(100 * time.Millisecond)
	}
	t.Fatalf("no takeover within %s", within)
	return nil, 0
}

func TestKill9TheSuccessorStartsAbove(t *testing.T) {
	for _, s := range stores() {
		t.Run(s.name, func(t *testing.T) {
			cfg := "layout=time:41,seq:22 lease_ttl=2s max_outage=2s worker=" + s.source(t, 0) // one pair
			a := startHolder(t, cfg, 200)
			require.Empty(t, a.open)
			time.Sleep(500 * time.Millisecond)
			a.signal(syscall.SIGKILL)
			<-a.exited
			b, took := takeOver(t, cfg, 15*time.Second)
			time.Sleep(300 * time.Millisecond)
			b.stop()
			aIDs, bIDs := a.ids(), b.ids()
			require.NotEmpty(t, aIDs)
			require.NotEmpty(t, bIDs)
			require.Greater(t, bIDs[0], aIDs[len(aIDs)-1], "the successor's ids are above the dead holder's")
			t.Logf("%s: pair free %s after kill -9 (lease_ttl %s)", s.name, took.Round(10*time.Millisecond), ttl)
		})
	}
}

func TestSIGSTOPPastTheLeaseNoDuplicates(t *testing.T) {
	for _, s := range stores() {
		t.Run(s.name, func(t *testing.T) {
			cfg := "layout=time:41,seq:22 lease_ttl=2s max_outage=2s worker=" + s.source(t, 0)
			a := startHolder(t, cfg, 50)
			require.Empty(t, a.open)
			time.Sleep(300 * time.Millisecond)
			a.signal(syscall.SIGSTOP)
			b, took := takeOver(t, cfg, 15*time.Second)
			time.Sleep(2*ttl + 500*time.Millisecond - took)
			a.signal(syscall.SIGCONT)
			_, line := a.waitStatus(-5, 10*time.Second)
			require.Contains(t, line, "lease lost")
			time.Sleep(500 * time.Millisecond)
			a.stop()
			b.stop()
			n := noDuplicates(t, a, b)
			t.Logf("%s: frozen holder woke after %s, took %s to notice; successor took over after %s; %d ids, 0 duplicates",
				s.name, 2*ttl+500*time.Millisecond, "≤ one call", took.Round(10*time.Millisecond), n)
		})
	}
}

func TestPartitionStopsTheHolderByItsFence(t *testing.T) {
	for _, s := range stores() {
		t.Run(s.name, func(t *testing.T) {
			proxy := startProxy(t, s.target)
			base := "layout=time:41,seq:22 lease_ttl=2s max_outage=2s worker="
			a := startHolder(t, base+s.source(t, proxy.port), 50)
			require.Empty(t, a.open, a.open)
			time.Sleep(500 * time.Millisecond)
			proxy.freeze()
			frozen := time.Now().UnixMilli()
			stopped, _ := a.waitStatus(-5, 3*ttl)
			b, took := takeOver(t, base+s.source(t, 0), 20*time.Second)
			time.Sleep(500 * time.Millisecond)
			proxy.thaw()
			time.Sleep(time.Second)
			a.stop()
			b.stop()
			aIDs := a.ids()
			require.NotEmpty(t, aIDs)
			last := unixMs(t, a.cfg, aIDs[len(aIDs)-1])
			require.LessOrEqual(t, last, frozen+ttl.Milliseconds()+50, "the cut-off holder issued nothing past its fence")
			n := noDuplicates(t, a, b)
			t.Logf("%s: proxy frozen at %d; last id of the cut-off holder dated %+d ms after the freeze; it reported lease lost %+d ms after; successor took over %s after the freeze; %d ids, 0 duplicates",
				s.name, frozen, last-frozen, stopped-frozen, (took + time.Duration(stopped-frozen)*time.Millisecond).Round(10*time.Millisecond), n)
		})
	}
}

// maxGap is the longest time between two consecutive ids of a holder.
func maxGap(t *testing.T, h *holder) int64 {
	ids := h.ids()
	var g int64
	for i := 1; i < len(ids); i++ {
		g = max(g, unixMs(t, h.cfg, ids[i])-unixMs(t, h.cfg, ids[i-1]))
	}
	return g
}

func TestZooKeeperLeaderKilledAndQuorumLost(t *testing.T) {
	zkDir := filepath.Join(work, "zk")
	cfg := "preset=snowflake lease_ttl=2s max_outage=2s worker=" + stores()[0].source(t, 0)
	var hs []*holder
	for i := 0; i < 4; i++ {
		h := startHolder(t, cfg, 100)
		require.Empty(t, h.open)
		hs = append(hs, h)
	}
	time.Sleep(500 * time.Millisecond)
	out, err := script("zk.sh", "leader", zkDir)
	require.NoError(t, err, out)
	leader := strings.TrimSpace(out)
	_, err = script("zk.sh", "kill", leader, zkDir)
	require.NoError(t, err)
	time.Sleep(3 * ttl)
	var gaps []int64
	for _, h := range hs {
		gaps = append(gaps, maxGap(t, h))
	}
	t.Logf("leader %s killed: the holders went on; longest gap between two ids per holder: %v ms", leader, gaps)
	_, err = script("zk.sh", "start1", leader, zkDir)
	require.NoError(t, err)

	// Two of three down: no quorum, the holders stop by their fence.
	time.Sleep(3 * time.Second)
	var down []string
	for _, n := range []string{"1", "2", "3"} {
		if len(down) < 2 {
			_, _ = script("zk.sh", "kill", n, zkDir)
			down = append(down, n)
		}
	}
	killed := time.Now().UnixMilli()
	for _, h := range hs {
		ms, _ := h.waitStatus(-5, 4*ttl)
		require.LessOrEqual(t, ms, killed+ttl.Milliseconds()+1500, "stops within about lease_ttl")
	}
	for _, n := range down {
		_, err := script("zk.sh", "start1", n, zkDir)
		require.NoError(t, err)
	}
	for _, h := range hs {
		h.waitStatus(0, 30*time.Second) // issuing again, perhaps on another pair
	}
	for _, h := range hs {
		h.stop()
	}
	n := noDuplicates(t, hs...)
	t.Logf("quorum lost at %d; all 4 holders stopped by their fence, resumed after the restart; %d ids, 0 duplicates", killed, n)
}

func TestPostgresCrashStopsHoldersByTheFence(t *testing.T) {
	pgDir := filepath.Join(work, "pg")
	cfg := "preset=snowflake lease_ttl=2s max_outage=2s worker=" + stores()[1].source(t, 0)
	var hs []*holder
	for i := 0; i < 4; i++ {
		h := startHolder(t, cfg, 100)
		require.Empty(t, h.open)
		hs = append(hs, h)
	}
	time.Sleep(500 * time.Millisecond)
	out, err := script("pg.sh", "stop-immediate", pgDir)
	require.NoError(t, err, out)
	crashed := time.Now().UnixMilli()
	for _, h := range hs {
		ms, _ := h.waitStatus(-5, 4*ttl)
		require.LessOrEqual(t, ms, crashed+ttl.Milliseconds()+1500)
	}
	out, err = script("pg.sh", "restart", pgDir)
	require.NoError(t, err, out)
	for _, h := range hs {
		h.waitStatus(0, 30*time.Second)
	}
	for _, h := range hs {
		h.stop()
	}
	n := noDuplicates(t, hs...)
	t.Logf("database crashed at %d: 4 holders stopped by the fence, resumed after restart; %d ids, 0 duplicates", crashed, n)
}

func TestPostgresExpiriesAreBucketed(t *testing.T) {
	cfg := "preset=snowflake lease_ttl=2s max_outage=2s worker=" + stores()[1].source(t, 0)
	var hs []*holder
	for i := 0; i < 3; i++ {
		hs = append(hs, startHolder(t, cfg, 1000))
	}
	time.Sleep(1500 * time.Millisecond)
	out, err := script("pg.sh", "psql", filepath.Join(work, "pg"),
		"SELECT (extract(epoch from expires_at) * 1000)::bigint % 500 FROM "+testRoot(t)+" WHERE holder IS NOT NULL")
	require.NoError(t, err, out)
	rows := strings.Fields(out)
	require.Len(t, rows, 3)
	for _, r := range rows {
		require.Equal(t, "0", r, "expiries fall on 500 ms bucket boundaries (lease_ttl/4)")
	}
	for _, h := range hs {
		h.stop()
	}
}

func TestMixedLanguagesAndDatacentersShareOnePool(t *testing.T) {
	vpy := filepath.Join(build, "venv", "bin", "python")
	jar := javaJars()
	cp := readTrim(filepath.Join(root, "bindings", "java", "target", "cp.txt"))
	host := store{name: "host", source: func(t *testing.T, _ int) string { return "lease lease_dir=" + t.TempDir() }}
	for _, s := range append([]store{host}, stores()...) {
		t.Run(s.name, func(t *testing.T) {
			src := s.source(t, 0)
			cfgPair := "preset=snowflake lease_ttl=2s max_outage=2s worker=" + src
			cfgDC := "preset=snowflake datacenter=0 lease_ttl=2s max_outage=2s worker=" + src
			pairs := map[string]string{}
			add := func(who, pair string) {
				require.NotEmpty(t, pair, who)
				require.NotContains(t, pairs, pair, "%s got %s, already held by %s", who, pair, pairs[pair])
				pairs[pair] = who
			}
			c1 := startHolder(t, cfgPair, 500)
			add("C pair-leasing", c1.pair())
			c2 := startHolder(t, cfgDC, 500)
			add("C datacenter=0", c2.pair())
			c3 := startHolder(t, strings.Replace(cfgDC, "datacenter=0", "datacenter=1", 1), 500)
			add("C datacenter=1", c3.pair())
			require.True(t, strings.HasPrefix(c3.pair(), "1/"), c3.pair())
			var procs []*exec.Cmd
			leased := func(name string, cmd *exec.Cmd) {
				out, err := cmd.StdoutPipe()
				require.NoError(t, err)
				cmd.Stderr = os.Stderr
				stdin, err := cmd.StdinPipe()
				require.NoError(t, err)
				require.NoError(t, cmd.Start())
				t.Cleanup(func() { _ = stdin.Close(); _ = cmd.Wait() })
				sc := bufio.NewScanner(out)
				require.True(t, sc.Scan(), name+" printed nothing")
				line := sc.Text()
				pair := ""
				for _, f := range strings.Fields(line) {
					if v, ok := strings.CutPrefix(f, "leased="); ok {
						pair = v
					}
				}
				add(name, pair)
				procs = append(procs, cmd)
			}
			if _, err := os.Stat(vpy); err == nil {
				leased("Python", exec.Command(vpy, "-c",
					"import idgen, sys\ng = idgen.Generator(sys.argv[1])\ng.next_id()\nprint(g.config, flush=True)\nsys.stdin.read()\ng.close()", cfgPair))
			} else if os.Getenv("IDGEN_FLEET_ALL") != "" {
				t.Fatalf("no Python venv at %s (make test-python builds it)", vpy)
			}
			if len(jar) > 0 && cp != "" {
				leased("Java", exec.Command("java", "--enable-native-access=ALL-UNNAMED", "-cp", jar[0]+":"+cp,
					filepath.Join(root, "tests", "fleet", "JavaHolder.java"), cfgDC))
			} else if os.Getenv("IDGEN_FLEET_ALL") != "" {
				t.Fatalf("no Java jar under bindings/java/target (make test-java builds it)")
			}
			node := exec.Command("node", "-e", "const g = require(process.env.IDGEN_NODE).open(process.argv[1]); g.next(); "+
				"console.log(g.config); process.stdin.on('data', () => {}); process.stdin.on('end', () => g.close()); process.stdin.resume()", cfgPair)
			node.Env = append(os.Environ(), "IDGEN_NODE="+filepath.Join(root, "bindings", "node"), "IDGEN_LIBRARY="+filepath.Join(build, "libidgen.so"))
			if _, err := os.Stat(filepath.Join(root, "bindings", "node", "node_modules", "koffi")); err == nil {
				leased("Node.js", node)
			} else if os.Getenv("IDGEN_FLEET_ALL") != "" {
				t.Fatalf("no koffi under bindings/node (make test-node installs it)")
			}
			rust := filepath.Join(build, "rust", "debug", "examples", "holder")
			if _, err := os.Stat(rust); err == nil {
				cmd := exec.Command(rust, cfgDC)
				cmd.Env = append(os.Environ(), "LD_LIBRARY_PATH="+build) // a crate's users find libidgen.so on the loader's path
				leased("Rust", cmd)
			} else if os.Getenv("IDGEN_FLEET_ALL") != "" {
				t.Fatalf("no Rust holder at %s (make test-rust builds it)", rust)
			}
			t.Logf("%s: %d generators from C, Python, Java, Node.js and Rust, pair-leasing and datacenter=0, hold distinct pairs: %v", s.name, len(pairs), pairs)
			c1.stop()
			c2.stop()
			c3.stop()
		})
	}
}

func TestBadSourcesFailBoundedAndClearly(t *testing.T) {
	pgHost := stores()[1].target
	tests := []struct {
		name, cfg, code, want string
		within                time.Duration
	}{
		{"zk malformed", "worker=zk://127.0.0.1", "-1", "worker:", time.Second},
		{"zk bad port", "worker=zk://127.0.0.1:99999", "-1", "port", time.Second},
		{"zk unreachable", "lease_ttl=1s worker=zk://127.0.0.1:1", "-5", "unreachable", 8 * time.Second},
		{"pg malformed", "worker=postgres://", "-1", "worker:", time.Second},
		{"pg unreachable", "lease_ttl=1s worker=postgres://idgen:s3cret@127.0.0.1:1/idgen?sslmode=disable", "-5", "127.0.0.1:1", 8 * time.Second},
		{"pg wrong password", "worker=postgres://idgen:hunter2@" + pgHost + "/idgen?sslmode=disable", "-5", "authentication failed", 8 * time.Second},
		{"pg table with a quote", "worker=" + pgURL + ` lease_table='x";drop table y;--'`, "-1", "lease_table", time.Second},
		{"pg table with a semicolon", "worker=" + pgURL + " lease_table='t;drop'", "-1", "lease_table", time.Second},
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
	// A wrong ZooKeeper password: the nodes belong to another identity.
	good := "lease_ttl=2s max_outage=2s worker=zk://alice:right@" + zkConnect + "/" + testRoot(t)
	a := startHolder(t, good, 500)
	require.Empty(t, a.open)
	require.NotContains(t, a.cfg, "right@", "no password in the configuration string")
	b := startHolder(t, "lease_ttl=2s max_outage=2s worker=zk://alice:hunter2@"+zkConnect+"/"+testRoot(t), 500)
	require.True(t, strings.HasPrefix(b.open, "open -5 "), b.open)
	require.Contains(t, b.open, "not authorized")
	require.NotContains(t, b.open, "hunter2")
	a.stop()
	out, err := script("pg.sh", "psql", filepath.Join(work, "pg"), "SELECT count(*) FROM pg_class WHERE relname IN ('y', 't')")
	require.NoError(t, err, out)
	require.Equal(t, "0", strings.TrimSpace(out), "nothing was executed from lease_table")
}
