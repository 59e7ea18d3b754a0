package leasetest_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
	"github.com/idgen/idgen/internal/lease/leasetest"
	"github.com/idgen/idgen/internal/segment"
)

var _ lease.Lister = (*leasetest.Store)(nil)

// The in-memory store: claims never expire, so a claim lapses when the
// store kicks it (an expired session).
func TestStoreSuiteMemory(t *testing.T) {
	st := leasetest.New()
	leasetest.Suite(t, func(*testing.T, time.Duration) lease.Store { return st }, leasetest.Options{
		Lose: func(_ *testing.T, _ lease.Store, pool lease.Pool, c lease.Claim) { st.Kick(pool.Name, c.Pair()) },
	})
}

// The host directory: a pool never used in a directory is Unmarked, and
// a live holder loses its pair only when its file is removed.
func TestStoreSuiteHostDirectory(t *testing.T) {
	dir := t.TempDir()
	open := func(t *testing.T, _ time.Duration) lease.Store {
		s, err := dirstore.Open(dir, true)
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		return s
	}
	leasetest.Suite(t, open, leasetest.Options{
		NewPool: lease.Unmarked,
		Lose: func(t *testing.T, _ lease.Store, pool lease.Pool, c lease.Claim) {
			require.NoError(t, os.Remove(filepath.Join(dir, dirstore.FileName(pool.Name, c.Pair()))))
		},
		LoseRemoves: true,
	})
}

func TestCounterSuiteMemory(t *testing.T) {
	st := segment.NewMemStore()
	leasetest.CounterSuite(t, func(*testing.T) segment.Store { return st }, leasetest.CounterOptions{Period: 400 * time.Millisecond})
}

func TestCounterSuiteHostDirectory(t *testing.T) {
	dir := t.TempDir()
	leasetest.CounterSuite(t, func(t *testing.T) segment.Store {
		s, err := dirstore.OpenCounters(dir, true)
		require.NoError(t, err)
		t.Cleanup(func() { s.Close() })
		return s
	}, leasetest.CounterOptions{Period: 400 * time.Millisecond})
}
