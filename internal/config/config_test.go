package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

func TestParseConfigPresets(t *testing.T) {
	tests := []struct {
		config string
		want   []string // fragments of the canonical form
	}{
		{"", []string{"preset=snowflake", "layout=time:41,datacenter:5,worker:5,seq:12", "unit=1ms", "epoch=1288834974657", "worker=lease", "on_clock_back=error", "lease_ttl=1s", "max_wait=2s"}},
		{"worker=0", []string{"worker=0"}},
		{"preset=sonyflake-v2 worker=1", []string{"layout=time:39,seq:8,worker:16", "unit=10ms", "epoch=1735689600000"}},
		{"preset=js53 worker=1", []string{"layout=time:41,worker:5,seq:7", "epoch=1704067200000"}},
		{"layout=time:41,seq:22 worker=0", []string{"worker=0"}},
		{"preset=zxid", []string{"worker=lease"}},
		{"datacenter=3", []string{"datacenter=3", "worker=lease"}},
		{"worker=zk://u:secret@127.0.0.1:2181,127.0.0.1:2182/ids", []string{"worker=zk://u@127.0.0.1:2181,127.0.0.1:2182/ids", "lease_ttl=10s"}},
		{"worker=postgres://u:secret@127.0.0.1:5432/db?sslmode=disable lease_table=ids", []string{"worker=postgres://u@127.0.0.1:5432/db?sslmode=disable", "lease_table=ids"}},
		{"preset=leaf worker=lease clock=wall on_clock_back=wait:15ms,tolerate:1s", []string{"on_clock_back=wait:15ms,tolerate:1s"}},
		{"preset=hutool worker=3", []string{"worker=3"}},
		{"preset=hutool", []string{"layout=time:41,datacenter:5,worker:5,seq:12", "epoch=1288834974657", "on_clock_back=error"}},
		{"preset=hutool clock=wall", []string{"clock=wall", "on_clock_back=tolerate:2s"}},
		{"preset=leaf", []string{"layout=time:41,worker:10,seq:12", "on_clock_back=wait:5ms", "seq_start=random:100"}},
		{"preset=baidu", []string{"layout=time:28,worker:22,seq:13", "unit=1s", "epoch=1463673600000"}},
		{"preset=sonyflake", []string{"layout=time:39,seq:8,worker:16", "unit=10ms", "epoch=1409529600000"}},
		{"preset=zk-session", []string{"layout=worker:8,time:40,seq:16", "epoch=0"}},
		{"preset=zxid", []string{"layout=epoch:32,counter:32", "zxid_epoch=0"}},
		{"preset=baidu;layout=time:29,worker:21,seq:13;epoch=2016-09-20T00:00:00+08:00", []string{"layout=time:29,worker:21,seq:13", "epoch=1474300800000"}},
		{"  layout=time:41,seq:22\tunit=10ms ; ", []string{"layout=time:41,seq:22", "unit=10ms"}},
		{"worker=31 datacenter=31", []string{"datacenter=31", "worker=31"}},
		{"clock=wall on_clock_back=tolerate:1h worker=0", []string{"clock=wall", "on_clock_back=tolerate:1h0m0s"}},
		{"on_exhausted=borrow max_drift=5ms", []string{"on_exhausted=borrow", "max_drift=5ms"}},
		{"worker=lease lease_dir='/tmp/a b'", []string{"worker=lease", `lease_dir='/tmp/a b'`, "max_wait=2s"}},
		{"worker=lease lease_ttl=3s", []string{"lease_ttl=3s", "max_wait=4s"}},
		{"preset=zxid zxid_epoch=7", []string{"zxid_epoch=7"}},
	}
	for _, tt := range tests {
		t.Run(tt.config, func(t *testing.T) {
			c, err := Parse(tt.config)
			require.NoError(t, err)
			s := c.String()
			for _, w := range tt.want {
				require.Contains(t, s, w)
			}
			// The canonical form parses back to itself.
			c2, err := Parse(s)
			require.NoError(t, err)
			require.Equal(t, s, c2.String())
		})
	}
}

