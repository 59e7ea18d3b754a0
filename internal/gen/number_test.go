package gen

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/segment"
)

// A business number prints its template, of the period the store's clock
// is in (not the generator's, 2 s off), reads back, and is text only.
func TestNumbersPrintTheStoresDayAndReadBack(t *testing.T) {
	st := segment.NewMemStore()
	var storeMs atomic.Int64
	storeMs.Store(time.Date(2026, 11, 28, 22, 59, 59, 0, time.UTC).UnixMilli()) // 23:59:59 in Berlin
	st.ClockMs = storeMs.Load
	c, err := config.Parse("preset=segment name=orders step=3 reset=day tz=Europe/Berlin format=ORD-{yyyy}{MM}{dd}-{seq:6}")
	require.NoError(t, err)
	clk := clock.NewManualClock(storeMs.Load() + 2000) // this host's clock: 2 s ahead, already tomorrow
	g, err := Open(c, Options{Counters: st, Clock: clk})
	require.NoError(t, err)
	defer g.Close()
	buf := make([]byte, g.TextLen())
	n, err := NextText(g, buf)
	require.NoError(t, err)
	require.Equal(t, "ORD-20261128-000001", string(buf[:n]), "the store's day, not the host's")
	p, err := g.DecodeText(string(buf[:n]))
	require.NoError(t, err)
	require.Equal(t, time.Date(2026, 11, 27, 23, 0, 0, 0, time.UTC).UnixMilli(), p.UnixMs, "the period's start")
	require.Equal(t, int64(1), p.Sequence)
	require.Equal(t, int64(-1), p.ID)

	storeMs.Add(1500) // midnight in Berlin by the store's clock
	clk.Add(1500 * time.Millisecond)
	n, err = NextText(g, buf)
	require.NoError(t, err)
	require.Equal(t, "ORD-20261129-000001", string(buf[:n]), "the new day begins at start")

	_, err = g.Next()
	require.ErrorIs(t, err, errs.ErrInvalid)
	require.ErrorIs(t, g.NextBatch(make([]int64, 2)), errs.ErrInvalid)
	_, err = g.Decode(1)
	require.ErrorIs(t, err, errs.ErrInvalid)
	_, err = g.DecodeText("ORD-20261131-000001")
	require.ErrorIs(t, err, errs.ErrInvalid, "a day that does not exist")
	in := InfoOf(g)
	require.Equal(t, int64(KindNumber), in.Kind)
	require.Equal(t, int64(0), in.TextLen)
	require.InDelta(t, 2000, StatsOf(g).SkewMs, 5, "the skew measured against the store")
	require.Equal(t, int64(3), st.Get("orders@20261129"), "one counter per day: the new day took its first segment")
}
