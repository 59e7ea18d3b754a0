package config

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

func TestNumbersKeys(t *testing.T) {
	c, err := Parse("preset=segment name=orders reset=day tz=Europe/Berlin format='ORD-{yyyy}{MM}{dd}-{seq:6}'")
	require.NoError(t, err)
	require.Equal(t, "Europe/Berlin", c.Numbers.TZ.String())
	require.NotNil(t, c.Periods())
	again, err := Parse(c.String())
	require.NoError(t, err, c.String())
	require.Equal(t, c.String(), again.String())
	require.Contains(t, c.String(), "reset=day tz=Europe/Berlin format=ORD-{yyyy}{MM}{dd}-{seq:6}")

	plain, err := Parse("preset=segment name=tickets format=T-{seq:8}")
	require.NoError(t, err, "format without reset: the value alone")
	require.Nil(t, plain.Periods())

	for _, tt := range []struct{ cfg, key, want string }{
		{"preset=segment name=o reset=day", "reset", "needs format="},
		{"preset=segment name=o tz=UTC format={seq}", "tz", "applies only with reset="},
		{"preset=segment name=o reset=day tz=local format={yyyy}{MM}{dd}-{seq}", "tz", "local is not taken"},
		{"preset=segment name=o reset=week format={seq}", "reset", "want day, month, year or none"},
		{"preset=segment name=o reset=day format={yyyy}{MM}{dd}-{seq} text=base36", "text", "does not apply with format="},
		{"preset=segment name=" + strings.Repeat("a", 56) + " reset=day format={yyyy}{MM}{dd}-{seq}", "name", "at most 55"},
		{"preset=segment name=o reset=day format={yyyy}{MM}{dd}-{seq} store=mysql://u:p@127.0.0.1:3306/db?format=leaf", "reset", "peer"},
		{"preset=segment name=o reset=day format={yyyy}{MM}-{seq}", "format", "does not name the period"},
		{"preset=snowflake reset=day", "reset", "applies only to preset segment"},
		{"preset=snowflake format={seq}", "format", "applies only to preset segment"},
	} {
		_, err := Parse(tt.cfg)
		require.ErrorIs(t, err, errs.ErrInvalid, tt.cfg)
		require.True(t, strings.HasPrefix(err.Error(), tt.key+":"), "%s: %v", tt.cfg, err)
		require.Contains(t, err.Error(), tt.want, tt.cfg)
	}
}
