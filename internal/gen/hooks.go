package gen

// What the simulator steps by hand where a running library has
// goroutines (Hooks, in api.go): the lease Keeper's renewals, a segment
// counter's prefetch, baidu-cached's filler. One value, filled by Open
// when Options.Hooks asks for it, so that none of it is part of gen's API.

import "github.com/idgen/idgen/internal/lease"

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
