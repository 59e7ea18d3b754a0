//go:build fleet

package fleet

// The outage tests' holders: build/holder processes whose status, ids and
// lease lines (idgen_get_stats' state as it changes) are watched as they
// come.

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Lease states as the holder prints them (IDGEN_LEASE_*).
const (
	leaseHeld   = 1
	leaseRiding = 2
	leaseLost   = 3
)

// event is one line a watched holder printed after its configuration.
type event struct {
	kind string // "status" or "lease"
	code int64  // the status code, or the lease state
	ms   int64  // the holder's clock when it happened (unix ms)
	pair string // lease: the pair held ("D/W")
	line string
}

// watched is a holder whose status and lease-state lines are collected.
type watched struct {
	*holder
	openedAt time.Time // when its configuration (or open failure) line came
	mu       sync.Mutex
	evs      []event
}

const statsEveryMs = 10

// launch starts build/holder with its stats thread; it does not fail the
// test (it may run on another goroutine).
func launch(t *testing.T, cfg string, pauseUs int) (*watched, error) {
	h := &holder{t: t, file: filepath.Join(t.TempDir(), "ids"), lines: make(chan string, 1000), exited: make(chan struct{})}
	h.cmd = exec.Command(filepath.Join(build, "holder"), cfg, h.file, strconv.Itoa(pauseUs), strconv.Itoa(statsEveryMs))
	out, err := h.cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	h.cmd.Stderr = os.Stderr
	if err := h.cmd.Start(); err != nil {
		return nil, err
	}
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
	w := &watched{holder: h}
	select {
	case line, ok := <-h.lines:
		switch {
		case !ok:
			return nil, fmt.Errorf("holder printed nothing")
		case strings.HasPrefix(line, "config "):
			h.cfg = strings.TrimPrefix(line, "config ")
		case strings.HasPrefix(line, "open "):
			h.open = line
		default:
			return nil, fmt.Errorf("holder said %q", line)
		}
	case <-time.After(30 * time.Second):
		return nil, fmt.Errorf("holder did not open within 30 s")
	}
	w.openedAt = time.Now()
	go func() {
		for line := range h.lines {
			f := strings.Fields(line)
			if len(f) < 3 || f[0] != "status" && f[0] != "lease" {
				continue
			}
			e := event{kind: f[0], line: line}
			e.code, _ = strconv.ParseInt(f[1], 10, 64)
			e.ms, _ = strconv.ParseInt(f[2], 10, 64)
			if e.kind == "lease" && len(f) > 3 {
				e.pair = f[3]
			}
			w.mu.Lock()
			w.evs = append(w.evs, e)
			w.mu.Unlock()
		}
	}()
	return w, nil
}

func startWatched(t *testing.T, cfg string, pauseUs int) *watched {
	t.Helper()
	w, err := launch(t, cfg, pauseUs)
	require.NoError(t, err)
	require.Empty(t, w.open, "open failed")
	return w
}

// startWatchedAll starts n holders of cfg at once and waits until every
// one opened: a store that makes a newcomer wait (Redis after a restart)
// makes them wait together, not one after the other.
func startWatchedAll(t *testing.T, cfg string, n, pauseUs int) []*watched {
	t.Helper()
	hs := make([]*watched, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range hs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hs[i], errs[i] = launch(t, cfg, pauseUs)
		}()
	}
	wg.Wait()
	for i, w := range hs {
		require.NoError(t, errs[i])
		require.Empty(t, w.open, "open failed")
	}
	return hs
}

// first is the first event of kind with code at or after ms, if any.
func (w *watched) first(kind string, code, ms int64) (event, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, e := range w.evs {
		if e.kind == kind && e.code == code && e.ms >= ms {
			return e, true
		}
	}
	return event{}, false
}

