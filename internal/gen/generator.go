// Package gen holds idgen's generators (the Snowflake family, ZooKeeper's
// session ids and zxids, segment counters, the text presets), built from a
// config.Spec, a clock and a lease; and the process-wide default
// generator. It knows nothing of C.
//
// Its files are named by family, so a reader finds a preset's rooms by
// name, and use one another one way only, from the top down:
//
//	default.go      the default generator, Continue (hooks.go: what the
//	                simulator steps by hand)
//	generator.go    Open: the opening path, to every generator, in the
//	                order it takes: open_sources.go (pid, mac),
//	                open_epoch.go (a numeric epoch has begun), shape.go,
//	                open_stores.go, then segment_gen.go, text_open.go
//	                (text presets) or open_build.go (numeric schemes);
//	                open_decodeonly.go (lease=off: decoding only),
//	                open_cancel.go (an open a context stops)
//	time_*.go       the time generator: time_calls.go (its calls),
//	                time_reserve.go (reserving), time_takeover.go (as its
//	                lease Keeper sees it), time_state.go (state, ticks),
//	                time_handout.go and time_runs.go (runs=N)
//	cached_*.go     baidu-cached: cached_gen.go (the ring, its filler),
//	                cached_ring.go (taking from it)
//	session_gen.go, zxid_gen.go, segment_gen.go
//	text_*.go       the text presets: text_uuid.go, text_ulid.go,
//	                text_rocketmq.go; text_shared.go what they share
//	core.go         the lifecycle every numeric generator embeds: the
//	                state word, closing, configuration, fence, stats
//	leaser.go       the lease side: the store, the Keeper, the holding
//	shape.go        configuration, layout codec and clock (shape_text.go:
//	                the text= form)
//	api.go, stats.go, errors.go, registry.go, leases.go
//	info.go         what a generator is (idgen_get_info)
package gen

import (
	"github.com/idgen/idgen/internal/config"
)

// Open builds the generator a configuration describes: it resolves the
// worker and datacenter sources (taking a lease if asked), and checks that
// the layout's time range has started. Nothing is left half-built on error.
//
// The configuration goes down one way: the sources (open_sources.go),
// the epoch (open_epoch.go), the shape (shape.go), the store
// (open_stores.go), then the generator of its scheme (segment_gen.go,
// text_open.go, or leaser.go and open_build.go).
func Open(c *config.Spec, opt Options) (Generator, error) {
	if ctx := opt.Context; ctx != nil && ctx.Err() != nil {
		return nil, errCancelled(ctx, nil)
	}
	var ce *cancelEnv
	opt.Env, ce = withCancel(opt.Context, opt.Env)
	g, err := openResolved(c, opt)
	if cut := ce.disarm(); cut || ce != nil && opt.Context.Err() != nil {
		if g != nil {
			_ = g.Close()
		}
		if cut {
			err = nil // the cut wait's message says nothing true
		}
		return nil, errCancelled(opt.Context, err)
	}
	if err == nil && opt.Hooks != nil {
		*opt.Hooks = hooksOf(g)
	}
	return g, err
}

func openResolved(c *config.Spec, opt Options) (Generator, error) {
	rc := *c // the resolved copy
	numeric := rc.Scheme != config.SchemeSegment && !rc.Scheme.IsText()
	if numeric {
		resolveSources(&rc)
		if err := epochStarted(&rc, opt); err != nil {
			return nil, err
		}
	}
	sh := newShape(&rc, opt)
	if rc.LeaseOff {
		return openDecodeOnly(sh), nil // no store, no lease, no segment
	}
	st, err := openStores(&rc, opt)
	if err != nil {
		sh.stopClock()
		return nil, err
	}
	if rc.Scheme == config.SchemeSegment {
		return openSegment(sh, st.counters, opt) // number_gen.go: business numbers too
	}
	if !numeric {
		g, err := newText(sh)
		if err != nil {
			sh.stopClock()
			return nil, err
		}
		return g, nil
	}
	var lm *leaser
	if st.leases != nil {
		lm = &leaser{spec: &rc, store: st.leases, ownStore: st.own, env: opt.Env}
	}
	g, err := build(sh, lm)
	if err != nil {
		if g != nil {
			_ = g.Close() // gives back the lease and stops what it started
		} else {
			if lm != nil {
				lm.abort()
			}
			sh.stopClock()
		}
		return nil, err
	}
	return g, nil
}

// OpenString parses and opens in one step.
func OpenString(s string) (Generator, error) {
	c, err := config.Parse(s)
	if err != nil {
		return nil, err
	}
	return Open(c, Options{})
}
