package gen

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
)

// Issue 32, R4: a baidu-cached generator whose lease record was removed
// (its lease file deleted: the record bounds nothing, so the fence is cut
// at once) went on handing out the ids its filler had put in the ring:
// 3,253 of them in the review's run. Not one may come out once the
// renewal saw the removal.
func TestCachedRingHandsOutNothingAfterItsRecordIsRemoved(t *testing.T) {
	dir := t.TempDir()
	spec, err := config.Parse(baidu29 + " worker=lease lease_dir=" + dir)
	require.NoError(t, err)
	g, err := Open(spec, Options{Env: stepEnv{}}) // the test runs the Keeper (Step)
	require.NoError(t, err)
	defer g.Close()
	first := next(t, g)
	c := g.(*cachedGen)
	require.Greater(t, c.tail.Load()-c.head.Load(), uint64(1000), "the ring holds ids made under the lease")

	files, _ := filepath.Glob(filepath.Join(dir, "*.lease"))
	require.Len(t, files, 1)
	require.NoError(t, os.Remove(files[0]))
	keeperOf(g).Step() // the renewal finds the record removed

	id, err := g.Next()
	require.Equal(t, errs.ErrWorker, errs.KindOf(err), "got id %d (the first was %d) after the record was removed: %v", id, first, err)
	batch := make([]int64, 10)
	require.Equal(t, errs.ErrWorker, errs.KindOf(g.NextBatch(batch)))
}
