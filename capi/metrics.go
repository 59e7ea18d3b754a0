package main

/*
#include <stdint.h>
#include "idgen.h"
*/
import "C"

import (
	"unsafe"

	"github.com/idgen/idgen"
)

//export idgenGoMetricsText
func idgenGoMetricsText(buf *C.char, cap C.size_t) (rc C.int64_t) {
	defer guard64(&rc)
	if buf == nil && cap > 0 {
		return C.int64_t(invalid("buf is NULL but cap is %d", uint64(cap)))
	}
	text := idgen.MetricsText()
	if uint64(len(text)) < uint64(cap) {
		out := unsafe.Slice((*byte)(unsafe.Pointer(buf)), len(text)+1)
		copy(out, text)
		out[len(text)] = 0
	}
	return C.int64_t(len(text))
}
