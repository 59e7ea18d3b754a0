package errs

import (
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
)

// Guard runs f, the body of a background goroutine (go errs.Guard(...)):
// a panic in it (a bug) becomes an ErrInternal error naming where and the
// line that panicked, handed to failed, which records it where the
// generator reports it; the goroutine then ends instead of crashing the
// host (the C ABI promises the host never crashes). failed must not
// panic.
func Guard(where string, f func(), failed func(error)) {
	var err error
	func() {
		defer Catch(&err, where)
		f()
	}()
	if err != nil {
		failed(err)
	}
}

// Catch, deferred in a function that returns an error (defer
// errs.Catch(&err, where)), turns a panic under it (a bug, or a store
// answer the code did not expect) into that error: an ErrInternal naming
// where and the line that panicked. The call fails; the host lives on.
func Catch(err *error, where string) {
	if r := recover(); r != nil {
		*err = New(ErrInternal, "%s: internal error in idgen (a bug, please report it): %v%s", where, r, panicSite())
	}
}

// panicSite is " at function (file:line)" of the frame that panicked, as
// seen from a deferred function under Guard; "" if none is found.
func panicSite() string {
	pc := make([]uintptr, 32)
	n := runtime.Callers(3, pc) // above runtime.Callers, panicSite and Catch
	frames := runtime.CallersFrames(pc[:n])
	for {
		f, more := frames.Next()
		if f.Function != "" && !strings.HasPrefix(f.Function, "runtime.") {
			return fmt.Sprintf(" at %s (%s:%d)", f.Function, filepath.Base(f.File), f.Line)
		}
		if !more {
			return ""
		}
	}
}
