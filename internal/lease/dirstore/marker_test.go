package dirstore

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/lease"
)

// The marker lists every pair before its first record, and the largest
// reach of its holders: a pair never listed is Fresh, a listed one whose
// file is gone is Missing, and PoolReach says the largest reach.
func TestMarkerListsPairsAndTheLargestReach(t *testing.T) {
	dir := t.TempDir()
	s := open(t, dir)
	r := req(pool4)
	r.Reach = 11 * time.Second
	c, err := s.Acquire(context.Background(), r)
	require.NoError(t, err)
	require.NoError(t, c.Renew(context.Background(), lease.Record{IssuedUpTo: 5}))
	r.Reach = time.Second
	c2, err := s.Acquire(context.Background(), r)
	require.NoError(t, err)
	_, st := c2.Predecessor()
	require.Equal(t, lease.Fresh, st, "pair 1 never had a record")
	require.NoError(t, c2.Abandon(context.Background()))
	require.Equal(t, 11*time.Second, s.PoolReach(context.Background(), pool4), "the largest reach, not the last")
	b, err := os.ReadFile(filepath.Join(dir, markerName(pool4.Name)))
	require.NoError(t, err)
	require.Equal(t, "idgen-pool 1\npair 0.0\nreach 11000\n", string(b))

	require.NoError(t, c.Abandon(context.Background()))
	require.NoError(t, os.Remove(filepath.Join(dir, FileName(pool4.Name, lease.Pair{}))))
	c, err = s.Acquire(context.Background(), req(pool4))
	require.NoError(t, err)
	_, st = c.Predecessor()
	require.Equal(t, lease.Missing, st, "pair 0 had a record: it was lost")
	require.NoError(t, c.Abandon(context.Background()))
}

// A marker the caller cannot trust — writable by others, linked
// elsewhere — is ignored and never written: the caller keeps its own,
// <pool>.pool.<uid>, and a pair that never had a record is Fresh there.
func TestUntrustedMarkerIsIgnoredAndTheCallerKeepsItsOwn(t *testing.T) {
	for what, plant := range map[string]func(path string){
		"world-writable": func(path string) {
			require.NoError(t, os.WriteFile(path, []byte("idgen-pool 1\nreach 999999999\n"), 0o666))
			require.NoError(t, os.Chmod(path, 0o666))
		},
		"hard link": func(path string) {
			require.NoError(t, os.WriteFile(path+".x", []byte("idgen-pool 1\nreach 999999999\n"), 0o644))
			require.NoError(t, os.Link(path+".x", path))
		},
	} {
		t.Run(what, func(t *testing.T) {
			dir := t.TempDir()
			planted := filepath.Join(dir, markerName(pool4.Name))
			plant(planted)
			before, _ := os.ReadFile(planted)
			s := open(t, dir)
			require.Zero(t, s.PoolReach(context.Background(), pool4), "its reach is not believed")
			c, err := s.Acquire(context.Background(), req(pool4))
			require.NoError(t, err)
			_, st := c.Predecessor()
			require.Equal(t, lease.Unmarked, st)
			require.NoError(t, c.Renew(context.Background(), lease.Record{IssuedUpTo: 5}))
			require.NoError(t, c.Release(context.Background(), lease.Record{IssuedUpTo: 5}))
			after, _ := os.ReadFile(planted)
			require.Equal(t, before, after, "never written")
			own, err := os.ReadFile(planted + "." + strconv.Itoa(os.Geteuid()))
			require.NoError(t, err)
			require.Equal(t, "idgen-pool 1\npair 0.0\n", string(own))
		})
	}
}