// await waits for the first event of kind with code at or after ms.
func (w *watched) await(kind string, code, ms int64, within time.Duration) (event, error) {
	deadline := time.Now().Add(within)
	for {
		if e, ok := w.first(kind, code, ms); ok {
			return e, nil
		}
		if time.Now().After(deadline) {
			return event{}, fmt.Errorf("holder %s: no %s %d within %s; its lines: %s", w.pair(), kind, code, within, w.transcript())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func (w *watched) mustAwait(kind string, code, ms int64, within time.Duration) event {
	w.t.Helper()
	e, err := w.await(kind, code, ms, within)
	require.NoError(w.t, err)
	return e
}

// failures are the status lines with an error code.
func (w *watched) failures() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var out []string
	for _, e := range w.evs {
		if e.kind == "status" && e.code != 0 {
			out = append(out, e.line)
		}
	}
	return out
}

// lastPair is the pair of its latest lease line.
func (w *watched) lastPair() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := len(w.evs) - 1; i >= 0; i-- {
		if w.evs[i].kind == "lease" {
			return w.evs[i].pair
		}
	}
	return ""
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	l := strings.Split(s, "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}

// transcript is every line collected, one a line.
func (w *watched) transcript() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var b strings.Builder
	for _, e := range w.evs {
		b.WriteString("\n\t" + e.line)
	}
	return b.String()
}

// idsBetween counts the holder's ids dated in [from, to] (unix ms).
func idsBetween(t *testing.T, h *holder, from, to int64) int {
	n := 0
	for _, id := range h.ids() {
		if ms := unixMs(t, h.cfg, id); ms >= from && ms <= to {
			n++
		}
	}
	return n
}

// lastIDBefore is the time of the holder's last id dated before ms.
func lastIDBefore(t *testing.T, h *holder, ms int64) int64 {
	last := int64(-1)
	for _, id := range h.ids() {
		if m := unixMs(t, h.cfg, id); m < ms {
			last = m
		}
	}
	return last
}

// idsSoFar reads a holder's ids file, which it creates just after it
// prints its configuration: none yet if it is not there.
func idsSoFar(file string) []int64 {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil
	}
	ids := make([]int64, len(b)/8)
	for i := range ids {
		ids[i] = int64(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return ids
}

func nowMs() int64 { return time.Now().UnixMilli() }

func asHolders(ws []*watched) []*holder {
	hs := make([]*holder, len(ws))
	for i, w := range ws {
		hs[i] = w.holder
	}
	return hs
}

// ---- the servers ------------------------------------------------------------

func zkDir() string { return filepath.Join(work, "zk") }
func pgDir() string { return filepath.Join(work, "pg") }

// zkServing waits until the ensemble has a leader and at least followers
// followers (1: a quorum serves; 2: all three are back) and says when.
func zkServing(t *testing.T, followers int, within time.Duration) time.Time {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		modes := map[string]int{}
		for _, n := range []string{"1", "2", "3"} {
			out, _ := script("zk.sh", "mode", n, zkDir())
			modes[strings.TrimSpace(out)]++
		}
		if modes["leader"] == 1 && modes["follower"] >= followers {
			return time.Now()
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("the ZooKeeper ensemble did not serve again within %s", within)
	return time.Time{}
}

// zkStopAll kills the three servers (kill -9); the returned function
// starts them again (and runs at cleanup if the test did not).
func zkStopAll(t *testing.T) (restart func()) {
	t.Helper()
	for _, n := range []string{"1", "2", "3"} {
		out, err := script("zk.sh", "kill", n, zkDir())
		require.NoError(t, err, out)
	}
	var once sync.Once
	restart = func() {
		once.Do(func() {
			for _, n := range []string{"1", "2", "3"} {
				out, err := script("zk.sh", "start1", n, zkDir())
				require.NoError(t, err, out)
			}
		})
	}
	t.Cleanup(func() {
		restart()
		zkServing(t, 2, 60*time.Second)
	})
	return restart
}

// pgStop stops PostgreSQL (pg_ctl stop -m fast); the returned function
// starts it again (and runs at cleanup if the test did not).
func pgStop(t *testing.T) (restart func()) {
	t.Helper()
	out, err := script("pg.sh", "stop", pgDir())
	require.NoError(t, err, out)
	var once sync.Once
	restart = func() {
		once.Do(func() {
			out, err := script("pg.sh", "restart", pgDir())
			require.NoError(t, err, out)
		})
	}
	t.Cleanup(restart)
	return restart
}
