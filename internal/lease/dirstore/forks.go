package dirstore

// Files that may hold a flock and fork: a flock belongs to the open file,
// which a forked child shares. A child that outlives its parent (killed,
// crashed) would keep the lock, and no other process could take the pair
// or the counter. The C library closes a child's copies of the
// descriptors LockHook was told of; two windows remain, closed here: a
// fork between the open and the hook (the child's copy is not closed,
// and the parent's lock then lands on the open file they share), and one
// between the hook and the close (the child's copy still locked).

import (
	"os"
	"syscall"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// LockHook is told of every lease or counter file descriptor that may
// hold a flock (held true) before it is locked, and again (held false)
// once it is unlocked, before it is closed. The C library sets a hook that
// closes the child's copies at fork (the parent keeps its lock); the
// default does nothing.
var LockHook = func(fd int, held bool) {}

// ForkCount says how many forks this process made (the C library counts
// them in pthread_atfork handlers), or -1 while one is under way: a file
// opened while the count stood still was not copied into a child before
// LockHook was told of it. The default (no C library: Go never forks
// without exec, and O_CLOEXEC covers exec) is always 0.
var ForkCount = func() int64 { return 0 }

// track tells LockHook of f, opened since ForkCount read before (the
// caller's). false: a fork may have copied f into a child before the hook
// knew it; f is closed then, unlocked, and the caller opens the name again.
func track(f *os.File, before int64) bool {
	LockHook(int(f.Fd()), true)
	if after := ForkCount(); before >= 0 && after == before {
		return true
	}
	closeLocked(f)
	return false
}

// forkTries bounds how often a file is opened again because forks kept
// happening meanwhile (a host that forks without pause).
const forkTries = 1000

// errForking is the error after forkTries opens raced a fork.
func errForking(path string) error {
	return errs.New(errs.ErrWorker, "%s: the process forked during each of %d opens, so a child could keep its lock: try again", path, forkTries)
}

// forkPause lets a fork under way finish before the next try.
func forkPause() { time.Sleep(50 * time.Microsecond) }

// closeLocked closes a file LockHook was told of: unlocked first, so a
// child forked before the close holds no lock through its copy (the lock
// belongs to the open file they share), then the hook, so a child never
// closes a number the parent has since reused.
func closeLocked(f *os.File) {
	_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	LockHook(int(f.Fd()), false)
	f.Close()
}

// openFile is openUntracked, with a file it returns (claimed) told to
// LockHook before anything locks it, and opened again when a fork may
// have copied it into a child first. Close it with closeLocked.
func (s *Store) openFile(name, kind string, create bool, perm uint32) (*os.File, syscall.Stat_t, outcome, string, error) {
	for try := 0; ; try++ {
		before := ForkCount()
		f, st, out, why, err := s.openUntracked(name, kind, create, perm)
		if err != nil || out != claimed || track(f, before) {
			return f, st, out, why, err
		}
		if try == forkTries {
			return nil, st, 0, "", errForking(s.path + "/" + name)
		}
		forkPause()
	}
}
