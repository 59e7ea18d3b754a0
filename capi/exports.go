// Package main is idgen's C boundary: one small export per public symbol
// (called by the C shim after its fork check). Each checks its arguments,
// calls package idgen (the public Go API), maps errors to status
// codes, records the message in the thread's last error and recovers
// panics. No id logic lives here. text.go: the text exports.
package main

/*
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "idgen.h"
#include "capi.h"
#include "runs.h"
*/
import "C"

import (
	"fmt"
	"unsafe"

	"github.com/idgen/idgen"
)

func main() {}

//export idgenGoOpen
func idgenGoOpen(config *C.char, out *C.uintptr_t, kind *C.int) (rc C.int) {
	defer guard(&rc)
	// out and kind are the shim's own variables; it checked the host's pointer.
	g, err := idgen.Open(goString(config))
	if err != nil {
		return fail(err)
	}
	token := register(g)
	if token == 0 {
		g.Close()
		setError("too many open generators (1048576); close some first")
		return C.IDGEN_ERANGE
	}
	*out = C.uintptr_t(token)
	*kind = C.int(serveRuns(g, token))
	return C.IDGEN_OK
}

//export idgenGoClose
func idgenGoClose(h C.uintptr_t, tail *C.idgenp_run) {
	defer func() { _ = recover() }()
	if g := unregister(uintptr(h)); g != nil {
		g.ReturnHost(goRun(tail))
		if err := g.Close(); err != nil {
			setError(err.Error())
		}
	}
}

//export idgenGoNext
func idgenGoNext(h C.uintptr_t) (rc C.int64_t) {
	ok := false
	defer guardUnlessOK64(&rc, &ok)
	g := lookup(uintptr(h))
	if g == nil {
		return C.int64_t(closedHandle(h))
	}
	id, err := g.Next()
	if err != nil {
		return C.int64_t(fail(err))
	}
	ok = true
	return C.int64_t(id)
}

func idSlice(out *C.int64_t, n C.size_t) ([]int64, C.int) {
	if n == 0 {
		return nil, C.IDGEN_OK
	}
	if out == nil {
		return nil, invalid("out is NULL but n is %d", uint64(n))
	}
	if uint64(n) > 1<<40 {
		setError(fmt.Sprintf("n = %d is not a plausible buffer length", uint64(n)))
		return nil, C.IDGEN_ERANGE
	}
	return unsafe.Slice((*int64)(unsafe.Pointer(out)), int(n)), C.IDGEN_OK
}

//export idgenGoNextBatch
func idgenGoNextBatch(h C.uintptr_t, out *C.int64_t, n C.size_t) (rc C.int) {
	defer guard(&rc)
	g, bad := live(h)
	if g == nil {
		return bad
	}
	buf, rc := idSlice(out, n)
	if rc != C.IDGEN_OK || buf == nil {
		return rc
	}
	if err := g.NextBatch(buf); err != nil {
		return fail(err)
	}
	return C.IDGEN_OK
}

//export idgenGoNextRun
func idgenGoNextRun(h C.uintptr_t, out *C.int64_t, n C.size_t, freshNs *C.int64_t) (rc C.int) {
	defer guard(&rc)
	g, bad := live(h)
	if g == nil {
		return bad
	}
	if freshNs == nil {
		return invalid("fresh_ns is NULL")
	}
	buf, rc := idSlice(out, n) // outputs only on success: *fresh_ns too
	if rc != C.IDGEN_OK {
		return rc
	}
	got, fresh, err := g.NextRun(buf)
	if err != nil {
		return fail(err)
	}
	*freshNs = C.int64_t(fresh)
	return C.int(got)
}

func writeParts(p idgen.Parts, out *C.idgen_parts) {
	out.id = C.int64_t(p.ID)
	out.unix_ms = C.int64_t(p.UnixMs)
	out.time = C.int64_t(p.Time)
	out.epoch = C.int64_t(p.Epoch)
	out.datacenter = C.int64_t(p.Datacenter)
	out.worker = C.int64_t(p.Worker)
	out.sequence = C.int64_t(p.Sequence)
}

func decodeInto(p idgen.Parts, err error, out *C.idgen_parts) C.int {
	if err != nil {
		return fail(err)
	}
	writeParts(p, out)
	return C.IDGEN_OK
}

