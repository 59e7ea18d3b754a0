package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

// runs=N reads back in the configuration string when it asks for runs,
// and says nothing when it does not (runs=1, the default).
func TestRunsReadBack(t *testing.T) {
	for cfg, want := range map[string]int{
		"preset=snowflake worker=0 runs=1024":                   1024,
		"preset=hutool worker=0 runs=2":                         2,
		"layout=time:41,seq:22 worker=0 runs=0x400":             1024,
		"preset=snowflake worker=0 runs=1":                      0,
		"preset=snowflake worker=0":                             0,
		"layout=time:41,worker:14,seq:8 worker=0 runs=64":       64,
		"preset=snowflake worker=0 runs=16 on_exhausted=borrow": 16,
	} {
		c, err := Parse(cfg)
		require.NoError(t, err, cfg)
		require.Equal(t, want, c.Runs, cfg)
		s := c.String()
		require.Equal(t, want > 1, strings.Contains(s, " runs="), s)
		again, err := Parse(s)
		require.NoError(t, err, s)
		require.Equal(t, c.Runs, again.Runs, s)
	}
}

// Where runs cannot keep their promise (an id at most 1 ms after its run
// was reserved, later runs larger), runs=N is refused, naming the key.
func TestRunsRefused(t *testing.T) {
	for cfg, msg := range map[string]string{
		"preset=snowflake worker=0 runs=0":                "from 1",
		"preset=snowflake worker=0 runs=1025":             "from 0 to 1024",
		"preset=snowflake worker=0 runs=many":             "whole number",
		"preset=sonyflake worker=0 runs=8":                "1ms tick",
		"preset=baidu worker=0 runs=8":                    "1ms tick",
		"preset=baidu-cached worker=0 runs=8":             "own ring",
		"layout=worker:10,time:41,seq:12 worker=0 runs=8": "time field on top",
		"layout=time:41,worker:14,seq:8 worker=0 runs=65": "quarter of one tick's sequence, 64 ",
		"preset=zk-session worker=0 runs=8":               "",
		"preset=rocketmq runs=8":                          "",
	} {
		_, err := Parse(cfg)
		require.Error(t, err, cfg)
		require.ErrorIs(t, err, errs.ErrInvalid, cfg)
		require.True(t, strings.HasPrefix(err.Error(), "runs"), "names runs: %v", err)
		require.Contains(t, err.Error(), msg, cfg)
	}
}
