//go:build fleet

package fleet

// Redis losing its data where no live holder can see it, and servers the
// lease store cannot rely on: a holder cut off (a frozen proxy) while
// Redis restarts empty, a zxid pool whose epochs Redis lost, a user
// without INFO, an allkeys-* eviction policy.

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A holder is cut off from Redis (its proxy frozen) and Redis restarts
// empty: nobody can publish the holder's fence again, and the server
// cannot tell the pool from a new one. A taker on the holder's pair must
// start above the fence the holder last had acknowledged (which it may
// issue up to while cut off), so the two never issue the same id.
func TestRedisCutOffHolderWhileRedisRestartsEmpty(t *testing.T) {
	p := startProxy(t, "127.0.0.1:"+readTrim(redisDir()+"/port"))
	cfg := "layout=time:41,worker:2,seq:20 lease_ttl=1s max_outage=4s worker="
	a := startWatched(t, cfg+redisURL(t, p.port), 300)
	a.mustAwait("lease", leaseHeld, 0, 5*time.Second)
	time.Sleep(1500 * time.Millisecond)
	p.freeze()
	frozen := nowMs()
	riding := a.mustAwait("lease", leaseRiding, frozen, 5*time.Second)
	fence, err := strconv.ParseInt(field(riding.line, "fence"), 10, 64)
	require.NoError(t, err)

	out, err := script("redis.sh", "kill9", redisDir())
	require.NoError(t, err, out)
	redisRestart(t)
	b := startWatched(t, cfg+redisURL(t, 0), 300)
	require.Equal(t, a.pair(), b.pair(), "the taker has the cut-off holder's pair (every pair looks the same to it)")
	for deadline := time.Now().Add(20 * time.Second); len(idsSoFar(b.file)) < 100 && time.Now().Before(deadline); {
		time.Sleep(50 * time.Millisecond) // until the taker issues (after its wait, if it waits)
	}
	b.stop()
	p.thaw()
	a.stop()
	bIDs := b.ids()
	require.NotEmpty(t, bIDs, "the taker issued: %s", b.transcript())
	bFirst := unixMs(t, b.cfg, bIDs[0])
	require.Greater(t, bFirst, fence, "the taker starts above the fence the cut-off holder had acknowledged")
	n := noDuplicates(t, a.holder, b.holder)
	t.Logf("holder cut off at %d with fence %+d ms; Redis restarted empty; the taker's first id %+d ms past that fence; %d ids, 0 duplicates",
		frozen, fence-frozen, bFirst-fence, n)
}

// preset=zxid counts epochs in its records: a Redis that may have lost
// them (no persistence) is refused, saying what to do, on a new pool too
// (Redis cannot tell it from a lost one); the operator declares it new,
// and after an empty restart the open is refused again instead of
// starting at epoch 0 once more.
func TestRedisZxidRefusesAStoreThatMayHaveLostItsEpochs(t *testing.T) {
	cfg := "preset=zxid lease_ttl=1s max_outage=2s worker=" + redisURL(t, 0)
	refused := startHolder(t, cfg, 300)
	require.True(t, strings.HasPrefix(refused.open, "open -5 "), "a new pool on a Redis without persistence: %q", refused.open)
	require.Contains(t, refused.open, "declare it new")
	require.Contains(t, refused.open, "appendonly yes")

	marker := redisCli(t, "--scan", "--pattern", "idgen:*:pool")
	require.NotEmpty(t, marker)
	redisCli(t, "HDEL", marker, "lost") // the operator: no id of this pool was ever issued here
	a := startHolder(t, cfg, 300)
	require.Empty(t, a.open)
	time.Sleep(500 * time.Millisecond)
	a.stop()
	first := a.ids()
	require.NotEmpty(t, first)

	out, err := script("redis.sh", "kill9", redisDir())
	require.NoError(t, err, out)
	redisRestart(t)
	again := startHolder(t, cfg, 300)
	if again.open == "" {
		time.Sleep(500 * time.Millisecond)
		again.stop()
		n := noDuplicates(t, a, again)
		t.Fatalf("opened after Redis lost the epochs (%d ids, distinct)", n)
	}
	require.True(t, strings.HasPrefix(again.open, "open -5 "), again.open)
	require.Contains(t, again.open, "Redis may have lost this pool's data")
	require.NotContains(t, again.open, "s3cret")
	t.Logf("zxid refused after the empty restart: %s", again.open)
}

// A user who may not run INFO leaves idgen blind to a restart or a
// failover; an allkeys-* policy may evict a dead holder's record. Both
// are refused at open, naming what to change.
func TestRedisRefusesAServerItCannotRelyOn(t *testing.T) {
	port := readTrim(redisDir() + "/port")
	db := strconv.Itoa(redisDB(t))
	redisCli(t, "ACL", "SETUSER", "noinfo", "on", ">s3cret", "~*", "&*", "+@all", "-info")
	t.Cleanup(func() { redisCli(t, "ACL", "DELUSER", "noinfo") })
	h := startHolder(t, "lease_ttl=1s max_outage=1s worker=redis://noinfo:s3cret@127.0.0.1:"+port+"/"+db, 300)
	require.True(t, strings.HasPrefix(h.open, "open -5 "), h.open)
	require.Contains(t, h.open, "may not run INFO")
	require.Contains(t, h.open, "+info")

	redisCli(t, "CONFIG", "SET", "maxmemory-policy", "allkeys-lru")
	t.Cleanup(func() { redisCli(t, "CONFIG", "SET", "maxmemory-policy", "noeviction") })
	h = startHolder(t, "lease_ttl=1s max_outage=1s worker="+redisURL(t, 0), 300)
	require.True(t, strings.HasPrefix(h.open, "open -5 "), h.open)
	require.Contains(t, h.open, "allkeys-lru")
	require.Contains(t, h.open, "noeviction")

	redisCli(t, "CONFIG", "SET", "maxmemory-policy", "volatile-lru") // idgen's records never expire: safe
	h = startHolder(t, "lease_ttl=1s max_outage=1s worker="+redisURL(t, 0), 300)
	assert.Empty(t, h.open)
	h.stop()
}

// redisUpFor waits until the Redis server has run d (INFO's
// uptime_in_seconds): a pool new on a server younger than 2·max_outage +
// max_drift (without appendonly) may be one it lost in a restart, and its
// pairs' first opens wait max_outage.
func redisUpFor(t *testing.T, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(d + 10*time.Second); ; time.Sleep(200 * time.Millisecond) {
		for _, l := range strings.Split(redisCli(t, "INFO", "server"), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), "uptime_in_seconds:"); ok {
				if n, _ := strconv.Atoi(v); time.Duration(n)*time.Second >= d {
					return
				}
			}
		}
		require.True(t, time.Now().Before(deadline), "Redis did not report an uptime of %s", d)
	}
}
