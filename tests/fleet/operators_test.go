//go:build fleet

// What operators see of the fleet stores: idgen leases on ZooKeeper and
// PostgreSQL pools with held, free and blocked pairs, and the store clock
// skew (max_skew) against a generator whose clock is shifted.
package fleet

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/gen"
)

var cli struct {
	once sync.Once
	path string
	err  error
}

// idgenCLI builds the idgen command once for the fleet tests.
func idgenCLI(t *testing.T) string {
	cli.once.Do(func() {
		cli.path = filepath.Join(work, "idgen")
		out, err := exec.Command("go", "build", "-o", cli.path, filepath.Join(root, "cmd", "idgen")).CombinedOutput()
		if err != nil {
			cli.err = err
			t.Logf("%s", out)
		}
	})
	require.NoError(t, cli.err)
	return cli.path
}

func leases(t *testing.T, cfg string, args ...string) string {
	t.Helper()
	out, err := exec.Command(idgenCLI(t), append([]string{"leases", "-c", cfg}, args...)...).CombinedOutput()
	require.NoError(t, err, string(out))
	require.NotContains(t, string(out), "s3cret", "no password in any output")
	return string(out)
}

// TestLeasesOfFleetStores: three holders on a pool; one killed -9 (blocked
// once the store lets its claim go: its fence is still ahead), one closed
// cleanly (free), one live (held, with its host and pid).
func TestLeasesOfFleetStores(t *testing.T) {
	for _, s := range stores() { // every store lists its pool
		if s.name == "redis" {
			continue // a pool's first open on a Redis started less than 2·max_outage ago waits max_outage (60 s here): redis_list_test.go
		}
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			cfg := "layout=time:41,worker:3,seq:19 lease_ttl=2s max_outage=60s worker=" + s.source(t, 0)
			killed := startHolder(t, cfg, 1000)
			closed := startHolder(t, cfg, 1000)
			live := startHolder(t, cfg, 1000)
			require.Equal(t, []string{"0/0", "0/1", "0/2"}, []string{killed.pair(), closed.pair(), live.pair()})
			time.Sleep(time.Second) // a renewal or two: fences 60 s ahead
			closed.stop()
			require.NoError(t, killed.cmd.Process.Signal(syscall.SIGKILL))
			var out string
			deadline := time.Now().Add(20 * time.Second)
			for {
				out = leases(t, cfg)
				if strings.HasPrefix(out, "datacenter=- worker=0 state=blocked") || time.Now().After(deadline) {
					break
				}
				time.Sleep(200 * time.Millisecond)
			}
			host, _ := os.Hostname()
			lines := strings.Split(strings.TrimSpace(out), "\n")
			require.Len(t, lines, 4, out)
			who := host + `:\d+` // PostgreSQL, MySQL and Redis keep the last holder's name; a ZooKeeper lock node goes with its session, an etcd lock with its lease
			if s.name == "zk" || s.name == "etcd" {
				who = "-"
			}
			assert.Regexp(t, `^datacenter=- worker=0 state=blocked fence=\S+Z holder=`+who+`$`, lines[0], "the killed holder's pair, until its fence")
			assert.Regexp(t, `^datacenter=- worker=1 state=free fence=\S+Z holder=-$`, lines[1])
			assert.Regexp(t, `^datacenter=- worker=2 state=held fence=\S+Z holder=`+host+`:`+strconv.Itoa(live.cmd.Process.Pid)+`$`, lines[2])
			assert.Equal(t, "pairs=3 held=1 blocked=1 free=1", lines[3])
			fence, err := time.Parse(time.RFC3339, strings.TrimPrefix(strings.Fields(lines[0])[3], "fence="))
			require.NoError(t, err)
			assert.WithinDuration(t, time.Now().Add(60*time.Second), fence, 20*time.Second, "fence ~ the kill + max_outage")

			var rows []map[string]any
			require.NoError(t, json.Unmarshal([]byte(leases(t, cfg, "--json")), &rows))
			require.Len(t, rows, 3)
			assert.Equal(t, []any{"blocked", "free", "held"}, []any{rows[0]["state"], rows[1]["state"], rows[2]["state"]})
			assert.Nil(t, rows[0]["datacenter"], "the layout has no datacenter")
			assert.Nil(t, rows[1]["holder"])

			// Listing took nothing: a new holder takes the free pair.
			next := startHolder(t, cfg, 1000)
			assert.Equal(t, "0/1", next.pair())
			t.Logf("%s: idgen leases:\n%s", s.name, out)
		})
	}
}

// shifted is a clock running off from the real one.
type shifted struct {
	*clock.MonoClock
	by time.Duration
}

func (c shifted) Now() int64 { return c.MonoClock.Now() + int64(c.by) }

func openShifted(t *testing.T, cfg string, by time.Duration) (gen.Generator, error) {
	c, err := config.Parse(cfg)
	require.NoError(t, err)
	g, err := gen.Open(c, gen.Options{Clock: shifted{clock.NewMonoClock(), by}})
	if err == nil {
		t.Cleanup(func() { g.Close() })
	}
	return g, err
}

// TestMaxSkew: a generator whose clock runs 10 s ahead of the store's is
// refused with IDGEN_ECLOCK naming both clocks under max_skew=2s, opens
// under max_skew=30s, and reports the skew in its stats either way.
func TestMaxSkew(t *testing.T) {
	for _, s := range stores()[:2] {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			src := "preset=snowflake lease_ttl=2s worker=" + s.source(t, 0)
			_, err := openShifted(t, src+" max_skew=2s", 10*time.Second)
			require.ErrorIs(t, err, errs.ErrClockBackwards)
			msg := err.Error()
			assert.Regexp(t, `max_skew=2s: this host's clock reads \d{4}-\d\d-\d\dT\S+Z, the lease store's \d{4}-\d\d-\d\dT\S+Z \(\d+(\.\d+)?s apart\)`, msg)
			assert.NotContains(t, msg, "s3cret")

			g, err := openShifted(t, src+" max_skew=30s", 10*time.Second)
			require.NoError(t, err)
			skew := gen.StatsOf(g).SkewMs
			assert.InDelta(t, 10000, skew, 1500, "the stats report the skew measured at open")
			time.Sleep(2 * time.Second) // renewals measure again
			assert.InDelta(t, 10000, gen.StatsOf(g).SkewMs, 1500)

			plain, err := openShifted(t, src, 0)
			require.NoError(t, err)
			assert.InDelta(t, 0, gen.StatsOf(plain).SkewMs, 1500, "the same host and store: no skew to speak of")
			assert.Contains(t, g.Config(), "max_skew=30s", "the configuration string keeps max_skew")
			t.Logf("%s: skew of a clock 10 s ahead: %d ms; of the real clock: %d ms; refused: %s", s.name, skew, gen.StatsOf(plain).SkewMs, msg)
		})
	}
}
