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

// zxid on the host directory: the live holder's lease file is removed.
// It stops at once (the record bounds nothing now), then takes its pair
// again by itself above everything it issued — it knows its own last
// value, the floor DESIGN asks for — instead of "leasing again" forever.
// A process that finds the record missing and knows no floor refuses,
// saying which file to restore and with what.
func TestZxidHolderWhoseFileWasRemovedLeasesAgain(t *testing.T) {
	dir := t.TempDir()
	cfg := "preset=zxid lease_dir=" + dir
	g := openWith(t, cfg, nil, nil)
	last := next(t, g)
	c, err := config.Parse(cfg)
	require.NoError(t, err)
	file := filepath.Join(dir, dirstore.FileName(poolOf(c).Name, lease.Pair{}))
	require.NoError(t, os.Remove(file))
	require.Eventually(t, func() bool { return StatsOf(g).LeasesTaken == 2 }, 5*time.Second, 10*time.Millisecond,
		"the holder takes its pair again (stats: leases taken %d)", StatsOf(g).LeasesTaken)
	id := next(t, g)
	require.Greater(t, id>>32, last>>32, "a new epoch above everything issued")
	_, err = os.Stat(file)
	require.NoError(t, err, "its record is written again")

	// Another opener finds the record missing (the holder gone too): it
	// refuses, naming the file and the value to restore.
	require.NoError(t, g.Close())
	require.NoError(t, os.Remove(file))
	_, err = openErr(cfg)
	require.ErrorIs(t, err, errs.ErrWorker)
	require.Contains(t, err.Error(), file)
	require.Contains(t, err.Error(), "issued_up_to is at or above")
	require.Contains(t, err.Error(), "epoch")
}
