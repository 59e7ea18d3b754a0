package idgen

import "github.com/idgen/idgen/internal/lease/dirstore"

// ForkHooks are what a host that forks without exec (the C library, with
// its pthread_atfork handlers) tells the host lease directory, so that a
// forked child that outlives its parent never keeps the parent's pair or
// counter locked. A Go program never needs them: Go does not fork without
// exec, and the descriptors are close-on-exec.
type ForkHooks struct {
	// Lock is told of every lease or counter file descriptor that may
	// hold a flock (held true) before it is locked, and again (held false)
	// once it is unlocked, before it is closed. nil: told to nobody.
	Lock func(fd int, held bool)
	// Forks is how many forks the process made, or -1 while one is under
	// way: a file opened while it stood still was not copied into a child
	// before Lock was told of it. nil: always 0.
	Forks func() int64
}

// SetForkHooks installs h. Call it once, before any generator opens (the
// C library does at load); it is not synchronised with open generators.
func SetForkHooks(h ForkHooks) {
	lock, forks := h.Lock, h.Forks
	if lock == nil {
		lock = func(int, bool) {}
	}
	if forks == nil {
		forks = func() int64 { return 0 }
	}
	dirstore.LockHook, dirstore.ForkCount = lock, forks
}
