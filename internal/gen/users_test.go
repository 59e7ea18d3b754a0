package gen

import (
	"bufio"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
)

// throwawayUser makes (once) a system user for the test and returns its uid.
func throwawayUser(t *testing.T, name string) string {
	t.Helper()
	if u, err := user.Lookup(name); err == nil {
		return u.Uid
	}
	out, err := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name).CombinedOutput()
	require.NoError(t, err, string(out))
	u, err := user.Lookup(name)
	require.NoError(t, err)
	return u.Uid
}

// Two unprivileged users share the host's default lease directory: both
// lease, distinct pairs, no duplicates, and neither can write the other's
// lease file.
func TestTwoUsersShareTheDefaultDirectory(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root: it runs the holders as two throwaway users (CI runs as root)")
	}
	if _, err := exec.LookPath("setpriv"); err != nil {
		t.Skip("needs setpriv (util-linux)")
	}
	// Root makes the default directory, as an operator would.
	s, err := dirstore.Open(config.DefaultLeaseDir, false)
	require.NoError(t, err)
	s.Close()

	uids := []string{throwawayUser(t, "idgen-t1"), throwawayUser(t, "idgen-t2")}
	shared, err := os.MkdirTemp("/var/tmp", "idgen-users-")
	require.NoError(t, err)
	defer os.RemoveAll(shared)
	require.NoError(t, os.Chmod(shared, 0o777|os.ModeSticky))
	bin := filepath.Join(shared, "gen.test")
	data, err := os.ReadFile(os.Args[0])
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(bin, data, 0o755))

	cfg := "layout=time:41,worker:6,seq:16" // the default lease in the default directory
	var cmds []*exec.Cmd
	var pairs []string
	for i, uid := range uids {
		cmd := exec.Command("setpriv", "--reuid="+uid, "--regid="+uid, "--clear-groups", "--", bin, "-test.run=^$")
		cmd.Env = append(os.Environ(), "IDGEN_TEST_HELPER=hold", "CONFIG="+cfg, "MS=1500",
			"OUT="+filepath.Join(shared, "ids"+string(rune('0'+i))), "HOME=/")
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		line, _ := bufio.NewReader(out).ReadString('\n')
		j := strings.Index(line, "leased=")
		require.GreaterOrEqual(t, j, 0, "user %s: %q", uid, line)
		pairs = append(pairs, strings.Fields(line[j:])[0])
		cmds = append(cmds, cmd)
	}
	require.NotEqual(t, pairs[0], pairs[1], "distinct pairs")

	// While both hold: each file belongs to its user, and the other cannot write it.
	c, _ := config.Parse(cfg)
	var files []string
	for i, p := range pairs {
		dc, w, _ := config.ParseLeased(strings.TrimPrefix(p, "leased="))
		f := filepath.Join(config.DefaultLeaseDir, dirstore.FileName(poolOf(c).Name, lease.Pair{DC: dc, Worker: w}))
		var st syscall.Stat_t
		require.NoError(t, syscall.Stat(f, &st))
		require.Equal(t, uids[i], itoa(int64(st.Uid)), "the lease file belongs to its user")
		files = append(files, f)
	}
	before, _ := os.ReadFile(files[0])
	err = exec.Command("setpriv", "--reuid="+uids[1], "--regid="+uids[1], "--clear-groups", "--",
		"/bin/sh", "-c", "echo overwritten > "+files[0]).Run()
	require.Error(t, err, "user 2 cannot write user 1's lease file")
	after, _ := os.ReadFile(files[0])
	require.Equal(t, before, after)

	var all []int64
	for i, cmd := range cmds {
		require.NoError(t, cmd.Wait())
		all = append(all, readIDs(t, filepath.Join(shared, "ids"+string(rune('0'+i))))...)
	}
	require.NotEmpty(t, all)
	requireUnique(t, all)
}
