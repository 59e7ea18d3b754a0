package main

// #include "capi.h"
import "C"

import "github.com/idgen/idgen"

// A forked child closes its copies of the lease files' descriptors
// (forkfds.c), so a child outliving its parent never keeps the parent's
// pair locked; the fork count lets the host lease directory open again a
// file a fork copied before it was tracked.
func init() {
	idgen.SetForkHooks(idgen.ForkHooks{
		Lock: func(fd int, held bool) {
			h := C.int(0)
			if held {
				h = 1
			}
			C.idgenp_track_lock_fd(C.int(fd), h)
		},
		Forks: func() int64 { return int64(C.idgenp_fork_count()) },
	})
}
