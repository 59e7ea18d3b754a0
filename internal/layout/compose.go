package layout

import (
	"math"
	"strconv"

	"github.com/idgen/idgen/internal/errs"
)

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

// Codec composes ids of one layout, epoch and unit, and decodes them. The
// sequence of Parts is the layout's seq field, or its counter (zxid); the
// epoch is its epoch field, or its backwards (rollback) counter.
type Codec struct {
	Layout  Layout
	EpochMs int64 // the time field's zero, ms since 1970
	UnitMs  int64 // ms per unit of the time field
	// Wraps: the time field holds only the low bits of the time (ZooKeeper
	// session ids); Decode restores the rest from Now.
	Wraps bool
	// Now is the present in ms since 1970, read only when Wraps.
	Now func() int64
}

// Check refuses an id this layout cannot have made: negative, or with bits
// above the layout's.
func (c *Codec) Check(id int64) error {
	if id < 0 {
		return errs.New(errs.ErrInvalid, "id %d is negative; idgen ids never are", id)
	}
	if b := c.Layout.Bits(); b < 63 && id>>b != 0 {
		return errs.New(errs.ErrInvalid, "id %d has bits above the %d bits of layout %s", id, b, c.Layout)
	}
	return nil
}

// Decode splits id by the layout.
func (c *Codec) Decode(id int64) (Parts, error) {
	if err := c.Check(id); err != nil {
		return Parts{}, err
	}
	l := &c.Layout
	p := Parts{
		ID:         id,
		UnixMs:     -1,
		Time:       l.Get(id, FieldTime),
		Epoch:      max(l.Get(id, FieldEpoch), l.Get(id, FieldBackwards)), // a layout has one or neither
		Datacenter: l.Get(id, FieldDatacenter),
		Worker:     l.Get(id, FieldWorker),
		Sequence:   max(l.Get(id, FieldSeq), l.Get(id, FieldCounter)), // likewise
	}
	if p.Time >= 0 {
		tick := p.Time
		if c.Wraps {
			tick = c.nearestTick(p.Time)
		}
		if tick > (math.MaxInt64-c.EpochMs)/c.UnitMs {
			return Parts{}, errs.New(errs.ErrRange, "id %d: its time (%d units of %s after the epoch) lies beyond the int64 milliseconds of unix_ms", id, tick, unitName(c.UnitMs))
		}
		p.UnixMs = c.EpochMs + tick*c.UnitMs
	}
	return p, nil
}

// unitName prints a unit as the configuration writes it: 1ms, 10ms, 1s.
func unitName(ms int64) string {
	if ms%1000 == 0 {
		return strconv.FormatInt(ms/1000, 10) + "s"
	}
	return strconv.FormatInt(ms, 10) + "ms"
}

// nearestTick restores the high bits a wrapped time field drops: of all
// ticks whose low bits equal t, the one closest to the present.
func (c *Codec) nearestTick(t int64) int64 {
	f, _ := c.Layout.Field(FieldTime)
	if f.Width >= 62 {
		return t
	}
	span := int64(1) << f.Width
	now := (c.Now() - c.EpochMs) / c.UnitMs
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
func (c *Codec) Compose(p Parts) (int64, error) {
	l := &c.Layout
	t, err := c.timeField(p)
	if err != nil {
		return 0, err
	}
	epochKind, seqKind := FieldEpoch, FieldSeq
	if l.Has(FieldBackwards) {
		epochKind = FieldBackwards
	}
	if l.Has(FieldCounter) {
		seqKind = FieldCounter
	}
	var id int64
	for _, x := range []struct {
		k    FieldKind
		name string
		v    int64
	}{
		{FieldTime, "time", t},
		{epochKind, "epoch", p.Epoch},
		{FieldDatacenter, "datacenter", p.Datacenter},
		{FieldWorker, "worker", p.Worker},
		{seqKind, "sequence", p.Sequence},
	} {
		bits, err := c.put(x.k, x.name, x.v)
		if err != nil {
			return 0, err
		}
		id |= bits
	}
	return id, nil
}

// timeField is the time field of p: from UnixMs when it is set, else its
// raw Time. Without a time field both must be -1 or 0 (and it is -1).
func (c *Codec) timeField(p Parts) (int64, error) {
	l := &c.Layout
	f, ok := l.Field(FieldTime)
	if !ok {
		for _, x := range []struct {
			name string
			v    int64
		}{{"unix_ms", p.UnixMs}, {"time", p.Time}} {
			if x.v != -1 && x.v != 0 {
				return 0, errs.New(errs.ErrInvalid, "%s: the layout %s has no time field, so unix_ms and time must be -1 or 0, got %d", x.name, l, x.v)
			}
		}
		return -1, nil
	}
	if p.UnixMs < 0 {
		if p.Time < 0 {
			return 0, errs.New(errs.ErrInvalid, "time: give unix_ms or a raw time >= 0")
		}
		return p.Time, nil
	}
	if p.UnixMs < c.EpochMs {
		return 0, errs.New(errs.ErrRange, "unix_ms: %d is before the layout's epoch %d", p.UnixMs, c.EpochMs)
	}
	t := (p.UnixMs - c.EpochMs) / c.UnitMs
	if c.Wraps {
		t &= f.Max()
	}
	return t, nil
}

// put is v in field k of an id; a field the layout lacks takes only -1
// or 0.
func (c *Codec) put(k FieldKind, name string, v int64) (int64, error) {
	l := &c.Layout
	f, ok := l.Field(k)
	if !ok {
		if v != -1 && v != 0 {
			return 0, errs.New(errs.ErrInvalid, "%s: the layout %s has no %s field, so it must be -1 or 0, got %d", name, l, name, v)
		}
		return 0, nil
	}
	if v < 0 || v > f.Max() {
		return 0, errs.New(errs.ErrRange, "%s: %d does not fit the %d-bit field (0..%d)", name, v, f.Width, f.Max())
	}
	return v << f.Shift, nil
}
