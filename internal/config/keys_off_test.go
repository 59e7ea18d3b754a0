package config

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

// lease=off is read on numeric presets and segment, printed only when
// off (so it survives a round trip), refused on text presets and for any
// other value.
func TestLeaseOff(t *testing.T) {
	for _, cfg := range []string{"lease=off", "preset=zxid worker=lease lease=off", "worker=zk://127.0.0.1:2181 lease=off", "preset=segment name=orders lease=off"} {
		c, err := Parse(cfg)
		require.NoError(t, err, cfg)
		require.True(t, c.LeaseOff, cfg)
		require.Contains(t, c.String(), " lease=off", cfg)
		again, err := Parse(c.String())
		require.NoError(t, err, cfg)
		require.True(t, again.LeaseOff, cfg)
	}
	c, err := Parse("worker=3 lease=on")
	require.NoError(t, err)
	require.False(t, c.LeaseOff)
	require.NotContains(t, c.String(), "lease=")
	_, err = Parse("lease=no")
	require.ErrorIs(t, err, errs.ErrInvalid)
	require.ErrorContains(t, err, "lease: want on")
	_, err = Parse("preset=uuidv7 lease=off")
	require.ErrorIs(t, err, errs.ErrInvalid)
	require.ErrorContains(t, err, "lease: does not apply to text preset uuidv7")
}

// KeyTable has a row per row of the table, every key among them, each
// with presets and a default; lease's row applies to the numeric presets
// and segment.
func TestKeyTableRows(t *testing.T) {
	rows := KeyTable()
	require.Len(t, rows, len(keys))
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.Name] = true
		require.NotEmpty(t, r.Applies, r.Name)
		require.NotEmpty(t, r.Default, r.Name)
	}
	for _, k := range Keys() {
		require.True(t, seen[k], k)
	}
	last := rows[len(rows)-1]
	require.Equal(t, "lease\tsnowflake,hutool,mybatis-plus,leaf,baidu,baidu-cached,sonyflake,sonyflake-v2,js53,zk-session,zxid,segment\ton", last.String())
	require.Equal(t, "boost\tbaidu-cached\t3", rows[9].String())
}
