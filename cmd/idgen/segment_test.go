package main

import (
	"errors"
	"flag"
	"os"
	"os/exec"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestSegmentWords(t *testing.T) {
	dir := t.TempDir()
	cfg := "preset=segment name=orders lease_dir=" + dir
	code, out, errOut := cli(t, "", "next", "-n", "3", "-c", cfg)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "1\n2\n3\n", out)
	code, out, _ = cli(t, "", "next", "-n", "2", "-c", cfg+" text=base62")
	require.Equal(t, 0, code)
	require.Equal(t, "00000000004\n00000000005\n", out, "a clean close gave the rest back: no gap")
	code, out, _ = cli(t, "", "decode", "-c", "preset=segment name=orders store=zk://127.0.0.1:1", "42")
	require.Equal(t, 0, code, "decode opens no store")
	require.Equal(t, "id=42 sequence=42\n", out)
	code, out, _ = cli(t, "", "explain", "-c", cfg)
	require.Equal(t, 0, code)
	require.Contains(t, out, `counter "orders"`)
	code, _, errOut = cli(t, "", "explain", "--svg", dir+"/x.svg", "-c", cfg)
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "no bit layout")
	code, _, errOut = cli(t, "", "next", "-c", "preset=segment name=orders worker=lease")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "worker: does not apply to preset segment")
}

// A counter at INT64_MAX: explain and leases never print the wrapped
// -9223372036854775808; a used-up counter has no next value.
func TestSegmentNearInt64Max(t *testing.T) {
	dir := t.TempDir()
	cfg := "preset=segment name=last start=9223372036854775807 lease_dir=" + dir
	code, out, errOut := cli(t, "", "explain", "-c", cfg)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, "9223372036854775807 only")
	require.NotContains(t, out, "-9223372036854775808")
	code, out, errOut = cli(t, "", "next", "-c", cfg)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, "9223372036854775807\n", out)
	code, out, errOut = cli(t, "", "leases", "-c", cfg)
	require.Equal(t, 0, code, errOut)
	require.Equal(t, `counter=last store="lease_dir `+dir+`" last=9223372036854775807 next=-`+"\n", out)
	code, out, errOut = cli(t, "", "leases", "--json", "-c", cfg)
	require.Equal(t, 0, code, errOut)
	require.Contains(t, out, `"last":9223372036854775807,"next":null`)
}

// TestCLIProcess is not a test: run as a child (IDGEN_TEST_CLI set), it is
// the idgen command with the arguments after the test flags.
func TestCLIProcess(t *testing.T) {
	if os.Getenv("IDGEN_TEST_CLI") == "" {
		t.Skip("a helper process")
	}
	os.Exit(run(flag.Args(), os.Stdin, os.Stdout, os.Stderr))
}

// idgen leases of a host-directory counter and pool where /var/tmp/idgen
// does not exist (a private /var/tmp, in a mount namespace) says there is
// nothing and creates no directory.
func TestLeasesCreateNoHostDirectory(t *testing.T) {
	self := `"$0" -test.run='^TestCLIProcess$' leases -c`
	script := `mount -t tmpfs tmpfs /var/tmp || exit 99
` + self + ` 'preset=segment name=orders' && ` + self + ` 'preset=snowflake' && echo "left: $(ls -A /var/tmp)"`
	cmd := exec.Command("unshare", "-rm", "sh", "-c", script, os.Args[0])
	cmd.Env = append(os.Environ(), "IDGEN_TEST_CLI=1")
	out, err := cmd.CombinedOutput()
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) && ee.ExitCode() == 99 || errors.Is(err, exec.ErrNotFound) {
		t.Skipf("no private mount namespace here: %v %s", err, out)
	}
	require.NoError(t, err, string(out))
	require.Equal(t, `counter=orders store="lease_dir /var/tmp/idgen" last=- next=1
pairs=0 held=0 blocked=0 free=0
left: 
`, string(out))
}
