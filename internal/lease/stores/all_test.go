package stores

import (
	"errors"
	"slices"
	"testing"

	"github.com/idgen/idgen/internal/errs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every row opens leases and counters; every URL store parses its own
// schemes into its own kind, redacted.
func TestEveryRowIsComplete(t *testing.T) {
	kinds := map[string]bool{}
	for _, r := range rows {
		require.NotEmpty(t, r.Kind)
		require.False(t, kinds[string(r.Kind)], "kind %s twice", r.Kind)
		kinds[string(r.Kind)] = true
		require.NotNil(t, r.Leases, r.Kind)
		require.NotNil(t, r.Counters, r.Kind)
		require.NotZero(t, r.DefaultTTL, r.Kind)
		require.GreaterOrEqual(t, r.DefaultOutage, r.DefaultTTL, r.Kind)
		require.True(t, r.Clock || r.NoClock != "", r.Kind)
		if r.Kind == HostDir().Kind {
			continue
		}
		require.NotNil(t, r.Parse, r.Kind)
		for _, s := range slices.Concat(r.Schemes, r.Aliases) {
			u, err := Parse(s + "://u:s3cret@h:1/x")
			if err != nil { // a store that refuses this path says so in its own words
				assert.True(t, errors.Is(err, errs.ErrInvalid), s)
				assert.NotContains(t, err.Error(), "s3cret")
				continue
			}
			assert.Equal(t, r.Kind, u.Kind, s)
			assert.NotContains(t, u.Redacted+u.Where, "s3cret", s)
			assert.NotEmpty(t, u.Where, s)
		}
	}
}

// The lists messages name come from the table, in its order (DESIGN's
// wording: the messages are a fixed contract).
func TestNames(t *testing.T) {
	assert.Equal(t, "zk://, postgres://, mysql://, redis:// or etcd://", Names(nil, false, "://"))
	assert.Equal(t, "postgres://… or mysql://…", Names(func(p Props) bool { return p.Tables }, false, "://…"))
	assert.Equal(t, "zk://, postgres://, mysql:// or redis://", Names(func(p Props) bool { return p.Clock }, false, "://"))
	_, err := Parse("foo://h")
	require.Error(t, err)
	assert.Equal(t, `worker: unknown coordinator "foo://" (want zk://, postgres://, mysql://, mariadb://, redis://, rediss://, etcd:// or etcds://)`, err.Error())
}

// A row without read-only openers falls back on its plain ones; the
// default host directory that does not exist opens as nothing.
func TestReadOnlyFallbacks(t *testing.T) {
	dir := t.TempDir() + "/none"
	l, err := OpenLister(Options{Dir: dir})
	require.NoError(t, err)
	assert.Nil(t, l)
	c, err := OpenCounterReader(Options{Dir: dir})
	require.NoError(t, err)
	assert.Nil(t, c)
}
