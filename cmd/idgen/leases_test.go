package main

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen"
)

// TestLeaseHolderProcess is not a test: run by TestLeasesOfTheHostDirectory
// as a child (IDGEN_TEST_HOLD set), it holds a lease until killed.
func TestLeaseHolderProcess(t *testing.T) {
	cfg := os.Getenv("IDGEN_TEST_HOLD")
	if cfg == "" {
		t.Skip("a helper process")
	}
	g, err := idgen.Open(cfg)
	require.NoError(t, err)
	_, err = g.Next()
	require.NoError(t, err)
	os.Stdout.WriteString("holding " + leasedWorker(g.Config()) + "\n")
	time.Sleep(time.Minute)
}

// leasedWorker is the worker of leased=D/W in a configuration string.
func leasedWorker(cfg string) string {
	for _, f := range strings.Fields(cfg) {
		if v, ok := strings.CutPrefix(f, "leased="); ok {
			return v[strings.IndexByte(v, '/')+1:]
		}
	}
	return "?"
}

// TestLeasesOfTheHostDirectory: a held pair (a live child), a blocked one
// (a child killed -9: its fence is ahead, nobody holds it), a free one (a
// clean close), read without taking anything. (Each open in a new
// directory waits one max_outage first, so the three open at once.)
func TestLeasesOfTheHostDirectory(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700))
	cfg := "preset=snowflake worker=lease lease_dir=" + dir + " max_outage=10s lease_ttl=1s"
	type child struct {
		cmd    *exec.Cmd
		worker chan string
	}
	holder := func() child {
		cmd := exec.Command(os.Args[0], "-test.run=^TestLeaseHolderProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), "IDGEN_TEST_HOLD="+cfg)
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		c := child{cmd, make(chan string, 1)}
		go func() {
			line, _ := bufio.NewReader(out).ReadString('\n')
			c.worker <- strings.TrimPrefix(strings.TrimSpace(line), "holding ")
		}()
		return c
	}
	killed, live := holder(), holder()
	g, err := idgen.Open(cfg) // closed cleanly below
	require.NoError(t, err)
	_, err = g.Next()
	require.NoError(t, err)
	freeW := leasedWorker(g.Config())
	require.NoError(t, g.Close())
	killedW, liveW := <-killed.worker, <-live.worker
	require.ElementsMatch(t, []string{"0", "1", "2"}, []string{killedW, liveW, freeW})
	require.NoError(t, killed.cmd.Process.Signal(syscall.SIGKILL))
	_, _ = killed.cmd.Process.Wait()

	code, out, errOut := cli(t, "", "leases", "-c", cfg)
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 4, out)
	host, _ := os.Hostname()
	byWorker := map[string]string{}
	for _, l := range lines[:3] {
		byWorker[strings.Fields(l)[1]] = l
	}
	blocked := byWorker["worker="+killedW]
	require.Regexp(t, `^datacenter=0 worker=\d state=blocked fence=\S+Z holder=-$`, blocked, "the host directory forgets a dead holder")
	require.Regexp(t, `^datacenter=0 worker=\d state=held fence=\S+Z holder=`+host+`:`+strconv.Itoa(live.cmd.Process.Pid)+`$`, byWorker["worker="+liveW])
	require.Regexp(t, `^datacenter=0 worker=\d state=free fence=\S+Z holder=-$`, byWorker["worker="+freeW])
	require.Equal(t, "pairs=3 held=1 blocked=1 free=1", lines[3])
	fence, err := time.Parse(time.RFC3339, strings.Fields(blocked)[3][len("fence="):])
	require.NoError(t, err)
	require.WithinDuration(t, time.Now().Add(10*time.Second), fence, 5*time.Second, "the killed holder's fence: now + max_outage")

	code, out, errOut = cli(t, "", "leases", "--json", "-c", cfg)
	require.Equal(t, 0, code, errOut)
	var rows []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &rows))
	require.Len(t, rows, 3)
	for _, r := range rows {
		w := strconv.Itoa(int(r["worker"].(float64)))
		want := map[string]string{killedW: "blocked", liveW: "held", freeW: "free"}[w]
		require.Equal(t, want, r["state"], "worker %s", w)
		if want != "held" {
			require.Nil(t, r["holder"])
		}
	}
	// Listing took nothing: a second listing reads the same (but for the
	// live holder's fence, which its renewals move).
	_, again, _ := cli(t, "", "leases", "-c", cfg)
	unfenced := regexp.MustCompile(`fence=\S+`)
	require.Equal(t, unfenced.ReplaceAllString(strings.Join(lines, "\n"), "fence"), unfenced.ReplaceAllString(strings.TrimSpace(again), "fence"))
	code, _, errOut = cli(t, "", "leases", "-c", "worker=7")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "worker: this configuration takes no lease")
	code, _, _ = cli(t, "", "leases", "-n", "3")
	require.Equal(t, 2, code, "a flag of another word")
}
