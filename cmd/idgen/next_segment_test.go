package main

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// idgen next -n 5 on a counter with 3 values left prints the 3, then
// fails saying the counter ended (issue 32's fuzz: it printed nothing and
// the 3 were lost); the next call has nothing left.
func TestNextPrintsWhatIsLeftOfACounter(t *testing.T) {
	dir := t.TempDir()
	cfg := "preset=segment name=last start=9223372036854775805 lease_dir=" + dir
	code, out, errOut := cli(t, "", "next", "-n", "5", "-c", cfg)
	require.NotEqual(t, 0, code)
	require.Equal(t, "9223372036854775805\n9223372036854775806\n9223372036854775807\n", out)
	require.Contains(t, errOut, "INT64_MAX")
	code, out, errOut = cli(t, "", "next", "-n", "2", "-c", cfg)
	require.NotEqual(t, 0, code)
	require.Empty(t, out)
	require.Contains(t, errOut, "INT64_MAX")
}
