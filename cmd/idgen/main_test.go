package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func cli(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestWordsOutputsAndExitCodes(t *testing.T) {
	snow := "preset=snowflake worker=0"
	tests := []struct {
		name  string
		stdin string
		args  []string
		code  int
		out   string // a fragment of stdout ("" for none)
		err   string // a fragment of stderr
	}{
		{"decode", "", []string{"decode", "-c", snow, "910499571847892992"}, 0,
			"id=910499571847892992 unix_ms=1505914988849 time=2017-09-20T13:43:08.849Z datacenter=17 worker=25 sequence=0\n", ""},
		{"flags after the word", "", []string{"decode", "910499571847892992", "--config=" + snow}, 0, "worker=25", ""},
		{"flags before the word", "", []string{"-c", snow, "decode", "910499571847892992"}, 0, "worker=25", ""},
		{"hex", "", []string{"decode", "-c", snow, "0xca2be895c239000"}, 0, "id=910499571847892992", ""},
		{"json", "", []string{"decode", "--json", "-c", "preset=zxid worker=0", "21474836487"}, 0, `{"id": 21474836487, "sequence": 7, "epoch": 5}`, ""},
		{"stdin", "910499571847892992\n\n1\n", []string{"decode", "-c", snow}, 0, "sequence=1\n", ""},
		{"decode takes no lease", "", []string{"decode", "-c", "preset=snowflake worker=zk://127.0.0.1:1", "1"}, 0, "id=1", ""},
		{"garbage id", "", []string{"decode", "-c", snow, "12abc"}, 1, "", `"12abc" is not an id`},
		{"negative id", "", []string{"decode", "-c", snow, "-5"}, 1, "", "negative"},
		{"bad config", "", []string{"next", "-c", "bogus=1"}, 1, "", "idgen: bogus: unknown key"},
		{"format", "", []string{"format", "--fixed", "910499571847892992"}, 0, "15G63YLn9Ae\n", ""},
		{"format base 36", "", []string{"format", "-b", "36", "35"}, 0, "z\n", ""},
		{"parse", "", []string{"parse", "15G63YLn9Ae"}, 0, "910499571847892992\n", ""},
		{"parse garbage", "", []string{"parse", "!!"}, 1, "", "not a base-62 digit"},
		{"explain", "", []string{"explain", "-c", snow}, 0, "workers: 1024 (32 datacenters x 32 workers)", ""},
		{"explain baidu", "", []string{"explain", "-c", "preset=baidu"}, 0, "time field runs out: 2024-11-20T13:24:16Z (year 2024)", ""},
		{"unknown word", "", []string{"bogus"}, 2, "", "unknown word"},
		{"unknown flag", "", []string{"next", "--nope"}, 2, "", "unknown flag"},
		{"missing value", "", []string{"next", "-c"}, 2, "", "-c needs a value"},
		{"bad -n", "", []string{"next", "-n", "x"}, 2, "", "-n wants"},
		{"no word", "", nil, 2, "", "which word"},
		{"help", "", []string{"-h"}, 0, "usage:", ""},
		{"help on a word", "", []string{"decode", "-h"}, 0, "usage: idgen decode", ""},
		{"format without ids", "", []string{"format"}, 2, "", "format needs ids"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := cli(t, tt.stdin, tt.args...)
			require.Equal(t, tt.code, code, "stdout %q stderr %q", out, errs)
			require.Contains(t, out, tt.out)
			require.Contains(t, errs, tt.err)
			require.NotContains(t, errs, "goroutine", "never a panic trace")
		})
	}
}

func TestNextPrintsIncreasingIDs(t *testing.T) {
	code, out, _ := cli(t, "", "next", "-n", "10000", "-c", "layout=time:41,seq:22 worker=0")
	require.Equal(t, 0, code)
	lines := strings.Fields(out)
	require.Len(t, lines, 10000)
	prev := int64(-1)
	for _, l := range lines {
		v, err := strconv.ParseInt(l, 10, 64)
		require.NoError(t, err)
		require.Greater(t, v, prev)
		prev = v
	}
}

func TestExplainWritesAnSVG(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "snowflake.svg")
	code, _, errs := cli(t, "", "explain", "-c", "preset=snowflake worker=0", "--svg", svg)
	require.Equal(t, 0, code, errs)
	b, err := os.ReadFile(svg)
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(string(b), "<svg "))
	require.Equal(t, 5, strings.Count(string(b), "<rect"), "the sign bit and four fields")
	require.Contains(t, string(b), "time 41")
	require.Contains(t, string(b), "time:41,datacenter:5,worker:5,seq:12")
	code, _, errs = cli(t, "", "explain", "--svg", "/nonexistent/dir/x.svg", "-c", "worker=0")
	require.Equal(t, 1, code)
	require.Contains(t, errs, "--svg")
}

