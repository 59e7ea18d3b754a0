package gen

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
)

// Host directory: a holder that borrows (max_drift=10s) publishes fences
// 11 s ahead of its clock; its lease file is removed. A taker that does
// not borrow must not start below that holder's fence, as its own
// max_outage alone would have it: the pool marker carries the largest
// reach, and the taker waits for it: it either starts above the holder's
// published fence (stats) or refuses; with max_wait=3s it cannot wait
// 11 s. (Before, it waited its own 1 s and issued inside that fence.)
func TestTakerOfALostRecordWaitsForThePoolsLargestDrift(t *testing.T) {
	dir := t.TempDir()
	base := "layout=time:41,seq:22 lease_dir=" + dir
	plain := base + " max_wait=3s"
	c, err := config.Parse(plain)
	require.NoError(t, err)
	plantRecord(t, dir, c, 0) // a record behind the clock: the holder opens at once
	holder := openWith(t, base+" on_exhausted=borrow max_drift=10s", nil, nil)
	_, err = holder.Next()
	require.NoError(t, err)
	fence := StatsOf(holder).FenceUnixMs
	require.GreaterOrEqual(t, fence, time.Now().UnixMilli()+10_500, "the borrowing holder's fence: clock + max_outage + max_drift")
	require.NoError(t, os.Remove(filepath.Join(dir, dirstore.FileName(poolOf(c).Name, lease.Pair{}))))

	cfg, err := config.Parse(plain)
	require.NoError(t, err)
	taker, err := Open(cfg, Options{})
	if err == nil {
		defer taker.Close()
		id, nerr := taker.Next()
		require.NoError(t, nerr)
		p, _ := taker.Decode(id)
		require.Greater(t, p.UnixMs, fence, "the taker issued at or below the borrowing holder's fence")
		return
	}
	require.ErrorIs(t, err, errs.ErrClockBackwards, "it would wait past max_wait for the holder's reach")
}
