package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestMetricName(t *testing.T) {
	for cfg, want := range map[string]string{
		"":                        "snowflake",
		"worker=3":                "snowflake",
		"name=orders preset=leaf": "orders",
		"preset=leaf":             "leaf",
		"preset=leaf layout=time:41,backwards:2,worker:8,seq:12": "leaf",
		"layout=time:41,worker:10,seq:12":                        "custom",
		"unit=10ms":                                              "custom",
		"preset=ulid":                                            "ulid",
		"preset=zxid worker=0":                                   "zxid",
	} {
		c, err := Parse(cfg)
		require.NoError(t, err, cfg)
		require.Equal(t, want, c.MetricName(), cfg)
		again, err := Parse(c.String())
		require.NoError(t, err)
		require.Equal(t, want, again.MetricName(), "from the configuration string of %q", cfg)
	}
}
