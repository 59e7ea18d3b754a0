package pgstore

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestIntervalIsAQuarterOfTheTTL(t *testing.T) {
	require.Equal(t, 2500*time.Millisecond, Interval(10*time.Second))
	require.Equal(t, 250*time.Millisecond, Interval(time.Second))
	require.Equal(t, time.Millisecond, Interval(time.Millisecond), "never below 1 ms")
}

// The ZooKeeper session tracker's rounding: (⌊(now + ttl) / interval⌋ + 1)
// · interval — always a bucket boundary, strictly after now + ttl, and at
// most one interval after it.
func TestExpiryRoundsUpToTheNextBucket(t *testing.T) {
	ttl := 10 * time.Second // interval 2500 ms
	tests := []struct{ now, want int64 }{
		{0, 12500},
		{1, 12500},
		{2499, 12500},
		{2500, 15000}, // now + ttl on a boundary still moves to the next one
		{1795305600123, 1795305612500},
	}
	for _, tt := range tests {
		require.Equal(t, tt.want, Expiry(tt.now, ttl), "now=%d", tt.now)
	}
	for now := int64(1795305600000); now < 1795305600000+20000; now += 7 {
		e := Expiry(now, ttl)
		require.Zero(t, e%2500, "a bucket boundary")
		require.Greater(t, e, now+ttl.Milliseconds())
		require.LessOrEqual(t, e, now+ttl.Milliseconds()+2500)
	}
}

// Leases renewed within one interval share one expiry: a taker finds a
// whole bucket of expired rows at once.
func TestRenewalsWithinABucketExpireTogether(t *testing.T) {
	ttl := 4 * time.Second // interval 1000 ms
	seen := map[int64]int{}
	for now := int64(1795305600000); now < 1795305600000+1000; now += 10 {
		seen[Expiry(now, ttl)]++
	}
	require.Len(t, seen, 1)
}