func TestTextPresetsInTheCLI(t *testing.T) {
	rq := "preset=rocketmq ip=10.1.2.3 pid=4660 loader_hash=305419896 tz=UTC"
	code, out, errOut := cli(t, "", "next", "-n", "3", "-c", rq)
	require.Equal(t, 0, code, errOut)
	lines := strings.Fields(out)
	require.Len(t, lines, 3)
	for i, l := range lines {
		require.Len(t, l, 32)
		require.True(t, strings.HasPrefix(l, "0A010203123412345678"), l)
		require.True(t, strings.HasSuffix(l, "000"+strconv.Itoa(i)), "counter %d in %s", i, l)
	}
	code, out, _ = cli(t, lines[1]+"\n", "decode", "-c", rq)
	require.Equal(t, 0, code)
	require.Regexp(t, `^unix_ms=\d+ time=\S+Z sequence=1 pid=4660 loader_hash=305419896 ip=10.1.2.3\n$`, out)
	code, out, _ = cli(t, "", "decode", "--json", "-c", "preset=rocketmq-v1", "0102FC000000011170000000010000002A")
	require.Equal(t, 0, code)
	require.Equal(t, `{"unix_ms": 1609459201000, "time": "2021-01-01T00:00:01Z", "sequence": 42, "pid": 4464, "mac": "02:fc:00:00:00:01"}`+"\n", out)
	code, _, errOut = cli(t, "", "decode", "-c", rq, "0A01")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "not a rocketmq id")
	code, _, errOut = cli(t, "", "explain", "-c", rq, "--svg", filepath.Join(t.TempDir(), "x.svg"))
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "no bit layout")
	code, out, _ = cli(t, "", "explain", "-c", "preset=rocketmq-v1")
	require.Equal(t, 0, code)
	require.Contains(t, out, "seconds since 2021-01-01T00:00:00Z")

	b62 := "preset=snowflake worker=3 text=base62"
	code, out, _ = cli(t, "", "next", "-n", "2", "-c", b62)
	require.Equal(t, 0, code)
	ids := strings.Fields(out)
	require.Len(t, ids[0], 11)
	require.Less(t, ids[0], ids[1], "fixed-width base62 sorts like the numbers")
	code, out, _ = cli(t, "", "decode", "-c", b62, ids[0])
	require.Equal(t, 0, code)
	require.Contains(t, out, "worker=3")
	code, out, _ = cli(t, "", "parse", "-b", "62", ids[0])
	require.Equal(t, 0, code)
	_, out2, _ := cli(t, "", "decode", "-c", b62, strings.TrimSpace(out))
	require.Contains(t, out2, "id="+strings.TrimSpace(out)+" ", "decimal input still decodes")
}

// A flag that does not belong to the word is a usage error (exit 2), never
// silently ignored; before or after the word alike.
func TestFlagsOfAnotherWordAreUsageErrors(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "x.svg")
	for _, args := range [][]string{
		{"next", "--svg", svg},
		{"next", "--svg=" + svg},
		{"--svg", svg, "next"},
		{"next", "--json"},
		{"next", "--fixed"},
		{"next", "-b", "36"},
		{"format", "--json", "5"},
		{"format", "-c", "worker=0", "5"},
		{"format", "-n", "2", "5"},
		{"format", "--svg", svg, "5"},
		{"parse", "--fixed", "5"},
		{"parse", "--json", "5"},
		{"parse", "--config=worker=0", "5"},
		{"decode", "-n", "2", "-c", "worker=0", "5"},
		{"decode", "--fixed", "-c", "worker=0", "5"},
		{"decode", "--svg", svg, "-c", "worker=0", "5"},
		{"explain", "--json", "-c", "worker=0"},
		{"explain", "-n", "3", "-c", "worker=0"},
		{"explain", "--base", "36", "-c", "worker=0"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, out, errOut := cli(t, "", args...)
			require.Equal(t, 2, code, "stdout %q stderr %q", out, errOut)
			require.Equal(t, "", out, "nothing done")
			require.Contains(t, errOut, "does not take")
			require.Contains(t, errOut, "usage: idgen ")
		})
	}
	_, err := os.Stat(svg)
	require.True(t, os.IsNotExist(err), "no --svg written by a word that does not draw")
	// Each word's own flags still work, long and short.
	for _, args := range [][]string{
		{"next", "-n", "1", "--config", "worker=0"},
		{"decode", "--json", "-c", "worker=0", "5"},
		{"explain", "-c", "worker=0", "--svg", svg},
		{"format", "--base", "36", "--fixed", "5"},
		{"parse", "-b", "36", "5"},
		{"parse", "-h"},
		{"-h"},
	} {
		code, out, errOut := cli(t, "", args...)
		require.Equal(t, 0, code, "%v: stdout %q stderr %q", args, out, errOut)
	}
}
