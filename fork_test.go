package idgen_test

import (
	"os"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen"
)

// SetForkHooks: Lock is told of the lease file's descriptor, held before
// it is locked and released before it is closed; a Forks that says a fork
// is always under way makes a host-directory open fail with ErrWorker
// (it cannot know that no child copied the lock); the zero ForkHooks
// restores the defaults.
func TestSetForkHooks(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700))
	cfg := "worker=lease lease_dir=" + dir + " lease_ttl=100ms max_outage=100ms"
	var mu sync.Mutex
	told := map[int][]bool{}
	lock := func(fd int, held bool) {
		mu.Lock()
		defer mu.Unlock()
		told[fd] = append(told[fd], held)
	}
	idgen.SetForkHooks(idgen.ForkHooks{Lock: lock})
	defer idgen.SetForkHooks(idgen.ForkHooks{})
	g, err := idgen.Open(cfg)
	require.NoError(t, err)
	mu.Lock()
	held := 0
	for _, h := range told {
		if h[len(h)-1] {
			held++
		}
	}
	mu.Unlock()
	require.Equal(t, 1, held, "the lease file, locked: %v", told)
	require.NoError(t, g.Close())
	mu.Lock()
	for fd, h := range told {
		require.False(t, h[len(h)-1], "fd %d released before it was closed: %v", fd, h)
	}
	mu.Unlock()

	idgen.SetForkHooks(idgen.ForkHooks{Lock: lock, Forks: func() int64 { return -1 }})
	_, err = idgen.Open(cfg)
	require.ErrorIs(t, err, idgen.ErrWorker)
	require.Contains(t, err.Error(), "forked")

	idgen.SetForkHooks(idgen.ForkHooks{})
	g, err = idgen.Open(cfg)
	require.NoError(t, err)
	require.NoError(t, g.Close())
}
