package main

// How an export reports: status codes for errors, the thread's last
// error message, and the recover every export defers.

/*
#include <stdint.h>
#include "idgen.h"
#include "capi.h"
*/
import "C"

import (
	"fmt"
	"runtime/debug"
	"unsafe"

	"github.com/idgen/idgen"
)

// codeOf is the status code of err: package idgen maps each sentinel to
// exactly one.
func codeOf(err error) C.int { return C.int(idgen.Code(err)) }

// setError copies msg into the calling thread's last-error buffer. An
// exported function runs on the C thread that called it, so the buffer is
// that thread's.
func setError(msg string) {
	if msg == "" {
		return
	}
	b := []byte(msg)
	C.idgenp_set_error((*C.char)(unsafe.Pointer(&b[0])), C.size_t(len(b)))
}

func fail(err error) C.int {
	setError(err.Error())
	return codeOf(err)
}

func invalid(format string, args ...any) C.int {
	setError(fmt.Sprintf(format, args...))
	return C.IDGEN_EINVAL
}

func closedHandle(h C.uintptr_t) C.int {
	if h == 0 {
		return invalid("the generator handle is NULL")
	}
	setError(fmt.Sprintf("generator handle %#x is closed or was never opened", uintptr(h)))
	return C.IDGEN_ECLOSED
}

// guard turns a panic into IDGEN_EINTERNAL with a message; every export
// defers it.
func guard(rc *C.int) {
	if r := recover(); r != nil {
		setError(fmt.Sprintf("internal error: %v\n%s", r, debug.Stack()))
		*rc = C.IDGEN_EINTERNAL
	}
}

// guardUnlessOK64 is guard64 for the hottest exports: on the path that
// set *ok nothing can be left to recover, so it skips recover's runtime
// call; every other path (errors, panics) is guarded as usual.
func guardUnlessOK64(rc *C.int64_t, ok *bool) {
	if *ok {
		return
	}
	if r := recover(); r != nil {
		setError(fmt.Sprintf("internal error: %v\n%s", r, debug.Stack()))
		*rc = C.IDGEN_EINTERNAL
	}
}

func guard64(rc *C.int64_t) {
	if r := recover(); r != nil {
		setError(fmt.Sprintf("internal error: %v\n%s", r, debug.Stack()))
		*rc = C.IDGEN_EINTERNAL
	}
}

func goString(s *C.char) string {
	if s == nil {
		return ""
	}
	return C.GoString(s)
}
