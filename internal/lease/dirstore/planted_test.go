package dirstore

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// plant makes something that is not a regular file under path.
var plant = map[string]func(t *testing.T, path string){
	"fifo": func(t *testing.T, path string) { require.NoError(t, syscall.Mkfifo(path, 0o666)) },
	"directory": func(t *testing.T, path string) {
		require.NoError(t, os.Mkdir(path, 0o777))
	},
	"socket": func(t *testing.T, path string) {
		ln, err := net.Listen("unix", path)
		require.NoError(t, err)
		ln.(*net.UnixListener).SetUnlinkOnClose(false)
		t.Cleanup(func() { ln.Close() })
	},
}

// acquireWithin runs Acquire, failing the test if it blocks (a FIFO opened
// for reading or writing without O_NONBLOCK waits for a peer forever).
func acquireWithin(t *testing.T, s *Store, r lease.Request) (lease.Claim, error) {
	t.Helper()
	type res struct {
		c   lease.Claim
		err error
	}
	ch := make(chan res, 1)
	go func() { c, err := s.Acquire(context.Background(), r); ch <- res{c, err} }()
	select {
	case r := <-ch:
		return r.c, r.err
	case <-time.After(5 * time.Second):
		t.Fatal("Acquire blocked on a planted file")
		return nil, nil
	}
}

// A FIFO, directory or socket under a pair's file name, whether another
// user planted it in a shared directory or it is the caller's own, is
// skipped like another user's file: opening goes on with the next pair,
// and a pool with no other pair says what is in the way.
func TestPlantedNonRegularFilesAreSkipped(t *testing.T) {
	owners := []int{-1} // the caller
	if os.Geteuid() == 0 {
		owners = append(owners, 65534)
	}
	for kind, mk := range plant {
		for _, uid := range owners {
			name := kind + " of the caller"
			if uid >= 0 {
				name = kind + " of another user"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				require.NoError(t, os.Chmod(dir, 0o777|os.ModeSticky))
				s := open(t, dir)
				for _, p := range []lease.Pool{pool4, pool1} {
					path := filepath.Join(dir, FileName(p.Name, lease.Pair{}))
					mk(t, path)
					if uid >= 0 {
						require.NoError(t, os.Lchown(path, uid, uid))
					}
				}

				c, err := acquireWithin(t, s, req(pool4))
				require.NoError(t, err)
				require.Equal(t, lease.Pair{DC: 0, Worker: 1}, c.Pair(), "the planted pair is skipped")
				require.NoError(t, c.Release(context.Background(), lease.Record{IssuedUpTo: 5}))

				one := filepath.Join(dir, FileName(pool1.Name, lease.Pair{}))
				_, err = acquireWithin(t, s, req(pool1))
				require.ErrorIs(t, err, errs.ErrWorker)
				require.Contains(t, err.Error(), "all 1 pairs")
				require.Contains(t, err.Error(), one, "the message names what is in the way")
				require.Contains(t, err.Error(), kind)
				require.Contains(t, err.Error(), "owner uid")

				var st syscall.Stat_t
				require.NoError(t, syscall.Lstat(one, &st))
				require.NotEqual(t, uint32(syscall.S_IFREG), st.Mode&syscall.S_IFMT, "left as it was")
			})
		}
	}
}
