package config

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

func TestSegmentBadInputNamesTheKey(t *testing.T) {
	tests := []struct{ config, key, msg string }{
		{"preset=segment", "name", "needs name="},
		{"preset=segment step=10", "name", "needs name="},
		{"preset=segment name=.hidden", "name", "not starting with ."},
		{"preset=segment name=a/b", "name", "A-Z"},
		{"preset=segment name=" + strings.Repeat("x", 65), "name", "1 to 64"},
		{"preset=segment name=o step=0", "step", "from 1"},
		{"preset=segment name=o step=-5", "step", "from 1"},
		{"preset=segment name=o step=fast", "step", "auto"},
		{"preset=segment name=o step=1000000001", "step", "1000000000"},
		{"preset=segment name=o start=0", "start", "from 1"},
		{"preset=segment name=o start=-1", "start", "from 1"},
		{"preset=segment name=o start=9223372036854775808", "start", "from 1"},
		{"preset=segment name=o padding=0", "padding", "1 to 99"},
		{"preset=segment name=o padding=100", "padding", "1 to 99"},
		{"preset=segment name=o max_wait=soon", "max_wait", "duration"},
		{"preset=segment name=o max_wait=25h", "max_wait", "at most"},
		{"preset=segment name=o text=hex", "text", "base36"},
		{"preset=segment name=o worker=lease", "worker", "does not apply to preset segment"},
		{"preset=segment name=o worker=zk://127.0.0.1:2181", "worker", "does not apply to preset segment"},
		{"preset=segment name=o lease_ttl=2s", "lease_ttl", "does not apply"},
		{"preset=segment name=o max_outage=2s", "max_outage", "does not apply"},
		{"preset=segment name=o layout=time:41,seq:22", "layout", "does not apply"},
		{"preset=segment name=o boost=2", "boost", "does not apply"},
		{"preset=segment name=o clock=wall", "clock", "does not apply"},
		{"preset=segment name=o ip=1.2.3.4", "ip", "does not apply"},
		{"preset=segment name=o store=ftp://x", "store", "unknown coordinator"},
		{"preset=segment name=o store=zk://", "store", "host:port"},
		{"preset=segment name=o store=zk://127.0.0.1:2181 lease_dir=/tmp", "lease_dir", "host directory"},
		{"preset=segment name=o lease_dir=tmp", "lease_dir", "absolute"},
		{"preset=segment name=o lease_table=t", "lease_table", "SQL stores"},
		{"preset=segment name=o store=zk://127.0.0.1:2181 lease_table=t", "lease_table", "SQL stores"},
		{"preset=segment name=o store=postgres://u:pw@h:5432/d lease_table=" + strings.Repeat("t", 56), "lease_table", "at most 55"},
		{"preset=segment name=o store=postgres://u:pw@h:5432/d lease_table=a.b", "lease_table", "identifier"},
	}
	for _, tc := range tests {
		t.Run(tc.config, func(t *testing.T) {
			_, err := Parse(tc.config)
			require.ErrorIs(t, err, errs.ErrInvalid)
			require.True(t, strings.HasPrefix(err.Error(), tc.key+": "), "%q names %s", err, tc.key)
			require.Contains(t, err.Error(), tc.msg)
			require.NotContains(t, err.Error(), "pw@")
		})
	}
}

func TestSegmentDefaultsAndReadBack(t *testing.T) {
	c, err := Parse("preset=segment name=orders")
	require.NoError(t, err)
	require.Equal(t, SchemeSegment, c.Scheme)
	require.Equal(t, Segment{Step: 1000, Start: 1}, c.Segment)
	require.Equal(t, 50, c.Padding)
	require.Equal(t, 2*time.Second, c.MaxWait)
	require.Nil(t, c.Store)
	require.Equal(t, "idgen_segment", c.SegmentTable())
	require.Equal(t, "preset=segment name=orders step=1000 start=1 padding=50 max_wait=2s", c.String())

	for _, in := range []string{
		"preset=segment name=a.b-c_1 step=auto start=0x10 padding=90 max_wait=0s text=base62 lease_dir=/var/tmp/x",
		"preset=segment name=o store=zk://127.0.0.1:2181,127.0.0.1:2182/ids step=5",
		"preset=segment name=o store=postgres://idgen:s3cret@127.0.0.1:5432/idgen?sslmode=disable lease_table=mine",
	} {
		c, err := Parse(in)
		require.NoError(t, err, in)
		s := c.String()
		require.NotContains(t, s, "s3cret")
		again, err := Parse(s)
		require.NoError(t, err, s)
		require.Equal(t, s, again.String())
	}
	c, err = Parse("preset=segment name=o step=auto start=16 store=postgres://idgen:s3cret@127.0.0.1:5432/idgen lease_table=mine")
	require.NoError(t, err)
	require.True(t, c.Segment.Auto)
	require.Equal(t, int64(16), c.Segment.Start)
	require.Equal(t, "mine_segment", c.SegmentTable())
}
