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
	var r idgen.HostRun
	var err error
	if h == C.IDGENP_DEFAULT {
		r, err = idgen.ReserveDefaultHost(goRun(tail), int(room))
	} else if g, bad := live(h); g == nil {
		return bad
	} else {
		r, err = g.ReserveHost(goRun(tail), int(room))
	}
	if err != nil {
		return fail(err)
	}
	out.first, out.step, out.n = C.int64_t(r.First), C.int64_t(r.Step), C.int64_t(r.N)
	return C.IDGEN_OK
}

//export idgenGoReturn
func idgenGoReturn(h C.uintptr_t, tail *C.idgenp_run) {
	defer func() { _ = recover() }()
	if h == C.IDGENP_DEFAULT {
		idgen.ReturnDefaultHost(goRun(tail))
	} else if g := lookup(uintptr(h)); g != nil {
		g.ReturnHost(goRun(tail))
	}
}

// defaultRuns is the default generator's run kind, its hooks installed
// (building it if need be): a kind, or a failure's status (negative).
func defaultRuns() C.int {
	kind, err := idgen.DefaultRuns(
		func() int64 { return int64(C.idgenp_runs_unissued(C.IDGENP_DEFAULT)) },
		func() { C.idgenp_runs_revoke(C.IDGENP_DEFAULT) })
	if err != nil {
		return fail(err)
	}
	return C.int(kind)
}

//export idgenGoDefaultRuns
func idgenGoDefaultRuns() (rc C.int) {
	defer guard(&rc)
	return defaultRuns()
}

//export idgenGoConfigure
func idgenGoConfigure(config *C.char, tail *C.idgenp_run, kind *C.int) (rc C.int) {
	defer guard(&rc)
	idgen.ReturnDefaultHost(goRun(tail))
	if err := idgen.Configure(goString(config)); err != nil {
		return fail(err) // the old default stays, its kind too (none built if there was none)
	}
	if k := defaultRuns(); k >= 0 {
		*kind = k
	}
	return C.IDGEN_OK
}
