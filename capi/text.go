package main

// The exports of text: ids written in a base, and text ids.

/*
#include <stdint.h>
#include <string.h>
#include "idgen.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/idgen/idgen"
)

//export idgenGoFormat
func idgenGoFormat(id C.int64_t, base C.int, fixed C.int, buf *C.char, capacity C.size_t) (rc C.int) {
	defer guard(&rc)
	var tmp [72]byte
	text, err := idgen.AppendFormat(tmp[:0], int64(id), int(base), fixed != 0)
	if err != nil {
		return fail(err)
	}
	return copyString(unsafe.String(&text[0], len(text)), buf, capacity)
}

//export idgenGoParse
func idgenGoParse(text *C.char, base C.int, out *C.int64_t) (rc C.int) {
	defer guard(&rc)
	if text == nil || out == nil {
		return invalid("text and out must not be NULL")
	}
	v, err := idgen.Parse(C.GoString(text), int(base))
	if err != nil {
		return fail(err)
	}
	*out = C.int64_t(v)
	return C.IDGEN_OK
}

//export idgenGoNextText
func idgenGoNextText(h C.uintptr_t, buf *C.char, capacity C.size_t) C.int {
	return withGen(h, func(g *idgen.Generator) C.int {
		if buf == nil {
			return invalid("buf is NULL")
		}
		need := g.TextLen() + 1
		if uint64(capacity) < uint64(need) {
			setError(fmt.Sprintf("cap = %d cannot hold this generator's longest text and its NUL (%d bytes); nothing was consumed", uint64(capacity), need))
			return C.IDGEN_ERANGE
		}
		dst := unsafe.Slice((*byte)(unsafe.Pointer(buf)), need)
		text, err := g.AppendText(dst[:0])
		if err != nil {
			return fail(err)
		}
		dst[len(text)] = 0
		return C.int(len(text))
	})
}

// maxUUIDs is the most UUIDs idgen_next_uuids makes in one call.
const maxUUIDs = 1 << 16

//export idgenGoNextUUIDs
func idgenGoNextUUIDs(h C.uintptr_t, out *C.uint8_t, n C.size_t) C.int {
	return withGen(h, func(g *idgen.Generator) C.int {
		switch {
		case out == nil && n > 0:
			return invalid("out is NULL but n is %d", uint64(n))
		case uint64(n) > maxUUIDs:
			setError(fmt.Sprintf("n = %d: at most %d UUIDs a call; nothing was consumed", uint64(n), maxUUIDs))
			return C.IDGEN_ERANGE
		}
		var dst []byte
		if n > 0 {
			dst = unsafe.Slice((*byte)(unsafe.Pointer(out)), int(n)*16)
		}
		if err := g.NextUUIDs(dst); err != nil {
			return fail(err)
		}
		return C.IDGEN_OK
	})
}

// maxTextIn bounds how much of a text idgen_decode_text reads: no id is
// near this long.
const maxTextIn = 256

//export idgenGoDecodeText
func idgenGoDecodeText(h C.uintptr_t, text *C.char, out *C.idgen_text_parts) C.int {
	return withGen(h, func(g *idgen.Generator) C.int {
		if text == nil || out == nil {
			return invalid("text and out must not be NULL")
		}
		n := C.strnlen(text, maxTextIn+1)
		if n > maxTextIn {
			return invalid("text is longer than %d bytes; no id is", maxTextIn)
		}
		p, err := g.DecodeText(C.GoStringN(text, C.int(n)))
		if err != nil {
			return fail(err)
		}
		var r C.idgen_text_parts
		r.id, r.unix_ms, r.sequence = C.int64_t(p.ID), C.int64_t(p.UnixMs), C.int64_t(p.Sequence)
		r.pid, r.loader_hash = C.int64_t(p.PID), C.int64_t(p.LoaderHash)
		r.addr_len = C.int32_t(len(p.Addr))
		for i, b := range p.Addr {
			r.addr[i] = C.uint8_t(b)
		}
		*out = r
		return C.IDGEN_OK
	})
}
