package layout

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

func TestCodecRoundTrips(t *testing.T) {
	const nowMs = 1795305600000 // 2026-11-22T00:00:00Z
	now := func() int64 { return nowMs }
	tests := []struct {
		name  string
		codec Codec
		parts Parts // -1 where the layout has no field
	}{
		{"snowflake", Codec{Layout: Must("time:41,datacenter:5,worker:5,seq:12"), EpochMs: 1288834974657, UnitMs: 1},
			Parts{UnixMs: nowMs, Epoch: -1, Datacenter: 3, Worker: 31, Sequence: 4095}},
		{"backwards counter as epoch", Codec{Layout: Must("time:41,backwards:2,worker:8,seq:12"), EpochMs: 0, UnitMs: 10},
			Parts{UnixMs: nowMs, Epoch: 3, Datacenter: -1, Worker: 200, Sequence: 7}},
		{"zxid counter as sequence", Codec{Layout: Must("epoch:32,counter:32")},
			Parts{UnixMs: -1, Time: -1, Epoch: 12, Datacenter: -1, Worker: -1, Sequence: 1 << 31}},
		{"session time wraps", Codec{Layout: Must("worker:8,time:40,seq:16"), UnitMs: 1, Wraps: true, Now: now},
			Parts{UnixMs: nowMs - 5000, Epoch: -1, Datacenter: -1, Worker: 9, Sequence: 65535}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := tt.codec
			id, err := c.Compose(tt.parts)
			require.NoError(t, err)
			p, err := c.Decode(id)
			require.NoError(t, err)
			want := tt.parts
			want.ID = id
			if want.UnixMs >= 0 {
				want.Time = p.Time // the raw field, checked through UnixMs
			}
			require.Equal(t, want, p)
			back, err := c.Compose(p)
			require.NoError(t, err)
			require.Equal(t, id, back)
		})
	}
}

func TestCodecRefusals(t *testing.T) {
	c := Codec{Layout: Must("time:41,worker:10,seq:12"), EpochMs: 1000, UnitMs: 1}
	for _, tt := range []struct {
		p    Parts
		kind error
	}{
		{Parts{UnixMs: 5000, Datacenter: 1}, errs.ErrInvalid}, // no datacenter field: -1 or 0 only
		{Parts{UnixMs: 5000, Worker: 1024}, errs.ErrRange},    // wider than the field
		{Parts{UnixMs: 999}, errs.ErrRange},                   // before the epoch
		{Parts{UnixMs: -1, Time: -1}, errs.ErrInvalid},        // no time at all
	} {
		_, err := c.Compose(tt.p)
		require.ErrorIs(t, err, tt.kind, "%+v", tt.p)
	}
	_, err := c.Decode(-1)
	require.ErrorIs(t, err, errs.ErrInvalid)
	n := Codec{Layout: Must("time:20,seq:4"), UnitMs: 1}
	_, err = n.Decode(1 << 24)
	require.ErrorIs(t, err, errs.ErrInvalid, "bits above the layout's")
	huge := Codec{Layout: Must("time:50,seq:13"), UnitMs: 86400000}
	_, err = huge.Decode(int64(1)<<62 | 1)
	require.ErrorIs(t, err, errs.ErrRange, "a time beyond int64 milliseconds")
	require.ErrorContains(t, err, "86400s")
}
