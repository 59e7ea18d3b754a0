package redisstore

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/lease/storeurl"
)

// A renewal script's clock stands in for TIME while it is fresh (the
// Keeper's skew estimate right after a renewal sends no command); a stale
// one is not used: the store is asked (here: closed, so it fails).
func TestStoreNowUsesTheClockTheLastScriptReturned(t *testing.T) {
	s := &Store{url: &storeurl.StoreURL{Kind: Kind, Servers: []string{"127.0.0.1:1"}}, closed: true}
	ctx := context.Background()

	before := time.Now()
	s.noteClock("1700000000000", before.Add(-20*time.Millisecond)) // the script ran 10 ms ago
	got, err := s.StoreNow(ctx)
	require.NoError(t, err)
	s.noteClock("not a number", time.Now())
	again, err2 := s.StoreNow(ctx)
	took := time.Since(before)
	require.NoError(t, err)
	require.NoError(t, err2, "a bad reply leaves the last clock")
	for _, at := range []time.Time{got, again} {
		moved := time.Duration(at.UnixMilli()-1700000000000) * time.Millisecond
		require.GreaterOrEqual(t, moved, 9*time.Millisecond, "the script's clock, from the middle of its round trip, moved on since")
		require.LessOrEqual(t, moved, took+11*time.Millisecond)
	}

	s.clock.Store(&clockNote{ms: 1700000000000, at: time.Now().Add(-2 * clockFresh)})
	_, err = s.StoreNow(ctx)
	require.ErrorContains(t, err, "the store is closed", "a stale clock is not used: TIME is sent")
}
