package gen

import (
	"time"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/layout"
)

// shape is what a numeric generator knows besides its progress: its
// configuration, the codec of its layout (zk-session's restores the high
// time bits its ids drop from the clock) and its clock.
type shape struct {
	cfg       *config.Spec
	codec     layout.Codec
	clock     clock.Clock
	ownClock  bool   // Open made the clock, so Close stops it
	cfgString string // the configuration as opened (Config, without a lease)
	// fixed: the datacenter and worker bits of a generator without a lease
	// (a lease's pair replaces them when it is taken).
	fixed int64
	// manual: no goroutine of the generator's own (the simulator's manual
	// Env): baidu-cached's filler runs when its owner steps it.
	manual bool
}

// newShape makes the shape of c, on the clock openClock gives it.
func newShape(c *config.Spec, opt Options) *shape {
	clk, own := openClock(c, opt)
	return shapeOn(c, opt, clk, own)
}

// shapeOn makes the shape of c on clk (own: Open made it).
func shapeOn(c *config.Spec, opt Options, clk clock.Clock, ownClock bool) *shape {
	s := &shape{cfg: c, clock: clk, ownClock: ownClock, cfgString: c.String()}
	s.manual = opt.Env != nil && opt.Env.Manual()
	s.codec = layout.Codec{
		Layout:  c.Layout,
		EpochMs: c.EpochMs,
		UnitMs:  int64(c.Unit / time.Millisecond),
		Wraps:   c.Scheme == config.SchemeSession,
		Now:     s.Now,
	}
	s.fixed = c.Layout.Put(layout.FieldDatacenter, c.DC) | c.Layout.Put(layout.FieldWorker, c.Worker)
	return s
}

// openClock is the clock a generator of c reads: opt's (a test's), the
// wall clock (clock=wall) or a monotonic one; none for a segment counter.
// own says Open made it, so closing stops it.
func openClock(c *config.Spec, opt Options) (clk clock.Clock, own bool) {
	switch {
	case c.Scheme == config.SchemeSegment:
		return nil, false
	case opt.Clock != nil:
		return opt.Clock, false
	case c.WallClock:
		return clock.WallClock{}, true
	}
	return clock.NewMonoClock(), true
}

// stopClock ends the refresher of a clock that Open made (own).
func stopClock(clk clock.Clock, own bool) {
	if st, ok := clk.(interface{ Stop() }); ok && own {
		st.Stop()
	}
}

// stopClock ends the clock's refresher if Open made it.
func (s *shape) stopClock() { stopClock(s.clock, s.ownClock) }

// sleep waits d on the generator's clock: a simulated clock (a
// clock.Sleeper) advances, the real one passes.
func (s *shape) sleep(d time.Duration) {
	if sl, ok := s.clock.(clock.Sleeper); ok {
		sl.Sleep(d)
		return
	}
	time.Sleep(d)
}

// Now is the generator's clock in ms since 1970.
func (s *shape) Now() int64 { return s.clock.Now() / int64(time.Millisecond) }

// Decode splits id by the layout.
func (s *shape) Decode(id int64) (Parts, error) { return s.codec.Decode(id) }

// Compose is the inverse of Decode; see idgen_compose for the rules.
func (s *shape) Compose(p Parts) (int64, error) { return s.codec.Compose(p) }
