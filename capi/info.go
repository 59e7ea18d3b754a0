package main

// idgen_get_info: what a generator is, versioned by size as
// idgen_get_stats is.

/*
#include <stdint.h>
#include "idgen.h"
*/
import "C"

import (
	"unsafe"

	"github.com/idgen/idgen"
)

//export idgenGoInfo
func idgenGoInfo(h C.uintptr_t, out *C.idgen_info, size C.size_t) C.int {
	return withGen(h, func(g *idgen.Generator) C.int {
		if out == nil {
			return invalid("out is NULL")
		}
		in := g.Info()
		full := C.idgen_info{
			kind: C.int64_t(in.Kind), leased: C.int64_t(in.Leased), tick_ns: C.int64_t(in.TickNs),
			text_len: C.int64_t(in.TextLen), longest_run: C.int64_t(in.LongestRun),
		}
		n := min(uintptr(size), unsafe.Sizeof(full))
		copy(unsafe.Slice((*byte)(unsafe.Pointer(out)), n), unsafe.Slice((*byte)(unsafe.Pointer(&full)), n))
		return C.IDGEN_OK
	})
}
