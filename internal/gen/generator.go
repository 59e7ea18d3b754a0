package gen

import (
	"time"
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
	Clock Clock
}

// Open builds the generator a configuration describes: it resolves the
// worker and datacenter sources (taking a lease if asked), and checks that
// the layout's time range has started. Nothing is left half-built on error.
func Open(c *Config, opt Options) (Generator, error) {
	clk := opt.Clock
	ownClock := clk == nil
	if clk == nil {
		if c.WallClock {
			clk = WallClock{}
		} else {
			clk = NewMonoClock()
		}
	}
	rc := *c // the resolved copy
	var lease *Lease
	if c.WorkerSrc == SourceLease {
		l, err := AcquireLease(&rc)
		if err != nil {
			return nil, err
		}
		lease = l
	} else {
		resolveSources(&rc)
	}
	sh := &shape{cfg: &rc, clock: clk}
	var g Generator
	var err error
	switch rc.Scheme {
	case SchemeSession:
		g, err = newSession(sh, lease)
	case SchemeZxid:
		g, err = newZxid(sh, lease)
	default:
		var tg *timeGen
		if tg, err = newTimeGen(sh, lease); err == nil {
			tg.ownClock = ownClock
			g = tg
		}
	}
	if err != nil {
		if lease != nil {
			lease.Release()
		}
		return nil, err
	}
	return g, nil
}

// OpenString parses and opens in one step.
func OpenString(s string) (Generator, error) {
	c, err := ParseConfig(s)
	if err != nil {
		return nil, err
	}
	return Open(c, Options{})
}

// resolveMAC turns datacenter=mac into its number (hutool's derivation).
func resolveMAC(c *Config) {
	if c.DCSrc == SourceMAC {
		f, _ := c.Layout.Field(FieldDatacenter)
		c.DC = HutoolDatacenterID(LocalHardwareAddress(), f.Max())
		c.DCSrc = SourceValue
	}
}

// resolveSources turns pid and mac into numbers and unset into 0.
func resolveSources(c *Config) {
	resolveMAC(c)
	c.DCSrc = SourceValue // unset means 0
	if c.WorkerSrc == SourcePID {
		f, _ := c.Layout.Field(FieldWorker)
		c.Worker = HutoolWorkerID(c.DC, int64(pid()), f.Max())
	}
	c.WorkerSrc = SourceValue
}

// shape is what decoding and composing need: the layout, its epoch and
// unit, and a clock (zk-session restores its missing high time bits from
// the present).
type shape struct {
	cfg   *Config
	clock Clock
}

func (s *shape) unitMs() int64 { return int64(s.cfg.Unit / time.Millisecond) }

func (s *shape) checkID(id int64) error {
	if id < 0 {
		return errorf(ErrInvalid, "id %d is negative; idgen ids never are", id)
	}
	if b := s.cfg.Layout.Bits(); b < 63 && id>>b != 0 {
		return errorf(ErrInvalid, "id %d has bits above the %d bits of layout %s", id, b, s.cfg.Layout)
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
		Time:       l.get(id, FieldTime),
		Epoch:      l.get(id, FieldEpoch),
		Datacenter: l.get(id, FieldDatacenter),
		Worker:     l.get(id, FieldWorker),
		Sequence:   l.get(id, FieldSeq),
	}
	if s.cfg.Scheme == SchemeZxid {
		p.Sequence = l.get(id, FieldCounter)
	}
	if p.Time >= 0 {
		tick := p.Time
		if s.cfg.Scheme == SchemeSession {
			tick = s.nearestTick(p.Time)
		}
		p.UnixMs = s.cfg.EpochMs + tick*s.unitMs()
	}
	return p, nil
}

// nearestTick restores the high bits a session id drops: of all ticks whose
// low bits equal t, the one closest to the present.
func (s *shape) nearestTick(t int64) int64 {
	f, _ := s.cfg.Layout.Field(FieldTime)
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
	put := func(k FieldKind, name string, v int64) error {
		f, ok := l.Field(k)
		if !ok {
			if v != -1 && v != 0 {
				return errorf(ErrInvalid, "%s: the layout %s has no %s field, so it must be -1 or 0, got %d", name, l, name, v)
			}
			return nil
		}
		if v < 0 || v > f.Max() {
			return errorf(ErrRange, "%s: %d does not fit the %d-bit field (0..%d)", name, v, f.Width, f.Max())
		}
		id |= v << f.Shift
		return nil
	}
	if l.Has(FieldTime) {
		t := p.Time
		if p.UnixMs >= 0 {
			if p.UnixMs < s.cfg.EpochMs {
				return 0, errorf(ErrRange, "unix_ms: %d is before the layout's epoch %d", p.UnixMs, s.cfg.EpochMs)
			}
			t = (p.UnixMs - s.cfg.EpochMs) / s.unitMs()
			if s.cfg.Scheme == SchemeSession {
				f, _ := l.Field(FieldTime)
				t &= f.Max()
			}
		} else if t < 0 {
			return 0, errorf(ErrInvalid, "time: give unix_ms or a raw time >= 0")
		}
		if err := put(FieldTime, "time", t); err != nil {
			return 0, err
		}
	} else if p.UnixMs > 0 || p.Time > 0 {
		return 0, errorf(ErrInvalid, "time: the layout %s has no time field, so unix_ms and time must be -1 or 0", l)
	}
	seqKind := FieldSeq
	if s.cfg.Scheme == SchemeZxid {
		seqKind = FieldCounter
	}
	for _, x := range []struct {
		k    FieldKind
		name string
		v    int64
	}{
		{FieldEpoch, "epoch", p.Epoch},
		{FieldDatacenter, "datacenter", p.Datacenter},
		{FieldWorker, "worker", p.Worker},
		{seqKind, "sequence", p.Sequence},
	} {
		if err := put(x.k, x.name, x.v); err != nil {
			return 0, err
		}
	}
	return id, nil
}
