// Package gen holds idgen's generators (the Snowflake family, ZooKeeper's
// session ids and zxids, segment counters, the text presets), built from a
// config.Spec, a clock and a lease; and the process-wide default
// generator. It knows nothing of C.
//
// Its files use one another one way only, from the top down:
//
//	default.go     the default generator, Continue, KeeperOf
//	generator.go   Open: the opening path, to every generator
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
//	api.go, stats.go, errors.go, runs.go, registry.go, leases.go
package gen

import (
	"fmt"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/hostid"
	"github.com/idgen/idgen/internal/layout"
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

// openFault, when set (tests), fails an open (an error or a panic) after
// the generator was built and its lease taken.
var openFault func(Generator) error

// build makes the generator of sh's scheme. A panic (a bug) becomes an
// error, so the open fails and gives back what it took rather than leak
// its lease; g is returned too when it was built, for the caller to close.
func build(sh *shape, lm *leaser) (g Generator, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error opening preset %s: %v", sh.cfg.Preset, r) // IDGEN_EINTERNAL
		}
	}()
	if g, err = construct(sh, lm); err == nil && openFault != nil {
		err = openFault(g)
	}
	return g, err
}

func construct(sh *shape, lm *leaser) (Generator, error) {
	// Each case returns a nil Generator on error, never a typed nil.
	switch sh.cfg.Scheme {
	case config.SchemeSession:
		g, err := newSession(sh, lm)
		if err != nil {
			return nil, err
		}
		return g, nil
	case config.SchemeZxid:
		g, err := newZxid(sh, lm)
		if err != nil {
			return nil, err
		}
		return g, nil
	}
	tg, err := newTimeGen(sh, lm)
	if err != nil {
		return nil, err
	}
	if sh.cfg.Cached {
		return newCached(tg), nil
	}
	return tg, nil
}

// OpenString parses and opens in one step.
func OpenString(s string) (Generator, error) {
	c, err := config.Parse(s)
	if err != nil {
		return nil, err
	}
	return Open(c, Options{})
}

// resolveSources turns pid and mac into numbers; an unset datacenter of a
// generator that takes no lease is 0.
func resolveSources(c *config.Spec) {
	if c.DCSrc == config.SourceMAC {
		f, _ := c.Layout.Field(layout.FieldDatacenter)
		if c.Preset == "mybatis-plus" {
			c.DC = hostid.MybatisDatacenterID(f.Max())
		} else {
			c.DC = hostid.HutoolDatacenterID(hostid.LocalHardwareAddress(), f.Max())
		}
		c.DCSrc = config.SourceValue
	}
	if c.WorkerSrc.Leasing() {
		return
	}
	if c.DCSrc == config.SourceUnset {
		c.DCSrc = config.SourceValue
	}
	if c.WorkerSrc == config.SourcePID {
		f, _ := c.Layout.Field(layout.FieldWorker)
		c.Worker = hostid.HutoolWorkerID(c.DC, int64(hostid.PID()), f.Max())
		c.WorkerSrc = config.SourceValue
	}
}

// newText opens the generator of a text preset.
func newText(c *config.Spec, clk clock.Clock, ownClock bool) (Generator, error) {
	switch c.Scheme {
	case config.SchemeUUIDv7:
		return newUUIDv7(c, clk, ownClock), nil
	case config.SchemeULID:
		return newULID(c, clk, ownClock), nil
	}
	g, err := newRocket(c, clk, ownClock)
	if err != nil {
		return nil, err
	}
	return g, nil
}
