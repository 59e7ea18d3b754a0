package config

import (
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

// worker=ordinal reads the host name's trailing -N when $IDGEN_ORDINAL is
// not set: the test runs itself again in a UTS namespace of its own (as
// root, with unshare from util-linux, which CI has) under host names a
// StatefulSet would give and some it would not.
func TestOrdinalFromTheHostName(t *testing.T) {
	if name := os.Getenv("IDGEN_TEST_HOSTNAME_CHILD"); name != "" {
		ordinalChild(t, name)
		return
	}
	if os.Geteuid() != 0 {
		t.Fatal("this test sets a host name in a UTS namespace of its own and needs root (CI runs as root)")
	}
	for _, name := range []string{"web-3", "idgen-api-12.svc.cluster.local", "web", "web-3a", "web-2000"} {
		cmd := exec.Command("unshare", "--uts", "sh", "-c", `hostname "$1" && exec "$2" -test.run '^TestOrdinalFromTheHostName$' -test.count=1`, "sh", name, os.Args[0])
		cmd.Env = append(os.Environ(), "IDGEN_TEST_HOSTNAME_CHILD="+name)
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "host name %s: %s", name, out)
	}
}

func ordinalChild(t *testing.T, name string) {
	os.Unsetenv("IDGEN_ORDINAL")
	h, err := os.Hostname()
	require.NoError(t, err)
	require.Equal(t, name, h, "the namespace's host name")
	c, err := Parse("preset=snowflake worker=ordinal")
	want := map[string]int64{"web-3": 3, "idgen-api-12.svc.cluster.local": 12}
	if n, ok := want[name]; ok {
		require.NoError(t, err)
		require.Equal(t, n, c.Worker)
		return
	}
	require.Error(t, err)
	require.True(t, errors.Is(err, errs.ErrInvalid))
	msg := err.Error()
	require.True(t, strings.HasPrefix(msg, "worker: ordinal: "), msg)
	if name == "web-2000" {
		require.Contains(t, msg, "above the worker field's largest value 31")
	} else {
		require.Contains(t, msg, "does not end in -N")
	}
}
