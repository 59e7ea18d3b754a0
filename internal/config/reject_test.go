package config

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

// Bad input found by fuzzing the C ABI (issue 27): each is IDGEN_EINVAL
// naming the key, never a panic and never a generator that says something
// untrue about itself.
func TestRefusedNamingTheKey(t *testing.T) {
	tests := []struct {
		config, key, msg string
	}{
		// A baidu-cached ring of (max seq + 1) << boost ids: the product
		// overflowed int64 at seq width + boost >= 63 (makeslice panic).
		{"preset=baidu-cached layout=time:3,seq:60 worker=0", "layout", "at most 2^24"},
		{"preset=baidu-cached layout=time:10,seq:53 boost=10 worker=0", "layout", "at most 2^24"},
		{"preset=baidu-cached layout=time:5,worker:1,seq:57 boost=6 lease_dir=/tmp", "layout", "at most 2^24"},
		{"preset=baidu-cached layout=time:1,seq:62 boost=1 worker=0", "layout", "at most 2^24"},
		{"preset=baidu-cached layout=time:2,seq:61 boost=2 worker=0", "layout", "at most 2^24"},
		{"preset=baidu-cached layout=time:30,worker:13,seq:20 boost=5 worker=0", "boost", "at most 2^24"},
		{"preset=baidu-cached layout=time:30,worker:11,seq:22 worker=0", "layout", "boost=3"},
		// tz: a sign must start an offset of two digits, a colon, two digits.
		{"preset=rocketmq tz=+-1:-5", "tz", "+-1:-5"},
		{"preset=rocketmq tz=-+9:+5", "tz", "-+9:+5"},
		{"preset=rocketmq tz=+1:-05", "tz", ""},
		{"preset=rocketmq tz=+08:-1", "tz", ""},
		{"preset=rocketmq tz=+19:00", "tz", ""},
		{"preset=rocketmq tz=+08:60", "tz", ""},
		{"preset=rocketmq tz=+0800", "tz", ""},
		{"preset=rocketmq tz=-5", "tz", ""},
		{"preset=rocketmq tz=+", "tz", ""},
		// switched= and leased= show a pair of this layout's pool; one no
		// generator of it could hold is out of range.
		{"worker=lease switched=99/99", "switched", "0..31"},
		{"worker=lease switched=0/32", "switched", "0..31"},
		{"preset=leaf worker=lease switched=1/0", "switched", "0..0"},
		{"preset=zxid switched=0/1", "switched", "0..0"},
		{"worker=lease leased=32/0", "leased", "0..31"},
		{"worker=lease on_clock_back=error switched=99/99", "switched", ""},
		// tolerate answers a wall clock stepping back between two calls;
		// with clock=mono there is none, and a takeover never tolerates.
		{"worker=lease on_clock_back=tolerate:2s", "on_clock_back", "clock=wall"},
		{"preset=hutool on_clock_back=tolerate:1s", "on_clock_back", "clock=wall"},
		{"preset=leaf worker=lease on_clock_back=wait:15ms,tolerate:1s", "on_clock_back", "clock=wall"},
		{"worker=lease on_clock_back=tolerate:1s,switch", "on_clock_back", "clock=wall"},
	}
	for _, tt := range tests {
		t.Run(tt.config, func(t *testing.T) {
			_, err := Parse(tt.config)
			require.ErrorIs(t, err, errs.ErrInvalid)
			require.True(t, strings.HasPrefix(err.Error(), tt.key+": "), "names %s: %v", tt.key, err)
			require.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestAcceptedAtTheBounds(t *testing.T) {
	tests := []struct {
		config string
		want   []string
	}{
		// The largest rings: 2^24 ids.
		{"preset=baidu-cached layout=time:30,worker:12,seq:21 worker=0", []string{"boost=3"}},
		{"preset=baidu-cached layout=time:30,worker:9,seq:24 boost=0 worker=0", []string{"boost=0"}},
		{"preset=baidu-cached layout=time:29,worker:20,seq:14 boost=10 worker=0", []string{"boost=10"}},
		{"preset=rocketmq tz=+08:00", []string{"tz=+08:00"}},
		{"preset=rocketmq tz=-05:30", []string{"tz=-05:30"}},
		{"preset=rocketmq tz=+18:00", []string{"tz=+18:00"}},
		{"preset=rocketmq tz=Etc/GMT+5", []string{"tz=Etc/GMT+5"}},
		// tolerate with the wall clock, with or without a lease.
		{"clock=wall worker=lease on_clock_back=tolerate:2s", []string{"on_clock_back=tolerate:2s"}},
		{"clock=wall worker=0 on_clock_back=wait:15ms,tolerate:1s", []string{"on_clock_back=wait:15ms,tolerate:1s"}},
		// hutool's tolerate:2s is its answer to a wall clock stepping back
		// (hutool's timeOffset): with the default clock=mono nothing steps
		// back between calls, so its policy there is error.
		{"preset=hutool clock=wall worker=lease", []string{"on_clock_back=tolerate:2s"}},
		{"preset=hutool clock=wall worker=3", []string{"on_clock_back=tolerate:2s"}},
		{"preset=hutool", []string{"clock=mono", "on_clock_back=error"}},
		{"preset=hutool on_clock_back=wait:2s", []string{"on_clock_back=wait:2s"}},
	}
	for _, tt := range tests {
		t.Run(tt.config, func(t *testing.T) {
			c, err := Parse(tt.config)
			require.NoError(t, err)
			s := c.String()
			for _, w := range tt.want {
				require.Contains(t, s, w)
			}
			c2, err := Parse(s)
			require.NoError(t, err, s)
			require.Equal(t, s, c2.String())
		})
	}
}

// The hutool preset's policy follows the clock: tolerate:2s with
// clock=wall, error with clock=mono (where tolerate could never act).
func TestHutoolPolicyFollowsTheClock(t *testing.T) {
	c, err := Parse("preset=hutool worker=3 clock=wall")
	require.NoError(t, err)
	require.Equal(t, "tolerate:2s", c.OnClockBack.String())
	c, err = Parse("preset=hutool worker=lease")
	require.NoError(t, err)
	require.Equal(t, "error", c.OnClockBack.String())
	require.False(t, c.OnClockBack.Has(Tolerate))
}

// "Never worker 0 unless you ask for worker=0" read as if the defaults
// could not hold pair 0/0; what is meant is that the defaults never issue
// under an unleased, fixed 0 (issue 27, item 9).
func TestDocsSayWhatTheDefaultsLease(t *testing.T) {
	for _, f := range []string{"../../README.md", "../../include/idgen.h", "../../docs/ARCHITECTURE.md"} {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		text := strings.Join(strings.Fields(string(b)), " ")
		for _, old := range []string{"never worker 0 unless", "worker 0 must be asked for", "Worker 0 must be asked for"} {
			require.False(t, strings.Contains(text, old), "%s still says %q", f, old)
		}
		require.True(t, strings.Contains(text, "never an unleased fixed 0"), "%s says what the defaults lease", f)
	}
}