// withGen runs f on the generator of a live handle, guarded as every
// export is; a closed or made-up handle is IDGEN_ECLOSED.
func withGen(h C.uintptr_t, f func(g *idgen.Generator) C.int) (rc C.int) {
	defer guard(&rc)
	g, bad := live(h)
	if g == nil {
		return bad
	}
	return f(g)
}

//export idgenGoDecode
func idgenGoDecode(h C.uintptr_t, id C.int64_t, out *C.idgen_parts) C.int {
	return withGen(h, func(g *idgen.Generator) C.int {
		if out == nil {
			return invalid("out is NULL")
		}
		p, err := g.Decode(int64(id))
		return decodeInto(p, err, out)
	})
}

//export idgenGoCompose
func idgenGoCompose(h C.uintptr_t, in *C.idgen_parts, out *C.int64_t) C.int {
	return withGen(h, func(g *idgen.Generator) C.int {
		if in == nil || out == nil {
			return invalid("in and out must not be NULL")
		}
		id, err := g.Compose(idgen.Parts{
			UnixMs: int64(in.unix_ms), Time: int64(in.time), Epoch: int64(in.epoch),
			Datacenter: int64(in.datacenter), Worker: int64(in.worker), Sequence: int64(in.sequence),
		})
		if err != nil {
			return fail(err)
		}
		*out = C.int64_t(id)
		return C.IDGEN_OK
	})
}

// copyString writes s and a NUL into buf[0..cap).
func copyString(s string, buf *C.char, capacity C.size_t) C.int {
	if buf == nil {
		return invalid("buf is NULL")
	}
	if uint64(capacity) < uint64(len(s))+1 {
		setError(fmt.Sprintf("buffer of %d bytes is too small: %d are needed", uint64(capacity), len(s)+1))
		return C.IDGEN_ERANGE
	}
	dst := unsafe.Slice((*byte)(unsafe.Pointer(buf)), len(s)+1)
	copy(dst, s)
	dst[len(s)] = 0
	return C.IDGEN_OK
}

//export idgenGoConfigString
func idgenGoConfigString(h C.uintptr_t, buf *C.char, capacity C.size_t) C.int {
	return withGen(h, func(g *idgen.Generator) C.int {
		return copyString(g.Config(), buf, capacity)
	})
}

//export idgenGoStats
func idgenGoStats(h C.uintptr_t, out *C.idgen_stats, size C.size_t) C.int {
	return withGen(h, func(g *idgen.Generator) C.int {
		if out == nil {
			return invalid("out is NULL")
		}
		st := g.Stats()
		full := C.idgen_stats{
			issued: C.int64_t(st.Issued), tick_waits: C.int64_t(st.TickWaits), clock_backs: C.int64_t(st.ClockBacks),
			drift_ms: C.int64_t(st.DriftMs), lease_state: C.int64_t(st.LeaseState),
			datacenter: C.int64_t(st.Datacenter), worker: C.int64_t(st.Worker),
			fence_unix_ms: C.int64_t(st.FenceUnixMs), renewed_unix_ms: C.int64_t(st.RenewedUnixMs),
			renewals: C.int64_t(st.Renewals), renewal_failures: C.int64_t(st.RenewalFailures),
			leases_taken: C.int64_t(st.LeasesTaken), skew_ms: C.int64_t(st.SkewMs), segment_left: C.int64_t(st.SegmentLeft),
		}
		n := min(uintptr(size), unsafe.Sizeof(full))
		copy(unsafe.Slice((*byte)(unsafe.Pointer(out)), n), unsafe.Slice((*byte)(unsafe.Pointer(&full)), n))
		return C.IDGEN_OK
	})
}

//export idgenGoNextID
func idgenGoNextID() (rc C.int64_t) {
	defer guard64(&rc)
	id, err := idgen.NextID()
	if err != nil {
		return C.int64_t(fail(err))
	}
	return C.int64_t(id)
}

//export idgenGoNextIDs
func idgenGoNextIDs(out *C.int64_t, n C.size_t) (rc C.int) {
	defer guard(&rc)
	buf, rc := idSlice(out, n)
	if rc != C.IDGEN_OK || buf == nil {
		return rc
	}
	if err := idgen.NextIDs(buf); err != nil {
		return fail(err)
	}
	return C.IDGEN_OK
}

//export idgenGoDecodeDefault
func idgenGoDecodeDefault(id C.int64_t, out *C.idgen_parts) (rc C.int) {
	defer guard(&rc)
	if out == nil {
		return invalid("out is NULL")
	}
	p, err := idgen.Decode(int64(id))
	return decodeInto(p, err, out)
}
