package config

// layout= and zxid_epoch=: the fields of an id.

import (
	"strconv"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

func readLayout(d *draft, v string) error {
	l, err := layout.Parse(v)
	if err != nil {
		return err
	}
	d.Layout = l
	return d.checkLayout()
}

func defLayout(d *draft) error { return readLayout(d, presets[d.Preset].layout) }

func printLayout(c *Spec) (string, bool) { return c.Layout.String(), true }

// layoutFields are the fields each numeric scheme's layout may have.
var layoutFields = map[Scheme][]layout.FieldKind{
	SchemeTime:    {layout.FieldTime, layout.FieldDatacenter, layout.FieldWorker, layout.FieldSeq, layout.FieldBackwards},
	SchemeSession: {layout.FieldWorker, layout.FieldTime, layout.FieldSeq},
	SchemeZxid:    {layout.FieldEpoch, layout.FieldCounter},
}

// checkLayout checks the fields against the scheme: which it may have,
// in which order, and that they fit an id.
func (c *Spec) checkLayout() error {
	l := &c.Layout
	for _, f := range l.Fields {
		ok := false
		for _, k := range layoutFields[c.Scheme] {
			ok = ok || k == f.Kind
		}
		if f.Kind == layout.FieldBackwards && (f.Width < 1 || f.Width > 4) {
			return errs.Key("layout", "backwards:%d: the rollback counter takes 1 to 4 bits", f.Width)
		}
		if !ok {
			return errs.Key("layout", "preset %s has no %q field", c.Preset, f.Kind)
		}
	}
	if err := c.checkOrder(); err != nil {
		return err
	}
	if l.Bits() > 64 {
		return errs.Key("layout", "fields add up to %d bits; at most 64 fit in an id", l.Bits())
	}
	return nil
}

// checkOrder checks where the scheme needs its fields.
func (c *Spec) checkOrder() error {
	l := &c.Layout
	switch c.Scheme {
	case SchemeTime:
		if !l.Has(layout.FieldTime) || !l.Has(layout.FieldSeq) {
			return errs.Key("layout", "a time-based layout needs a time and a seq field")
		}
		if !l.Order(layout.FieldTime, layout.FieldSeq) {
			return errs.Key("layout", "time must come before seq so that ids increase")
		}
		if l.Bits() > 63 {
			return errs.Key("layout", "fields add up to %d bits; at most 63 are allowed (bit 63 stays 0)", l.Bits())
		}
	case SchemeSession:
		t, ok1 := l.Field(layout.FieldTime)
		s, ok2 := l.Field(layout.FieldSeq)
		if !ok1 || !ok2 || t.Shift != s.Width || s.Shift != 0 {
			return errs.Key("layout", "preset %s needs time directly above seq at the low end", c.Preset)
		}
		if w, ok := l.Field(layout.FieldWorker); ok && w.Shift != t.Shift+t.Width {
			return errs.Key("layout", "preset %s needs worker above time", c.Preset)
		}
	case SchemeZxid:
		e, ok1 := l.Field(layout.FieldEpoch)
		n, ok2 := l.Field(layout.FieldCounter)
		if !ok1 || !ok2 || n.Shift != 0 || e.Shift != n.Width {
			return errs.Key("layout", "preset zxid needs epoch directly above counter")
		}
	}
	return nil
}

func readZxidEpoch(d *draft, v string) (err error) {
	f, _ := d.Layout.Field(layout.FieldEpoch)
	d.ZxidEpoch, err = parseInt("zxid_epoch", v, f.Max())
	return err
}

func printZxidEpoch(c *Spec) (string, bool) { return strconv.FormatInt(c.ZxidEpoch, 10), true }
