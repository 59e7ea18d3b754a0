package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

func TestMaxSkewOnlyWithAStoreClock(t *testing.T) {
	for _, cfg := range []string{"worker=zk://127.0.0.1:2181", "worker=postgres://u:p@127.0.0.1/db", "worker=mysql://u:p@127.0.0.1:3306/db", "worker=redis://127.0.0.1:6379"} {
		c, err := Parse(cfg + " max_skew=250ms")
		require.NoError(t, err, cfg)
		require.Equal(t, 250*time.Millisecond, c.MaxSkew)
		again, err := Parse(c.String())
		require.NoError(t, err)
		require.Equal(t, c.MaxSkew, again.MaxSkew, "the configuration string keeps it")
		require.NotContains(t, c.String(), ":p@", "no password")
	}
	for cfg, why := range map[string]string{
		"worker=3 max_skew=1s":                           "applies only with a lease store that has a clock",
		"max_skew=1s":                                    "the host lease directory has no clock",
		"worker=etcd://127.0.0.1:2379 max_skew=1s":       "etcd has no clock",
		"worker=zk://127.0.0.1:2181 max_skew=0s":         "want from 1ms",
		"worker=zk://127.0.0.1:2181 max_skew=soon":       "max_skew",
		"preset=uuidv7 max_skew=1s":                      "max_skew",
		"worker=postgres://u:p@127.0.0.1/db max_skew=2d": "max_skew",
	} {
		_, err := Parse(cfg)
		require.ErrorIs(t, err, errs.ErrInvalid, cfg)
		require.Contains(t, err.Error(), "max_skew", cfg)
		require.Contains(t, err.Error(), why, cfg)
	}
	c, err := Parse("worker=zk://127.0.0.1:2181")
	require.NoError(t, err)
	require.Zero(t, c.MaxSkew, "by default the skew is only reported")
}
