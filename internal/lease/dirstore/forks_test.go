package dirstore

import (
	"context"
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/lease"
)

// hookLog stands in for the C library's fork tracking: it records which
// files LockHook was told of, and checks at each "unlocked" call that the
// file is no longer locked (a child forked before the close would
// otherwise keep the lock through its copy).
type hookLog struct {
	t       *testing.T
	tracked map[int]string // fd -> path
	told    map[string]int // path -> times told held
}

func withHook(t *testing.T) *hookLog {
	h := &hookLog{t: t, tracked: map[int]string{}, told: map[string]int{}}
	old := LockHook
	LockHook = func(fd int, held bool) {
		path, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
		require.NoError(t, err)
		if held {
			h.tracked[fd] = path
			h.told[path]++
			return
		}
		require.Equal(t, path, h.tracked[fd], "told unlocked of a file it was not told of")
		delete(h.tracked, fd)
		other, err := os.Open(path)
		require.NoError(t, err)
		defer other.Close()
		require.NoError(t, syscall.Flock(int(other.Fd()), syscall.LOCK_EX|syscall.LOCK_NB), "%s is still locked when the hook is told it is not: a child forked now keeps the lock", path)
	}
	t.Cleanup(func() { LockHook = old })
	return h
}

// Every file that takes a flock — a lease file and a segment counter
// file — is told to LockHook before it is locked and unlocked before the
// hook hears it is closed.
func TestLockedFilesAreToldToTheForkHook(t *testing.T) {
	dir := t.TempDir()
	h := withHook(t)
	cs, err := OpenCounters(dir, true)
	require.NoError(t, err)
	defer cs.Close()
	_, _, err = cs.Take(context.Background(), "forked", 1, 10, 0)
	require.NoError(t, err)
	require.Positive(t, h.told[dir+"/"+CounterFile("forked")], "the counter file was locked without the fork hook knowing it")
	c, err := cs.s.Acquire(context.Background(), req(pool1))
	require.NoError(t, err)
	require.Positive(t, h.told[dir+"/"+FileName(pool1.Name, lease.Pair{})])
	require.NoError(t, c.Release(context.Background(), lease.Record{IssuedUpTo: 5}))
	require.Empty(t, h.tracked, "every tracked file was untracked when closed")
}

// A fork between opening a file and telling the hook: the file is
// closed (unlocked, untracked) and opened again, never locked through a
// descriptor a child may have copied.
func TestAFileOpenedAcrossAForkIsOpenedAgain(t *testing.T) {
	dir := t.TempDir()
	h := withHook(t)
	forks := int64(0)
	old := ForkCount
	ForkCount = func() int64 { forks++; return min(forks/2, 2) } // 0,1,1,2,2,2…: two opens race a fork
	t.Cleanup(func() { ForkCount = old })
	s := open(t, dir)
	c, err := s.Acquire(context.Background(), req(pool1))
	require.NoError(t, err)
	path := dir + "/" + FileName(pool1.Name, lease.Pair{})
	require.Equal(t, 3, h.told[path], "opened three times: twice a fork came between the open and the hook")
	require.NoError(t, c.Release(context.Background(), lease.Record{IssuedUpTo: 5}))
	require.Empty(t, h.tracked)
}
