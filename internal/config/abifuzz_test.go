package config

import (
	"net"
	"testing"

	"github.com/stretchr/testify/require"
)

// Found by make fuzz (tests/fuzz): two spellings of one configuration that
// the library read differently.

// DESIGN: whole numbers may be written in decimal or as 0x hex
// (loader_hash=0x30946E09); the fuzzer's "hex-spelling" check opened
// worker=0x1F where worker=31 opened.
func TestWholeNumbersInHex(t *testing.T) {
	tests := []struct{ hex, dec string }{
		{"preset=hutool worker=0x1F", "preset=hutool worker=31"},
		{"preset=hutool worker=0X1f datacenter=0x3", "preset=hutool worker=31 datacenter=3"},
		{"layout=time:27,datacenter:9,worker:7,seq:11 worker=0x18 datacenter=0x43", "layout=time:27,datacenter:9,worker:7,seq:11 worker=24 datacenter=67"},
		{"preset=zxid worker=0 zxid_epoch=0x7fffffff", "preset=zxid worker=0 zxid_epoch=2147483647"},
		{"preset=baidu-cached worker=0 boost=0xa padding=0x63", "preset=baidu-cached worker=0 boost=10 padding=99"},
		{"worker=0 epoch=0x12C148D03C1", "worker=0 epoch=1288834974657"},
		{"preset=leaf worker=0 seq_start=random:0x10", "preset=leaf worker=0 seq_start=random:16"},
		{"preset=rocketmq ip=10.0.0.1 pid=0x1170 loader_hash=0x30946E09 tz=UTC", "preset=rocketmq ip=10.0.0.1 pid=4464 loader_hash=815033865 tz=UTC"},
	}
	for _, tt := range tests {
		h, err := Parse(tt.hex)
		require.NoError(t, err, tt.hex)
		d, err := Parse(tt.dec)
		require.NoError(t, err, tt.dec)
		require.Equal(t, d.String(), h.String(), tt.hex)
	}
	for _, bad := range []string{"worker=0x", "worker=0x-1", "worker=0x+1", "worker=0xg", "worker=0x20", "epoch=0x8000000000000000",
		"preset=rocketmq loader_hash=0x100000000", "preset=zxid worker=0 zxid_epoch=0x80000000", "worker=0x1_0", "worker=-0x1"} {
		_, err := Parse(bad)
		require.Error(t, err, bad)
	}
}

// An IPv4-mapped IPv6 address makes 56-character rocketmq ids; its
// configuration string showed ip=1.2.3.4, which makes 32-character ones
// (the fuzzer's "text-cap" check: the documented capacity for the shown
// form was too small).
func TestIPv4MappedAddressKeepsItsForm(t *testing.T) {
	c, err := Parse("preset=rocketmq ip=::ffff:1.2.3.4 pid=1 loader_hash=1 tz=UTC")
	require.NoError(t, err)
	require.Len(t, c.TextKeys.IP, net.IPv6len)
	require.Contains(t, c.String(), "ip=::ffff:1.2.3.4")
	again, err := Parse(c.String())
	require.NoError(t, err)
	require.Len(t, again.TextKeys.IP, net.IPv6len, "reopening the configuration string keeps the 16-byte form")
	v4, err := Parse("preset=rocketmq ip=1.2.3.4")
	require.NoError(t, err)
	require.Len(t, v4.TextKeys.IP, net.IPv4len)
	require.Contains(t, v4.String(), "ip=1.2.3.4")
}

// loader_hash takes Java's int range, -1 included (0xffffffff); it was
// refused although the message named the range that holds it.
func TestLoaderHashMinusOne(t *testing.T) {
	c, err := Parse("preset=rocketmq loader_hash=-1")
	require.NoError(t, err)
	require.Equal(t, int64(0xffffffff), c.TextKeys.LoaderHash)
	d, err := Parse("preset=rocketmq loader_hash=4294967295")
	require.NoError(t, err)
	require.Equal(t, d.String(), c.String())
}

// leaf starts each tick's sequence at random below 100; a restated layout
// whose seq cannot hold that was refused naming seq_start, a key the
// string did not hold (the fuzzer's "einval-key" check). It names layout
// now, and an explicit seq_start fits such a layout.
func TestPresetSeqStartNamesTheLayout(t *testing.T) {
	_, err := Parse("preset=leaf layout=time:45,worker:17,seq:1 worker=3")
	require.Error(t, err)
	require.Regexp(t, `^layout: preset leaf starts each tick's sequence at random below 100 .*seq_start=0`, err.Error())
	for _, ok := range []string{"preset=leaf layout=time:45,worker:17,seq:1 worker=3 seq_start=0",
		"preset=leaf layout=time:45,worker:17,seq:1 worker=3 seq_start=random:2", "preset=leaf layout=time:45,worker:11,seq:7 worker=3"} {
		_, err := Parse(ok)
		require.NoError(t, err, ok)
	}
	_, err = Parse("preset=leaf layout=time:45,worker:17,seq:1 worker=3 seq_start=random:3")
	require.Error(t, err)
	require.Regexp(t, `^seq_start: `, err.Error())
}

// baidu-cached's default max_drift is unit << boost; with a coarse unit it
// went past what an explicit max_drift may be (24h), so opening the
// generator's own configuration string failed (the fuzzer's
// "config-reopen" check: unit=86400s boost=7 printed max_drift=3072h).
func TestCachedDefaultDriftReadsBack(t *testing.T) {
	for _, cfg := range []string{"preset=baidu-cached worker=0 unit=24h boost=7", "preset=baidu-cached worker=0 unit=1h boost=10",
		"preset=baidu-cached worker=0 unit=24h boost=0", "preset=baidu-cached worker=0"} {
		c, err := Parse(cfg)
		require.NoError(t, err, cfg)
		require.LessOrEqual(t, c.MaxDrift, MaxDuration, cfg)
		again, err := Parse(c.String())
		require.NoError(t, err, c.String())
		require.Equal(t, c.String(), again.String())
	}
	c, err := Parse("preset=baidu-cached worker=0")
	require.NoError(t, err)
	require.Equal(t, "8s", c.MaxDrift.String(), "the documented default, 1s << boost")
}
