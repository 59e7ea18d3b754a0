package gen

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
)

// asUser runs sh -c script as uid (setpriv, util-linux).
func asUser(t *testing.T, uid, script string) {
	t.Helper()
	out, err := exec.Command("setpriv", "--reuid="+uid, "--regid="+uid, "--clear-groups", "--", "sh", "-c", script).CombinedOutput()
	require.NoError(t, err, string(out))
}

// Another local user plants the pool marker (<pool>.pool) in a shared
// 1777 directory before root's first zxid open — an empty file, a symlink,
// or a world-writable one: it is ignored like any planted file (never
// written), and root's generator opens and issues.
func TestPoolMarkerPlantedByAnotherUserIsIgnored(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: it plants the marker as a throwaway user (CI runs as root)")
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("needs setpriv (util-linux)")
	}
	uid := throwawayUser(t, "idgen-t1")
	plants := map[string]string{
		"empty file":          "printf '' > %[1]s",
		"symlink":             "ln -s /etc/hostname %[1]s",
		"world-writable file": "printf 'idgen-pool 1\\n' > %[1]s && chmod 666 %[1]s",
		"file listing pair 0": "printf 'idgen-pool 1\\npair 0.0\\n' > %[1]s",
	}
	for what, script := range plants {
		t.Run(what, func(t *testing.T) {
			dir, err := os.MkdirTemp("/var/tmp", "idgen-marker-")
			require.NoError(t, err)
			defer os.RemoveAll(dir)
			require.NoError(t, os.Chmod(dir, 0o777|os.ModeSticky))
			cfg := "preset=zxid lease_dir=" + dir
			c, err := config.Parse(cfg)
			require.NoError(t, err)
			planted := filepath.Join(dir, poolOf(c).Name+".pool")
			asUser(t, uid, fmt.Sprintf(script, planted))
			before, _ := os.Readlink(planted)
			beforeData, _ := os.ReadFile(planted)

			g := openWith(t, cfg, nil, nil)
			id, err := g.Next()
			require.NoError(t, err, "root's zxid opens and issues beside a planted marker")
			require.GreaterOrEqual(t, id, int64(0))
			require.NoError(t, g.Close())
			after, _ := os.Readlink(planted)
			afterData, _ := os.ReadFile(planted)
			require.Equal(t, before, after, "the planted marker is never written")
			require.Equal(t, beforeData, afterData, "the planted marker is never written")

			// Root keeps a marker of its own: a record of root's that is
			// lost later is still seen as lost (refused), not as new.
			require.NoError(t, os.Remove(filepath.Join(dir, dirstore.FileName(poolOf(c).Name, lease.Pair{}))))
			_, err = openErr(cfg)
			require.ErrorIs(t, err, errs.ErrWorker, "a lost record of root's is refused, not taken as new")
		})
	}
}

// A pair that never had a record opens at once, however long max_outage
// is: the marker lists the pairs that had one. One generator holds pair
// 0; a second with max_outage=30s takes pair 1 and issues at its clock's
// own tick (its clock never moves, and max_wait is 100 ms: any wait for
// a lost record would fail the open). A pair whose record was lost still
// waits.
func TestNeverUsedPairOpensAtOnce(t *testing.T) {
	dir := t.TempDir()
	base := "layout=time:41,worker:1,seq:21 lease_dir=" + dir
	clk := clock.NewManualClock(nowMs)
	first := openWith(t, base, nil, nil) // the real clock: it waits out the unmarked pool
	_, err := first.Next()
	require.NoError(t, err)
	second := openWith(t, base+" lease_ttl=1s max_outage=30s max_wait=100ms", clk, nil)
	id, err := second.Next()
	require.NoError(t, err)
	p, err := second.Decode(id)
	require.NoError(t, err)
	require.Equal(t, int64(1), p.Worker)
	require.Equal(t, nowMs, p.UnixMs, "issued at the clock, not above a floor for a lost record")
	require.Equal(t, nowMs+30_000, StatsOf(second).FenceUnixMs, "its fence: the clock + max_outage")
	require.NoError(t, second.Close())

	// Pair 1 had a record: removed, it is lost, and the open waits for
	// what its holder may have issued (longer than max_wait here).
	c, err := config.Parse(base)
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(dir, dirstore.FileName(poolOf(c).Name, lease.Pair{Worker: 1}))))
	_, err = openErr(base + " lease_ttl=1s max_outage=30s max_wait=100ms")
	require.ErrorIs(t, err, errs.ErrClockBackwards, "a lost record is waited for")
}

// openErr opens cfg with the real clock and store, closing what opens.
func openErr(cfg string) (Generator, error) {
	c, err := config.Parse(cfg)
	if err != nil {
		return nil, err
	}
	g, err := Open(c, Options{})
	if err == nil {
		g.Close()
	}
	return g, err
}
