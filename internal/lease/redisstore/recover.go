package redisstore

import (
	"context"
	"runtime/debug"

	"github.com/idgen/idgen/internal/errs"
)

// caught turns a panic under it into *err (an errs.ErrWorker naming where
// and the stack's first lines): a fault in the store, or a reply it did not
// expect, fails a call instead of crashing the host (the C ABI promises
// the host never crashes). Use as defer caught(&err, where).
func caught(err *error, where string) {
	if r := recover(); r != nil {
		*err = errs.New(errs.ErrWorker, "%s: internal error (please report it): %v\n%s", where, r, firstLines(debug.Stack(), 12))
	}
}

// guarded is keep as a background goroutine runs it: a panic reports the
// claim gone to the keeping (its first write says what became of it),
// never reaching the host.
func guarded(where string, keep func(ctx context.Context) bool) func(ctx context.Context) bool {
	return func(ctx context.Context) (gone bool) {
		var err error
		defer func() {
			if err != nil {
				gone = true
			}
		}()
		defer caught(&err, where)
		return keep(ctx)
	}
}

func firstLines(b []byte, n int) string {
	for i, c := range b {
		if c == '\n' {
			if n--; n == 0 {
				return string(b[:i])
			}
		}
	}
	return string(b)
}
