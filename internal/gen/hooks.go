package gen

// What the simulator steps by hand where a running library has
// goroutines (Hooks, in api.go): the lease Keeper's renewals, a segment
// counter's prefetch, baidu-cached's filler. One value, filled by Open
// when Options.Hooks asks for it, so that none of it is part of gen's API.

import (
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/segment"
)

func hooksOf(g Generator) Hooks {
	h := Hooks{Keeper: keeperOf(g), Fill: func() { stepFiller(g) }}
	if c := counterOf(g); c != nil {
		h.Prefetch = c.FetchStep
	}
	return h
}

// keeperOf is the lease Keeper of g, or nil (Hooks.Keeper).
func keeperOf(g Generator) *lease.Keeper {
	if c, ok := g.(interface{ base() *core }); ok && c.base().lm != nil {
		return c.base().lm.k
	}
	return nil
}

// stepFiller runs a baidu-cached generator's filler once if it was woken
// (a manual Env: Hooks.Fill, where the filler goroutine would run); other
// generators ignore it.
func stepFiller(g Generator) {
	c, ok := g.(*cachedGen)
	if !ok || !c.manual {
		return
	}
	select {
	case <-c.kick:
		c.fillPass(make([]int64, c.chunk()), false)
	default:
	}
}

// counterOf is g's segment counter, nil for any other generator
// (Hooks.Prefetch).
func counterOf(g Generator) *segment.Counter {
	if n, ok := g.(*numberGen); ok {
		g = n.segGen
	}
	if s, ok := g.(*segGen); ok {
		return s.c
	}
	return nil
}
