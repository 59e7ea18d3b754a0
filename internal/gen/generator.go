// Package gen holds idgen's generators (the Snowflake family, ZooKeeper's
// session ids and zxids), built from a config.Spec, a clock and a lease; and
// the process-wide default generator. It knows nothing of C.
package gen

import (
	"fmt"
	"math"
	"time"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/hostid"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/segment"
)

// Generator issues ids. Every implementation is safe for concurrent use,
// issues strictly increasing ids, and never wraps a field: when it cannot
// issue it returns an error wrapping one of the sentinels.
type Generator interface {
	// Next returns the next id.
	Next() (int64, error)
	// NextBatch fills out with strictly increasing ids, reserving them in
	// as few steps as the layout allows. If the first reservation fails,
	// out is untouched; a later failure (rare: the time field running out
	// or the clock stepping back mid-batch) leaves a prefix of out holding
	// ids that are consumed and never issued again.
	NextBatch(out []int64) error
	// Decode splits an id of this generator's layout into its fields.
	Decode(id int64) (Parts, error)
	// Compose is the inverse of Decode.
	Compose(p Parts) (int64, error)
	// Config is the effective configuration, with worker and datacenter
	// sources resolved to their numbers.
	Config() string
	// LastValue is the generator's progress in its own terms (a tick, a
	// session counter, a zxid), for the lease record.
	LastValue() int64
	// TextLen is the length of the longest text NextText writes.
	TextLen() int
	// NextText writes the next id as text into dst (at least TextLen
	// bytes): a text preset's form, or a numeric id in the text= form.
	NextText(dst []byte) (int, error)
	// DecodeText reads text of the generator's form.
	DecodeText(s string) (TextParts, error)
	// Close stops the generator: later calls fail with ErrClosed. Closing
	// twice is harmless.
	Close() error
}

// Parts are the fields of an id; a field the layout lacks is -1.
type Parts struct {
	ID         int64
	UnixMs     int64 // generation time, ms since 1970 UTC; -1 if no time field
	Time       int64 // raw time field (units since epoch); -1 if none
	Epoch      int64 // zxid epoch; -1 if none
	Datacenter int64
	Worker     int64
	Sequence   int64 // sequence, or the zxid counter
}

