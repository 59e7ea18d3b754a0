package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen"
)

// explain --keys prints the key table a row a line: name, presets,
// default, tab-separated; every key appears; lease=off's row applies to
// the numeric presets and segment, not to a text preset; another word or
// a configuration with it is a usage error.
func TestExplainKeys(t *testing.T) {
	code, out, errOut := cli(t, "", "explain", "--keys")
	require.Equal(t, 0, code, errOut)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Equal(t, idgen.KeyTable(), lines, "the library's table, as it is")
	names := map[string]bool{}
	for _, l := range lines {
		cols := strings.Split(l, "\t")
		require.Len(t, cols, 3, l)
		require.NotEmpty(t, cols[1], l)
		require.NotEmpty(t, cols[2], l)
		names[cols[0]] = true
	}
	for _, k := range []string{"preset", "layout", "unit", "epoch", "worker", "datacenter", "lease", "lease_dir", "max_wait", "step", "text", "runs"} {
		require.True(t, names[k], "%s is listed", k)
	}
	require.Equal(t, "preset\tsnowflake,hutool,mybatis-plus,leaf,baidu,baidu-cached,sonyflake,sonyflake-v2,js53,zk-session,zxid,rocketmq,rocketmq-v1,uuidv7,ulid,segment\tsnowflake", lines[0])
	require.Contains(t, lines, "worker\tsnowflake,hutool,mybatis-plus,leaf,baidu,baidu-cached,sonyflake,sonyflake-v2,js53,zk-session,zxid\tlease")
	require.Contains(t, lines, "step\tsegment\t1000")
	var lease string
	for _, l := range lines {
		if strings.HasPrefix(l, "lease\t") {
			lease = l
		}
	}
	require.Contains(t, lease, "zxid,segment\ton")
	require.NotContains(t, lease, "uuidv7")

	for _, args := range [][]string{{"explain", "--keys", "-c", "worker=0"}, {"explain", "--keys", "--svg", "x.svg"}, {"next", "--keys"},
		{"explain", "--fields", "-c", "worker=0"}, {"explain", "--keys", "--fields"}, {"next", "--fields"}} {
		code, out, errOut := cli(t, "", args...)
		require.Equal(t, 2, code, "%v: %q %q", args, out, errOut)
		require.Contains(t, errOut, "usage: idgen ", args)
	}
}

// explain --fields prints the names layout= accepts, one a line: each
// opens as a layout, and a name not listed is refused.
func TestExplainFields(t *testing.T) {
	code, out, errOut := cli(t, "", "explain", "--fields")
	require.Equal(t, 0, code, errOut)
	fields := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	require.Equal(t, idgen.LayoutFields(), fields)
	require.Subset(t, fields, []string{"time", "datacenter", "worker", "seq"})
	for _, f := range fields {
		_, err := idgen.Explain("layout=" + f + ":3,time:41 worker=0")
		if f == "time" {
			require.ErrorContains(t, err, "appears twice")
			continue
		}
		require.NotContains(t, errText(err), "unknown field", f)
	}
	_, err := idgen.Explain("layout=time:41,nosuch:3 worker=0")
	require.ErrorContains(t, err, `unknown field "nosuch"`)
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
