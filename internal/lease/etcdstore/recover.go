package etcdstore

import (
	"fmt"
	"runtime/debug"
)

// caught turns a panic under it into *err (naming where, with the stack's
// first lines): a fault in the store, or an answer it did not expect,
// fails a call instead of crashing the host (the C ABI promises the host
// never crashes). Use as defer caught(&err, where).
func caught(err *error, where string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%s: internal error (please report it): %v\n%s", where, r, firstLines(debug.Stack(), 12))
	}
}

// background runs f as a goroutine would, a panic in it becoming the
// error handed to failed (nil: no panic is not reported).
func background(where string, f func(), failed func(error)) {
	var err error
	func() {
		defer caught(&err, where)
		f()
	}()
	if err != nil && failed != nil {
		failed(err)
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
