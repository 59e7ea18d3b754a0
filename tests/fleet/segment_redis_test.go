//go:build fleet

package fleet

// A Redis that lost its data under live segment generators (FLUSHDB, the
// server killed -9 without persistence and started again empty) never
// begins a counter again below values already handed out: the live
// generators refuse it with IDGEN_EWORKER saying why and leave that in
// the key, so a process started after that refuses it too; once an
// operator sets the key to the highest value handed out, everybody goes
// on above it (redisstore/counter.go, "Losing data").

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/lease/redisstore"
)

func TestSegmentRedisLostDataIsRefusedNeverReissued(t *testing.T) {
	for _, c := range []struct {
		name string
		lose func(t *testing.T)
	}{
		{"FlushDB", func(t *testing.T) { require.Equal(t, "OK", redisCli(t, "FLUSHDB")) }},
		{"Kill9EmptyRestart", func(t *testing.T) {
			out, err := script("redis.sh", "kill9", redisDir())
			require.NoError(t, err, out)
			redisRestart(t)
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := "preset=segment name=lost step=500 max_wait=1s store=" + redisURL(t, 0)
			var hs []*holder
			for i := 0; i < 4; i++ {
				hs = append(hs, startSegHolder(t, cfg, 200))
			}
			time.Sleep(500 * time.Millisecond)
			c.lose(t)
			// Item 1's race: a process that opens at once, before any live
			// generator takes again, finds an empty database; it waits out
			// the probation of a database without an incarnation, in which
			// the live generators' watches leave their refusal in the key.
			racer := startHolder(t, cfg, 200)
			require.Contains(t, racer.open, "open -5 ", "a process opened right after the loss refuses the counter")
			require.Contains(t, racer.open, "counter lost")
			<-racer.exited
			key := redisstore.CounterKey("lost")
			for _, h := range hs {
				waitRefusal(t, h, key)
			}
			late := startHolder(t, cfg, 200)
			require.Contains(t, late.open, "open -5 ", "a process started after the loss refuses the counter too")
			require.Contains(t, late.open, "counter lost")
			<-late.exited
			before := sortedIDs(hs...)
			top := before[len(before)-1]
			require.Contains(t, redisCli(t, "GET", key), "values up to at least", "the refusal stays in the key")

			// The operator sets the counter to the highest value handed out.
			require.Equal(t, "OK", redisCli(t, "SET", key, strconv.FormatInt(top, 10)))
			for _, h := range hs {
				h.waitStatus(0, 60*time.Second)
			}
			after := startSegHolder(t, cfg, 200)
			time.Sleep(500 * time.Millisecond)
			for _, h := range append(hs, after) {
				h.stop()
			}
			n := noDuplicates(t, append(hs, after)...)
			all := sortedIDs(append(hs, after)...)
			i, _ := slices.BinarySearch(all, top)
			require.Greater(t, len(all), i+1, "values were handed out after the repair")
			t.Logf("%s under 4 live generators: each refused the counter with IDGEN_EWORKER; a new process refused it too (%s); set to %d by hand: %d values handed out after, all above it; %d values in all, 0 duplicates",
				c.name, late.open, top, len(all)-i-1, n)
		})
	}
}

// waitRefusal waits for the holder's IDGEN_EWORKER (the holder prints a
// change of status only: after a restart, the outage's own failure comes
// first, and the refusal that follows it is the same status), then for
// the refusal left in the key.
func waitRefusal(t *testing.T, h *holder, key string) {
	_, line := h.waitStatus(-5, 60*time.Second)
	if !strings.Contains(line, "connection refused") {
		require.Contains(t, line, "refused, never begun again below values already handed out", "IDGEN_EWORKER says why")
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(redisCli(t, "GET", key), "counter lost") {
		require.True(t, time.Now().Before(deadline), "no live generator refused the counter in the key")
		time.Sleep(50 * time.Millisecond)
	}
}
