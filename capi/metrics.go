package main

/*
#include <stdint.h>
#include "idgen.h"
*/
import "C"

import (
	"sync"
	"unsafe"

	"github.com/idgen/idgen"
)

//export idgenGoMetricsText
func idgenGoMetricsText(buf *C.char, cap C.size_t) (rc C.int64_t) {
	defer guard64(&rc)
	if buf == nil && cap > 0 {
		return C.int64_t(invalid("buf is NULL but cap is %d", uint64(cap)))
	}
	bp, _ := scrapeBufs.Get().(*[]byte)
	if bp == nil {
		bp = new([]byte)
	}
	text := idgen.AppendMetricsText((*bp)[:0])
	if uint64(len(text)) < uint64(cap) {
		out := unsafe.Slice((*byte)(unsafe.Pointer(buf)), len(text)+1)
		copy(out, text)
		out[len(text)] = 0
	}
	*bp = text
	scrapeBufs.Put(bp)
	return C.int64_t(len(text))
}

// scrapeBufs keeps the texts' buffers between scrapes: a scrape every
// second then makes almost no garbage for the collector.
var scrapeBufs sync.Pool
