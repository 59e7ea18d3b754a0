package gen

// What a generator is, for a host that asks rather than probes
// (idgen_get_info): its kind, whether it leases, its tick, the length of
// its text form and the longest run it hands out.

import (
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

// The kinds of Info.Kind (IDGEN_KIND_*).
const (
	KindNumeric  = 1 // 64-bit ids: the Snowflake family, zk-session, zxid
	KindUUIDv7   = 2
	KindULID     = 3
	KindRocketMQ = 4 // rocketmq and rocketmq-v1
	KindCounter  = 5 // preset=segment
	KindNumber   = 6 // business numbers: preset=segment with format=
)

// Info is what idgen_get_info reports.
type Info struct {
	Kind       int64
	Leased     int64 // 1 when it holds a lease or takes segments from a store
	TickNs     int64 // the time field's unit; 0 without a time field
	TextLen    int64 // the text form's length; 0 when it varies
	LongestRun int64 // N of runs=N; 1 without runs
}

// kinds are the Kind of each scheme.
var kinds = [...]int64{
	config.SchemeTime: KindNumeric, config.SchemeSession: KindNumeric, config.SchemeZxid: KindNumeric,
	config.SchemeRocketMQ: KindRocketMQ, config.SchemeRocketV1: KindRocketMQ,
	config.SchemeUUIDv7: KindUUIDv7, config.SchemeULID: KindULID, config.SchemeSegment: KindCounter,
}

// specced is every generator: its configuration as opened.
type specced interface{ spec() *config.Spec }

// leasing is a generator that may hold a lease or a store's segments.
type leasing interface{ holdsLease() bool }

// InfoOf reports what g is.
func InfoOf(g Generator) Info {
	c := g.(specced).spec()
	in := Info{Kind: kinds[c.Scheme], TickNs: tickNs(c), TextLen: int64(g.TextLen()), LongestRun: 1}
	if (c.Scheme == config.SchemeSegment || !c.Scheme.IsText()) && c.Text == config.TextDec {
		in.TextLen = 0 // decimal: as long as the number
	}
	if c.Numbers.Format != nil {
		in.Kind, in.TextLen = KindNumber, 0 // business numbers: as long as the value
	}
	if l, ok := g.(leasing); ok && l.holdsLease() {
		in.Leased = 1
	}
	if rn, ok := g.(RunNexter); ok {
		in.LongestRun = int64(rn.Longest())
	}
	return in
}

// tickNs is the unit of c's time field, 0 without one.
func tickNs(c *config.Spec) int64 {
	numeric := c.Scheme != config.SchemeSegment && !c.Scheme.IsText()
	if numeric && !c.Layout.Has(layout.FieldTime) {
		return 0
	}
	return int64(c.Unit)
}

func (s *shape) spec() *config.Spec    { return s.cfg }
func (b *randText) spec() *config.Spec { return b.cfg }

func (c *core) holdsLease() bool   { return c.lm != nil }
func (g *segGen) holdsLease() bool { return g.c != nil }

// AppendIDText appends id, one g issued or any other, in g's text= form
// (what NextText writes, without issuing); ErrInvalid for a text preset,
// whose ids are not numbers.
func AppendIDText(g Generator, dst []byte, id int64) ([]byte, error) {
	c := g.(specced).spec()
	if c.Scheme.IsText() {
		return dst, errs.New(errs.ErrInvalid, "preset %s ids are text, not numbers in a text= form", c.Preset)
	}
	return layout.AppendID(dst, id, c.Text.Base(), c.Text != config.TextDec)
}
