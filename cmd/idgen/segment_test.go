package main

import (
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
