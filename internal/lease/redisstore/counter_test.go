package redisstore

// What the counter code does with the take script's answers (canned
// replies; tests/fleet/segment_*_test.go run it against a real server).

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

func cannedCounters(t *testing.T, replies ...string) (*Counters, *strings.Builder) {
	u, err := ParseURL("redis://u:pw-s3cret@127.0.0.1:1/3")
	require.NoError(t, err)
	c, sent := serve(t, replies...)
	return &Counters{s: &Store{url: u, c: c, done: make(chan struct{})}, marks: map[string]int64{}, stop: make(chan struct{})}, sent
}

func TestCounterTakeSendsTheHighWaterMark(t *testing.T) {
	c, sent := cannedCounters(t, "*3\r\n$2\r\nok\r\n$1\r\n0\r\n$2\r\n10\r\n", "*3\r\n$2\r\nok\r\n$2\r\n10\r\n$2\r\n20\r\n")
	ctx := context.Background()
	prev, last, err := c.Take(ctx, "orders", 1, 10, 0)
	require.NoError(t, err)
	require.Equal(t, [2]int64{0, 10}, [2]int64{prev, last})
	_, last, err = c.Take(ctx, "orders", 1, 10, 10)
	require.NoError(t, err)
	require.Equal(t, int64(20), last)
	cmds := strings.Split(sent.String(), "*14\r\n")
	require.Len(t, cmds, 3)
	require.Contains(t, cmds[1], "$24\r\nidgen:{segment}:c:orders\r\n$21\r\nidgen:{segment}:names\r\n$19\r\nidgen:{segment}:inc\r\n$21\r\n"+lostPrefix+"\r\n$2\r\n10\r\n$1\r\n0\r\n$0\r\n\r\n", "no mark before the first take")
	require.Contains(t, cmds[2], "$1\r\n0\r\n$2\r\n10\r\n$6\r\norders\r\n", "the second take carries the caller's mark")
	require.Equal(t, map[string]int64{"orders": 20}, c.marks, "the watch looks at the counter with the mark")
}

// A new counter waits while the take script says so (a young
// incarnation), then is made.
func TestCounterNewWaitsForTheIncarnation(t *testing.T) {
	c, _ := cannedCounters(t, "*2\r\n$4\r\nwait\r\n$3\r\n300\r\n", "*3\r\n$2\r\nok\r\n$1\r\n0\r\n$2\r\n10\r\n")
	began := time.Now()
	_, last, err := c.Take(context.Background(), "orders", 1, 10, 0)
	require.NoError(t, err)
	require.Equal(t, int64(10), last)
	require.GreaterOrEqual(t, time.Since(began), 300*time.Millisecond)
	c, _ = cannedCounters(t, "*2\r\n$4\r\nwait\r\n$4\r\n2500\r\n")
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_, _, err = c.Take(ctx, "orders", 1, 10, 0)
	require.ErrorIs(t, err, errs.ErrWorker)
	require.Contains(t, err.Error(), "counters are new in this database, or it lost its data")
}

func TestCounterRefusalsAndTheEnd(t *testing.T) {
	for _, tt := range []struct {
		reply, want string
		kind        error
	}{
		{"*2\r\n$4\r\nlost\r\n$" + "25\r\n" + lostPrefix + "gone\r\n", "refused, never begun again below values already handed out: " + lostPrefix + "gone", errs.ErrWorker},
		{"*2\r\n$3\r\nbad\r\n$" + "25\r\n" + lostPrefix + "gone\r\n", "refused", errs.ErrWorker},
		{"*2\r\n$3\r\nbad\r\n$2\r\n-4\r\n", `key idgen:{segment}:c:x holds "-4", not a counter idgen wrote`, errs.ErrWorker},
		{"*2\r\n$3\r\nend\r\n$19\r\n9223372036854775807\r\n", "INT64_MAX", errs.ErrTimeOverflow},
		{"*3\r\n$2\r\nok\r\n$1\r\n0\r\n$1\r\n7\r\n", "unexpected answer", errs.ErrWorker}, // not 0 + 10
	} {
		c, _ := cannedCounters(t, tt.reply)
		_, _, err := c.Take(context.Background(), "x", 1, 10, 0)
		require.ErrorIs(t, err, tt.kind, tt.reply)
		require.Contains(t, err.Error(), tt.want)
		require.NotContains(t, err.Error(), "pw-s3cret")
	}
	c, _ := cannedCounters(t, "*3\r\n$2\r\nok\r\n$19\r\n9223372036854775804\r\n$19\r\n9223372036854775807\r\n")
	prev, last, err := c.Take(context.Background(), "x", 1, 1000, 0)
	require.NoError(t, err)
	require.Equal(t, [2]int64{math.MaxInt64 - 3, math.MaxInt64}, [2]int64{prev, last}, "cut short at INT64_MAX")
}
