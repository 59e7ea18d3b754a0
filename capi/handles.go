package main

/*
#include <stdint.h>
#include "idgen.h"
#include "runs.h"
*/
import "C"

import (
	"sync"
	"sync/atomic"

	"github.com/idgen/idgen"
)

// The handle registry. A handle is a token, not memory: its low slotBits
// name a slot, the rest a serial number that is never reused, so a closed
// or made-up token never reaches a generator. Lookups take no lock.
const (
	slotBits  = C.IDGENP_SLOT_BITS
	chunkBits = 10
	maxSlots  = 1 << slotBits
)

type entry struct {
	token uintptr
	g     *idgen.Generator
}

type chunk [1 << chunkBits]atomic.Pointer[entry]

var registry struct {
	chunks [maxSlots >> chunkBits]atomic.Pointer[chunk]
	mu     sync.Mutex
	free   []uint32
	used   uint32 // slots ever handed out
	serial uintptr
}

// register stores g and returns its new token; 0 if the table is full.
func register(g *idgen.Generator) uintptr {
	r := &registry
	r.mu.Lock()
	defer r.mu.Unlock()
	var slot uint32
	if n := len(r.free); n > 0 {
		slot, r.free = r.free[n-1], r.free[:n-1]
	} else if r.used < maxSlots {
		slot = r.used
		r.used++
	} else {
		return 0
	}
	c := r.chunks[slot>>chunkBits].Load()
	if c == nil {
		c = new(chunk)
		r.chunks[slot>>chunkBits].Store(c)
	}
	r.serial++
	token := r.serial<<slotBits | uintptr(slot)
	c[slot&(1<<chunkBits-1)].Store(&entry{token: token, g: g})
	return token
}

// lookup finds the generator of a live token.
func lookup(token uintptr) *idgen.Generator {
	slot := token & (maxSlots - 1)
	c := registry.chunks[slot>>chunkBits].Load()
	if c == nil {
		return nil
	}
	e := c[slot&(1<<chunkBits-1)].Load()
	if e == nil || e.token != token {
		return nil
	}
	return e.g
}

// live is the generator of a live token, or nil and the status for a
// closed or made-up one (the message set).
func live(h C.uintptr_t) (*idgen.Generator, C.int) {
	if g := lookup(uintptr(h)); g != nil {
		return g, C.IDGEN_OK
	}
	return nil, closedHandle(h)
}

// unregister removes a live token and returns its generator (nil if the
// token was not live: closing twice is harmless).
func unregister(token uintptr) *idgen.Generator {
	r := &registry
	r.mu.Lock()
	defer r.mu.Unlock()
	slot := token & (maxSlots - 1)
	c := r.chunks[slot>>chunkBits].Load()
	if c == nil {
		return nil
	}
	p := &c[slot&(1<<chunkBits-1)]
	e := p.Load()
	if e == nil || e.token != token {
		return nil
	}
	p.Store(nil)
	r.free = append(r.free, uint32(slot))
	return e.g
}