func TestParseConfigErrorsNameTheKey(t *testing.T) {
	tests := []struct{ config, key string }{
		{"bogus=1", "bogus"},
		{"preset=nope", "preset"},
		{"preset=baidu-cached boost=-1", "boost"},
		{"preset=baidu-cached padding=150", "padding"},
		{"preset=baidu-cached padding=0", "padding"},
		{"preset=baidu boost=2", "boost"},
		{"preset=snowflake padding=20", "padding"},
		{"preset=baidu-cached on_exhausted=wait", "on_exhausted"},
		{"preset=baidu-cached boost=11", "boost"},
		{"worker", "worker"},
		{"worker=", "worker"},
		{"=3", "config"},
		{"worker=32", "worker"},
		{"worker=-1", "worker"},
		{"worker=abc", "worker"},
		{"datacenter=99999999999999999999", "datacenter"},
		{"worker=1 worker=2", "worker"},
		{"layout=time:41,seq:23", "layout"},
		{"layout=time:0,seq:12", "layout"},
		{"layout=time:41,time:2,seq:1", "layout"},
		{"layout=seq:12,time:41", "layout"},
		{"layout=time:41,worker:10", "layout"},
		{"layout=time:41,nonsense:3,seq:1", "layout"},
		{"layout=time41", "layout"},
		{"layout=time:41,epoch:3,seq:12", "layout"},
		{"unit=0ms", "unit"},
		{"unit=1500us", "unit"},
		{"unit=fast", "unit"},
		{"epoch=yesterday", "epoch"},
		{"epoch=-5", "epoch"},
		{"clock=sundial", "clock"},
		{"on_clock_back=panic", "on_clock_back"},
		{"on_clock_back=wait:soon", "on_clock_back"},
		{"on_clock_back=wait", "on_clock_back"},
		{"on_exhausted=wrap", "on_exhausted"},
		{"max_drift=-1s", "max_drift"},
		{"max_wait=x", "max_wait"},
		{"seq_start=random:0", "seq_start"},
		{"seq_start=5", "seq_start"},
		{"preset=zxid epoch=5", "epoch"},
		{"preset=zxid datacenter=1", "datacenter"},
		{"preset=zxid worker=3", "worker"},
		{"preset=zxid zxid_epoch=2147483648", "zxid_epoch"},
		{"zxid_epoch=1", "zxid_epoch"},
		{"preset=zk-session worker=128", "worker"},
		{"preset=zk-session seq_start=random:5", "seq_start"},
		{"preset=zk-session layout=time:40,worker:8,seq:16", "layout"},
		{"preset=sonyflake datacenter=1", "datacenter"},
		{"preset=sonyflake datacenter=mac", "datacenter"},
		{"layout=time:41,seq:22 worker=pid", "worker"},
		{"worker=consul://host:8500", "worker"},
		{"max_drift=0ms on_exhausted=borrow", "max_drift"},
		{"max_drift=5ms", "max_drift"},
		{"seq_start=random:5000", "seq_start"},
		{"worker=3 max_wait=1s", "max_wait"},
		{"worker=3 lease_ttl=1s", "lease_ttl"},
		{"worker=3 lease_dir=/tmp", "lease_dir"},
		{"lease_dir=relative", "lease_dir"},
		{"worker=3 on_clock_back=wait:5ms", "on_clock_back"},
		{"worker=lease lease_table=x", "lease_table"},
		{"worker=postgres://h/db lease_table='a\"b'", "lease_table"},
		{"worker=postgres://h/db lease_table='t;drop'", "lease_table"},
		{"worker=zk://", "worker"},
		{"worker=zk://host", "worker"},
		{"worker=zk://host:99999", "worker"},
		{"worker=zk://h:1/", "worker"},
		{"worker=zk://h:1/a//b", "worker"},
		{"worker=zk://:pw@h:1", "worker"},
		{"worker=postgres:///db", "worker"},
		{"worker=3 leased=0/3", "leased"},
		{"worker=lease leased=x", "leased"},
		{"worker=lease lease_ttl=10ms", "lease_ttl"},
		{"worker=zk://h:1 lease_ttl=500ms", "lease_ttl"},
		{"datacenter=zk://h:1", "datacenter"},
		{"lease_dir='unterminated", "lease_dir"},
		{"lease_dir='a'b", "lease_dir"},
	}
	for _, tt := range tests {
		t.Run(tt.config, func(t *testing.T) {
			_, err := Parse(tt.config)
			require.Error(t, err)
			require.True(t, errors.Is(err, errs.ErrInvalid), "%v", err)
			require.True(t, strings.HasPrefix(err.Error(), tt.key+":"), "message %q should start with the key %q", err, tt.key)
		})
	}
}

func TestPasswordsNeverShow(t *testing.T) {
	for _, cfg := range []string{"worker=zk://user:hunter2@127.0.0.1:2181/x", "worker=postgresql://user:hunter2@127.0.0.1/db",
		"worker=zk://user:hunter2@h:99999", "datacenter=zk://user:hunter2@h:1", "worker=postgres://user:hunter2@/db"} {
		c, err := Parse(cfg)
		if err != nil {
			require.NotContains(t, err.Error(), "hunter2")
			continue
		}
		require.NotContains(t, c.String(), "hunter2")
	}
}

func TestLayoutFieldsAndShifts(t *testing.T) {
	l := layout.Must("time:41,datacenter:5,worker:5,seq:12")
	require.Equal(t, uint(63), l.Bits())
	for _, x := range []struct {
		k            layout.FieldKind
		shift, width uint
	}{{layout.FieldTime, 22, 41}, {layout.FieldDatacenter, 17, 5}, {layout.FieldWorker, 12, 5}, {layout.FieldSeq, 0, 12}} {
		f, ok := l.Field(x.k)
		require.True(t, ok)
		require.Equal(t, x.shift, f.Shift, x.k.String())
		require.Equal(t, x.width, f.Width, x.k.String())
	}
	zk := layout.Must("worker:8,time:40,seq:16")
	w, _ := zk.Field(layout.FieldWorker)
	require.Equal(t, int64(127), w.Max(), "a field reaching bit 63 is capped so ids stay >= 0")
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{"", "preset=leaf worker=3", "layout=time:41,seq:22 unit=10ms", "preset=zxid zxid_epoch=3",
		"epoch=2016-09-20T00:00:00+08:00", "lease_dir='/a b' worker=lease", "on_clock_back=wait:5ms;clock=wall", "worker=1 worker=1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := Parse(s)
		if err != nil {
			var e *errs.Error
			require.True(t, errors.As(err, &e) && errors.Is(err, errs.ErrInvalid), "%T %v", err, err)
			return
		}
		// Whatever parses prints to a canonical form that parses back to it.
		c2, err := Parse(c.String())
		require.NoError(t, err, c.String())
		require.Equal(t, c.String(), c2.String())
	})
}
