package gen

// Business numbers: a segment counter with format= (and reset=), printed
// by its template (DESIGN "Business numbers").

import (
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/numbers"
	"github.com/idgen/idgen/internal/segment"
)

// numberGen is a segment generator whose text is a template: with
// reset=, its counter restarts at start each period of the store's clock
// (segment.Counter's periods), and its values are text only, since a
// value alone repeats each period.
//
//   - Exhaustion and overflow: as segGen (a period's counter never wraps).
//   - Clock: the store's decides the period; a store whose clock goes
//     back before the period last taken from is ErrClockBackwards until it
//     is back. The generator's own clock only measures elapsed time.
//   - The period's end: no value of a period is handed out once the
//     store's clock may have passed its end; the next call takes from the
//     next period.
type numberGen struct {
	*segGen
	tmpl *numbers.Template
	tz   *time.Location
	cal  *numbers.Calendar // nil without reset=
}

func newNumbers(g *segGen) *numberGen {
	c := g.cfg
	n := &numberGen{segGen: g, tmpl: c.Numbers.Format, tz: c.Numbers.TZ}
	if cal, ok := c.Periods().(numbers.Calendar); ok {
		n.cal = &cal
	}
	if n.tz == nil {
		n.tz = time.UTC
	}
	return n
}

// openSegment opens a segment generator of sh's configuration on st:
// business numbers with format=, whose counter restarts each period of
// reset= (or of opt's test hook).
func openSegment(sh *shape, st segment.Store, opt Options) (Generator, error) {
	opt.Periods = periodsOf(sh.cfg, opt)
	g, err := newSegment(sh, st, opt)
	if err != nil || sh.cfg.Numbers.Format == nil {
		return g, err
	}
	return newNumbers(g.(*segGen)), nil
}

// periodsOf are the periods c's counter restarts in: reset='s calendar,
// or opt's test hook in its place (nil: it never restarts).
func periodsOf(c *config.Spec, opt Options) numbers.Periods {
	p := c.Periods()
	if p != nil && opt.Periods != nil {
		return opt.Periods
	}
	return p
}

var errTextOnly = errs.New(errs.ErrInvalid, "business numbers restart each period (reset=), so a value alone is not unique: use idgen_next_text")

// resets reports whether the counter restarts each period.
func (g *numberGen) resets() bool { return g.cal != nil }

// Next is the next value: ErrInvalid with reset= (text only).
func (g *numberGen) Next() (int64, error) {
	if g.resets() {
		return -1, errTextOnly
	}
	return g.segGen.Next()
}

// NextBatch: ErrInvalid with reset= (text only).
func (g *numberGen) NextBatch(out []int64) error {
	if g.resets() {
		return errTextOnly
	}
	return g.segGen.NextBatch(out)
}

// TextLen is the longest text the template prints.
func (g *numberGen) TextLen() int { return g.tmpl.MaxLen() }

// NextText writes the next number.
func (g *numberGen) NextText(dst []byte) (int, error) {
	v, per, err := NextNumber(g)
	if err != nil {
		return 0, err
	}
	out, err := g.tmpl.Append(dst[:0], g.startOf(per), v)
	if err != nil {
		return 0, err
	}
	return len(out), nil
}

// startOf is the first instant of per in the counter's zone (the zero
// time's date without a period).
func (g *numberGen) startOf(per *numbers.Period) time.Time {
	if per == nil {
		return time.Time{}
	}
	return time.UnixMilli(per.Start).In(g.tz)
}

// NextNumber is the next value of a segment generator and its period
// (nil for a counter that never restarts); tests read the period's label
// through it, which a test hook's short periods do not print.
func NextNumber(g Generator) (int64, *numbers.Period, error) {
	var s *segGen
	switch x := g.(type) {
	case *numberGen:
		s = x.segGen
	case *segGen:
		s = x
	default:
		return -1, nil, errs.New(errs.ErrInvalid, "not a segment generator")
	}
	if s.c == nil {
		return -1, nil, errDecodeOnly
	}
	return s.c.NextIn()
}

// DecodeText reads a number: sequence the value, unix_ms the start of
// its period (-1 without reset=), id the value without reset= (-1 with
// it: the value alone is not the number).
func (g *numberGen) DecodeText(text string) (TextParts, error) {
	f, err := g.tmpl.Read(text)
	if err != nil {
		return TextParts{}, err
	}
	p := TextParts{ID: f.Value, UnixMs: -1, Sequence: f.Value, PID: -1, LoaderHash: -1}
	if g.resets() {
		start := g.cal.Start(f.Year, f.Month, f.Day)
		if y, m, d := start.Date(); y != f.Year || g.cal.Reset != numbers.Year && m != f.Month || g.cal.Reset == numbers.Day && d != f.Day {
			return TextParts{}, errs.New(errs.ErrInvalid, "%q is not a number of format %q: its date does not exist", text, g.tmpl)
		}
		p.ID, p.UnixMs = -1, start.UnixMilli()
	}
	return p, nil
}

// Decode: with reset= a value alone is no number (ErrInvalid).
func (g *numberGen) Decode(id int64) (Parts, error) {
	if g.resets() {
		return Parts{}, errTextOnly
	}
	return g.segGen.Decode(id)
}

// Compose: with reset= ErrInvalid, as Decode.
func (g *numberGen) Compose(p Parts) (int64, error) {
	if g.resets() {
		return 0, errTextOnly
	}
	return g.segGen.Compose(p)
}

func (g *numberGen) stats(s *Stats) {
	g.segGen.stats(s)
	if g.segGen.c != nil {
		if ms, ok := g.segGen.c.Skew(); ok {
			s.SkewMs = ms
		}
	}
}

// HostRunKind: business numbers are never served from a host's runs
// (host_runs.go): each value's period is checked as it is handed out,
// and with reset= a value alone is no number.
func (g *numberGen) HostRunKind() int { return RunsNone }
