package redisstore

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

const infoSample = "# Server\r\nredis_version:7.0.15\r\nuptime_in_seconds:%s\r\n# Persistence\r\naof_enabled:%s\r\n# Memory\r\nmaxmemory_policy:%s\r\n# Replication\r\nrole:master\r\nmaster_replid:abc\r\nsecond_repl_offset:%s\r\n# Commandstats\r\ncmdstat_get:calls=3,usec=1\r\n%s"

func info(uptime, aof, policy, second, flush string) facts {
	return parseFacts(fmt.Sprintf(infoSample, uptime, aof, policy, second, flush))
}

// When a pool without a marker may be one Redis lost: a server that ran
// shorter than the horizon without an append-only file may have restarted
// empty under a cut-off holder; a promoted one may have lagged; a counter
// layout (no horizon) trusts only a server that keeps its data and was
// never flushed since it started; INFO denied knows nothing.
func TestWhenAPoolWithoutAMarkerMayHaveBeenLost(t *testing.T) {
	const h = 10 * time.Second
	tests := []struct {
		name    string
		f       facts
		horizon time.Duration
		want    bool
	}{
		{"up longer than the horizon", info("11", "0", "noeviction", "-1", ""), h, false},
		{"restarted within the horizon", info("3", "0", "noeviction", "-1", ""), h, true},
		{"restarted, but appendonly", info("3", "1", "noeviction", "-1", ""), h, false},
		{"promoted", info("1000", "1", "noeviction", "5", ""), h, true},
		{"flushed: a time layout goes by uptime", info("1000", "0", "noeviction", "-1", "cmdstat_flushall:calls=1,usec=9\r\n"), h, false},
		{"counter, no appendonly", info("100000", "0", "noeviction", "-1", ""), Forever, true},
		{"counter, appendonly", info("3", "1", "noeviction", "-1", ""), Forever, false},
		{"counter, appendonly but flushed", info("3", "1", "noeviction", "-1", "cmdstat_flushdb:calls=2,usec=9\r\n"), Forever, true},
		{"INFO denied", facts{denied: "NOPERM no"}, h, true},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, tt.f.mayHaveLost(tt.horizon), tt.name)
	}
	f := info("3", "0", "noeviction", "-1", "cmdstat_flushall:calls=1,usec=9\r\ncmdstat_flushdb:calls=2,usec=9\r\n")
	require.Equal(t, facts{replid: "abc", uptime: 3 * time.Second, flushes: 3, policy: "noeviction"}, f)
	require.Empty(t, parseFacts("role:slave\r\nmaster_replid:abc\r\n").replid, "a replica's id is not a primary's")

	require.Empty(t, f.unfit("u"))
	require.Empty(t, info("1", "0", "volatile-lru", "-1", "").unfit("u"))
	require.Contains(t, info("1", "0", "allkeys-lfu", "-1", "").unfit("u"), "allkeys-lfu")
	require.Contains(t, facts{denied: "NOPERM x"}.unfit(""), `user "default" may not run INFO`)
}