// Options are what Open takes besides the configuration.
type Options struct {
	// Clock replaces the clock the configuration asks for (tests).
	Clock clock.Clock
	// Store replaces the lease store the configuration names (tests, the
	// simulator); the generator does not close it.
	Store lease.Store
	// Env replaces the lease Keeper's and a segment counter's time (the
	// simulator).
	Env lease.Env
	// Counters replaces the segment counter store the configuration names
	// (the simulator); the generator owns it.
	Counters segment.Store
}

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
	stopClock := func() {
		if s, ok := clk.(interface{ Stop() }); ok && ownClock {
			s.Stop()
		}
	}
	rc := *c // the resolved copy
	// leased= and switched= are accepted and ignored: the generator shows
	// the pair it holds and a switch only when it made one itself.
	rc.Leased, rc.Switched = "", ""
	if rc.Scheme == config.SchemeSegment {
		stopClock() // a counter has no clock
		return newSegment(&rc, opt)
	}
	if rc.Scheme.IsText() {
		g, err := newText(&rc, clk, ownClock)
		if err != nil {
			stopClock()
			return nil, err
		}
		return g, nil
	}
	resolveSources(&rc)
	sh := &shape{cfg: &rc, clock: clk, ownClock: ownClock}
	var lm *leaser
	if rc.WorkerSrc.Leasing() {
		var err error
		if lm, err = newLeaser(&rc, opt); err != nil {
			stopClock()
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
			stopClock()
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

// shape is what decoding and composing need: the layout, its epoch and
// unit, and a clock (zk-session restores its missing high time bits from
// the present).
type shape struct {
	cfg      *config.Spec
	clock    clock.Clock
	ownClock bool // Open made the clock, so Close stops it
}

// stopClock ends the clock's refresher if Open made it.
func (s *shape) stopClock() {
	if st, ok := s.clock.(interface{ Stop() }); ok && s.ownClock {
		st.Stop()
	}
}

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

func (s *shape) unitMs() int64 { return int64(s.cfg.Unit / time.Millisecond) }

func (s *shape) checkID(id int64) error {
	if id < 0 {
		return errs.New(errs.ErrInvalid, "id %d is negative; idgen ids never are", id)
	}
	if b := s.cfg.Layout.Bits(); b < 63 && id>>b != 0 {
		return errs.New(errs.ErrInvalid, "id %d has bits above the %d bits of layout %s", id, b, s.cfg.Layout)
	}
	return nil
}

// Decode splits id by the layout.
func (s *shape) Decode(id int64) (Parts, error) {
	if err := s.checkID(id); err != nil {
		return Parts{}, err
	}
	l := &s.cfg.Layout
	p := Parts{
		ID:         id,
		UnixMs:     -1,
		Time:       l.Get(id, layout.FieldTime),
		Epoch:      max(l.Get(id, layout.FieldEpoch), l.Get(id, layout.FieldBackwards)), // a layout has one or neither
		Datacenter: l.Get(id, layout.FieldDatacenter),
		Worker:     l.Get(id, layout.FieldWorker),
		Sequence:   l.Get(id, layout.FieldSeq),
	}
	if s.cfg.Scheme == config.SchemeZxid {
		p.Sequence = l.Get(id, layout.FieldCounter)
	}
	if p.Time >= 0 {
		tick := p.Time
		if s.cfg.Scheme == config.SchemeSession {
			tick = s.nearestTick(p.Time)
		}
		if tick > (math.MaxInt64-s.cfg.EpochMs)/s.unitMs() {
			return Parts{}, errs.New(errs.ErrRange, "id %d: its time (%d units of %s after the epoch) lies beyond the int64 milliseconds of unix_ms", id, tick, config.FormatUnit(s.cfg.Unit))
		}
		p.UnixMs = s.cfg.EpochMs + tick*s.unitMs()
	}
	return p, nil
}

// nearestTick restores the high bits a session id drops: of all ticks whose
// low bits equal t, the one closest to the present.
func (s *shape) nearestTick(t int64) int64 {
	f, _ := s.cfg.Layout.Field(layout.FieldTime)
	if f.Width >= 62 {
		return t
	}
	span := int64(1) << f.Width
	now := (s.clock.Now()/int64(time.Millisecond) - s.cfg.EpochMs) / s.unitMs()
	cand := now&^(span-1) | t
	if cand-now > span/2 {
		cand -= span
	} else if now-cand > span/2 {
		cand += span
	}
	if cand < 0 {
		cand += span
	}
	return cand
}

// Compose is the inverse of Decode; see idgen_compose for the rules.
func (s *shape) Compose(p Parts) (int64, error) {
	l := &s.cfg.Layout
	var id int64
	put := func(k layout.FieldKind, name string, v int64) error {
		f, ok := l.Field(k)
		if !ok {
			if v != -1 && v != 0 {
				return errs.New(errs.ErrInvalid, "%s: the layout %s has no %s field, so it must be -1 or 0, got %d", name, l, name, v)
			}
			return nil
		}
		if v < 0 || v > f.Max() {
			return errs.New(errs.ErrRange, "%s: %d does not fit the %d-bit field (0..%d)", name, v, f.Width, f.Max())
		}
		id |= v << f.Shift
		return nil
	}
	if l.Has(layout.FieldTime) {
		t := p.Time
		if p.UnixMs >= 0 {
			if p.UnixMs < s.cfg.EpochMs {
				return 0, errs.New(errs.ErrRange, "unix_ms: %d is before the layout's epoch %d", p.UnixMs, s.cfg.EpochMs)
			}
			t = (p.UnixMs - s.cfg.EpochMs) / s.unitMs()
			if s.cfg.Scheme == config.SchemeSession {
				f, _ := l.Field(layout.FieldTime)
				t &= f.Max()
			}
		} else if t < 0 {
			return 0, errs.New(errs.ErrInvalid, "time: give unix_ms or a raw time >= 0")
		}
		if err := put(layout.FieldTime, "time", t); err != nil {
			return 0, err
		}
	} else {
		for _, x := range []struct {
			name string
			v    int64
		}{{"unix_ms", p.UnixMs}, {"time", p.Time}} {
			if x.v != -1 && x.v != 0 {
				return 0, errs.New(errs.ErrInvalid, "%s: the layout %s has no time field, so unix_ms and time must be -1 or 0, got %d", x.name, l, x.v)
			}
		}
	}
	epochKind := layout.FieldEpoch
	if l.Has(layout.FieldBackwards) {
		epochKind = layout.FieldBackwards
	}
	seqKind := layout.FieldSeq
	if s.cfg.Scheme == config.SchemeZxid {
		seqKind = layout.FieldCounter
	}
	for _, x := range []struct {
		k    layout.FieldKind
		name string
		v    int64
	}{
		{epochKind, "epoch", p.Epoch},
		{layout.FieldDatacenter, "datacenter", p.Datacenter},
		{layout.FieldWorker, "worker", p.Worker},
		{seqKind, "sequence", p.Sequence},
	} {
		if err := put(x.k, x.name, x.v); err != nil {
			return 0, err
		}
	}
	return id, nil
}
