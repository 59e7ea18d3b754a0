package main

// The Go side of runs served in C (runs.c): a generator whose Next the
// shim may serve from runs says so at open; the shim reserves each run
// here and gives back what it did not hand out.

/*
#include <stdint.h>
#include "idgen.h"
#include "runs.h"
*/
import "C"

import "github.com/idgen/idgen"

// serveRuns tells g how to ask the shim what it holds and how to stop it,
// and returns the run kind the shim serves g with.
func serveRuns(g *idgen.Generator, token uintptr) idgen.RunKind {
	kind := g.HostRunKind()
	if kind == idgen.RunsNone {
		return kind
	}
	g.SetHostHeld(func() int64 { return int64(C.idgenp_runs_unissued(C.uintptr_t(token))) })
	g.SetOnDrop(func() { C.idgenp_runs_revoke(C.uintptr_t(token)) })
	return kind
}

func goRun(r *C.idgenp_run) idgen.HostRun {
	if r == nil || r.n <= 0 {
		return idgen.HostRun{}
	}
	return idgen.HostRun{First: int64(r.first), Step: int64(r.step), N: int(r.n)}
}

//export idgenGoReserve
func idgenGoReserve(h C.uintptr_t, tail *C.idgenp_run, room C.int64_t, out *C.idgenp_run) (rc C.int) {
	defer guard(&rc)
	g, bad := live(h)
	if g == nil {
		return bad
	}
	r, err := g.ReserveHost(goRun(tail), int(room))
	if err != nil {
		return fail(err)
	}
	out.first, out.step, out.n = C.int64_t(r.First), C.int64_t(r.Step), C.int64_t(r.N)
	return C.IDGEN_OK
}

//export idgenGoReturn
func idgenGoReturn(h C.uintptr_t, tail *C.idgenp_run) {
	defer func() { _ = recover() }()
	if g := lookup(uintptr(h)); g != nil {
		g.ReturnHost(goRun(tail))
	}
}
