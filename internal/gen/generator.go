// Package gen holds idgen's generators (the Snowflake family, ZooKeeper's
// session ids and zxids, segment counters, the text presets), built from a
// config.Spec, a clock and a lease; and the process-wide default
// generator. It knows nothing of C.
//
// Its files use one another one way only, from the top down:
//
//	default.go     the default generator, Continue, KeeperOf
//	generator.go   Open: the opening path, to every generator, in the
//	               order it takes: textgens.go (text presets),
//	               sources.go (pid, mac), build.go (numeric schemes)
//	cached.go      baidu-cached's ring (ring.go: taking from it)
//	snowflake.go   the time generator's calls (reserve.go: reserving;
//	               takeover.go: as its lease Keeper sees it; timegen.go:
//	               its state and ticks)
//	session.go, zxid.go, segment.go, uuid.go, ulid.go, rocketmq.go
//	core.go        the lifecycle every numeric generator embeds: the
//	               state word, closing, configuration, fence, stats
//	leaser.go      the lease side: the store, the Keeper, the holding
//	shape.go       configuration, layout codec and clock (text.go: the
//	               text= form); randtext.go: what the text presets share
//	stores.go      the one place that opens a store of any kind
//	api.go, stats.go, errors.go, runs.go, registry.go, leases.go
package gen

import (
	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
)

// Open builds the generator a configuration describes: it resolves the
// worker and datacenter sources (taking a lease if asked), and checks that
// the layout's time range has started. Nothing is left half-built on error.
func Open(c *config.Spec, opt Options) (Generator, error) {
	clk := opt.Clock
	ownClock := clk == nil
	if clk == nil {
		if c.WallClock {
			clk = clock.WallClock{}
		} else {
			clk = clock.NewMonoClock()
		}
	}
	dropClock := func() { stopClock(clk, ownClock) }
	rc := *c // the resolved copy
	if rc.Scheme == config.SchemeSegment {
		dropClock() // a counter has no clock
		return newSegment(&rc, opt)
	}
	if rc.Scheme.IsText() {
		g, err := newText(&rc, clk, ownClock)
		if err != nil {
			dropClock()
			return nil, err
		}
		return g, nil
	}
	resolveSources(&rc)
	sh := newShape(&rc, clk, ownClock)
	sh.manual = opt.Env != nil && opt.Env.Manual()
	var lm *leaser
	if rc.WorkerSrc.Leasing() {
		var err error
		if lm, err = newLeaser(&rc, opt); err != nil {
			dropClock()
			return nil, err
		}
	}
	g, err := build(sh, lm)
	if err != nil {
		if g != nil {
			_ = g.Close() // gives back the lease and stops what it started
		} else {
			if lm != nil {
				lm.abort()
			}
			dropClock()
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
