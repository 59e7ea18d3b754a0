package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// idgen serve refuses, before it listens, what it must not serve: a
// non-loopback address without tokens, a bad --gen, no generator, a token
// file others may read, a generator that cannot open — and no message
// holds a configuration's password.
func TestServeRefusesAtStart(t *testing.T) {
	loose := filepath.Join(t.TempDir(), "tokens")
	require.NoError(t, os.WriteFile(loose, []byte("a-token-of-some-length *\n"), 0o644))
	require.NoError(t, os.Chmod(loose, 0o644))
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"serve", "--listen", "0.0.0.0:0", "--gen", "u=preset=uuidv7"}, 2, "is not a loopback address: give --token-file"},
		{[]string{"serve", "--listen", "[::]:0", "--gen", "u=preset=uuidv7"}, 2, "is not a loopback address"},
		{[]string{"serve", "--listen", "127.0.0.1:0"}, 1, "no generator to serve"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--gen", "uuids"}, 2, "--gen wants NAME=CONFIG"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--gen", "a/b=preset=uuidv7"}, 2, "--gen wants NAME=CONFIG"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--gen", "u=preset=uuidv7", "--gen", "u=preset=ulid"}, 1, "the name is given twice"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--gen", "u=bogus=1"}, 1, "--gen u: bogus: unknown key"},
		{[]string{"serve", "--listen", "127.0.0.1:0", "--gen", "s=preset=segment name=x store=mysql://u:hunter2-secret@127.0.0.1:1/db"}, 1, "--gen s: "},
		{[]string{"serve", "--listen", "0.0.0.0:0", "--token-file", loose, "--gen", "u=preset=uuidv7"}, 1, "chmod 600"},
		{[]string{"serve", "-c", "preset=uuidv7", "--gen", "u=preset=uuidv7"}, 2, "serve does not take -c"},
		{[]string{"serve", "--gen", "u=preset=uuidv7", "extra"}, 2, "no arguments"},
		{[]string{"serve", "--listen", "nonsense", "--gen", "u=preset=uuidv7"}, 2, "not a loopback address"},
	}
	secret := filepath.Join(t.TempDir(), "gens")
	require.NoError(t, os.WriteFile(secret, []byte("# generators\ns=preset=segment name=x store=mysql://u:hunter2-secret@127.0.0.1:1/db\n"), 0o600))
	bad := filepath.Join(t.TempDir(), "gens")
	require.NoError(t, os.WriteFile(bad, []byte("\nnot-a-gen-line\n"), 0o600))
	cases = append(cases,
		struct {
			args []string
			code int
			want string
		}{[]string{"serve", "--listen", "127.0.0.1:0", "--gen-file", loose}, 1, "--gen-file " + loose + ": mode 0644"},
		struct {
			args []string
			code int
			want string
		}{[]string{"serve", "--listen", "127.0.0.1:0", "--gen-file", secret}, 1, "--gen s: "},
		struct {
			args []string
			code int
			want string
		}{[]string{"serve", "--listen", "127.0.0.1:0", "--gen-file", bad}, 1, "line 2: --gen wants NAME=CONFIG"})
	for _, c := range cases {
		code, out, errOut := cli(t, "", c.args...)
		require.Equal(t, c.code, code, "%v: %q %q", c.args, out, errOut)
		require.Contains(t, errOut, c.want, c.args)
		require.NotContains(t, errOut, "hunter2", "a password in a message")
	}
}
