// Package explain describes a configuration in words: its bit layout
// drawn, its limits, an SVG of the layout, a text preset's fields, a
// segment counter, and the key table. It is the one implementation of
// that wording (idgen explain, python -m idgen explain, through the
// public package's Explain, ExplainSVG and KeyTable).
package explain

import (
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/gen"
	"github.com/idgen/idgen/internal/layout"
)

// Text is what explain prints of c: the layout and its limits, a text
// preset's fields, or a segment counter (which it describes without
// taking a segment). A configuration that does not open is its error.
func Text(c *config.Spec) (string, error) {
	if c.Scheme == config.SchemeSegment {
		return segmentText(c), nil
	}
	if err := opens(c); err != nil {
		return "", err
	}
	if c.Scheme.IsText() {
		return textExplain(c), nil
	}
	return explainText(c), nil
}

// SVG draws c's bit layout; ErrInvalid (naming --svg) for a counter or a
// text preset, which have none.
func SVG(c *config.Spec) (string, error) {
	if c.Scheme == config.SchemeSegment {
		return "", errs.New(errs.ErrInvalid, "--svg: preset segment is a counter, it has no bit layout to draw")
	}
	if err := opens(c); err != nil {
		return "", err
	}
	if c.Scheme.IsText() {
		return "", errs.New(errs.ErrInvalid, "--svg: preset %s is text, it has no bit layout to draw", c.Preset)
	}
	return explainSVG(c), nil
}

// Keys is the key table, a row a line: its name, the presets it applies
// to (comma-separated) and its default in words, separated by tabs. A key
// with a row of its own for preset=segment has two lines.
func Keys() []string {
	rows := config.KeyTable()
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.String()
	}
	return out
}

// opens checks that c opens, for decoding only (lease=off where it
// applies: no lease, no store): what explain describes is a generator.
func opens(c *config.Spec) error {
	d := *c
	d.LeaseOff = !c.Scheme.IsText()
	g, err := gen.Open(&d, gen.Options{})
	if err != nil {
		return err
	}
	return g.Close()
}

// rfc3339 prints unix ms as RFC 3339, or says it lies beyond year 9999.
func rfc3339(ms int64) string {
	if ms < 0 || ms > 253402300799999 {
		return fmt.Sprintf("%d ms since 1970 (beyond year 9999)", ms)
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
}

// letters draw each field in the bar.
var letters = map[layout.FieldKind]byte{
	layout.FieldTime: 't', layout.FieldDatacenter: 'd', layout.FieldWorker: 'w', layout.FieldSeq: 's',
	layout.FieldEpoch: 'e', layout.FieldCounter: 'c', layout.FieldBackwards: 'b',
}

// explainText is the drawing and the limits; python -m idgen prints the
// same text (bindings/python/tests/test_cli.py compares them).
func explainText(c *config.Spec) string {
	var b strings.Builder
	drawLayout(&b, c)
	b.WriteByte('\n')
	writeLimits(&b, c)
	return b.String()
}

// drawLayout writes the configuration's line, the bar of 64 bits and a
// line per field.
func drawLayout(b *strings.Builder, c *config.Spec) {
	l := &c.Layout
	fmt.Fprintf(b, "preset=%s layout=%s", c.Preset, l)
	if c.Scheme != config.SchemeZxid {
		fmt.Fprintf(b, " unit=%s epoch=%s", config.FormatUnit(c.Unit), rfc3339(c.EpochMs))
	}
	b.WriteString("\n\n")
	bar := []byte(strings.Repeat("0", 64-int(l.Bits())))
	for _, f := range l.Fields {
		bar = append(bar, strings.Repeat(string(letters[f.Kind]), int(f.Width))...)
	}
	fmt.Fprintf(b, "  63%s0\n  |%s|\n", strings.Repeat(" ", 60), bar)
	if 64-l.Bits() > 0 {
		fmt.Fprintf(b, "  bits %2d..%-2d  %-10s %2d bit%s  always 0 (ids are never negative)\n", 63, l.Bits(), "-", 64-l.Bits(), plural(64-l.Bits()))
	}
	for _, f := range l.Fields {
		hi := f.Shift + f.Width - 1
		desc := fmt.Sprintf("0..%d", f.Max())
		switch f.Kind {
		case layout.FieldTime:
			desc = "units of " + config.FormatUnit(c.Unit) + " since the epoch"
			if c.Scheme == config.SchemeSession {
				desc = "low bits of the ms at opening, carried into by the sequence"
			}
		case layout.FieldSeq:
			desc = fmt.Sprintf("0..%d per tick", f.Max())
		}
		fmt.Fprintf(b, "  bits %2d..%-2d  %-10s %2d bit%s  %s\n", hi, f.Shift, f.Kind, f.Width, plural(f.Width), desc)
	}
}

// writeLimits writes how many ids, how many workers, and when the time
// field runs out.
func writeLimits(b *strings.Builder, c *config.Spec) {
	l := &c.Layout
	workers, dcs := int64(1), int64(1)
	if f, ok := l.Field(layout.FieldWorker); ok {
		workers = f.Max() + 1
	}
	if f, ok := l.Field(layout.FieldDatacenter); ok {
		dcs = f.Max() + 1
	}
	switch c.Scheme {
	case config.SchemeTime:
		sf, _ := l.Field(layout.FieldSeq)
		perSec := new(big.Int).Mul(big.NewInt(sf.Max()+1), big.NewInt(int64(time.Second/time.Millisecond)))
		perSec.Div(perSec, big.NewInt(c.Unit.Milliseconds()))
		fmt.Fprintf(b, "ids per second per worker: %s\n", perSec)
	case config.SchemeSession:
		b.WriteString("ids per second per worker: no fixed limit (the counter may run ahead of the clock)\n")
	case config.SchemeZxid:
		cf, _ := l.Field(layout.FieldCounter)
		ef, _ := l.Field(layout.FieldEpoch)
		fmt.Fprintf(b, "ids per epoch: %d; epochs: %d\n", cf.Max(), ef.Max()+1)
	}
	if dcs > 1 {
		fmt.Fprintf(b, "workers: %d (%d datacenters x %d workers)\n", dcs*workers, dcs, workers)
	} else {
		fmt.Fprintf(b, "workers: %d\n", workers)
	}
	if tf, ok := l.Field(layout.FieldTime); ok && c.Scheme == config.SchemeTime {
		end := new(big.Int).Mul(big.NewInt(tf.Max()+1), big.NewInt(c.Unit.Milliseconds()))
		end.Add(end, big.NewInt(c.EpochMs))
		if end.IsInt64() && end.Int64() <= 253402300799999 {
			t := time.UnixMilli(end.Int64()).UTC()
			fmt.Fprintf(b, "time field runs out: %s (year %d)\n", t.Format(time.RFC3339Nano), t.Year())
		} else {
			b.WriteString("time field runs out: after year 9999\n")
		}
	}
}

func plural(n uint) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// explainSVG draws the layout as boxes, 12 px per bit.
func explainSVG(c *config.Spec) string {
	const px, h, top = 12, 40, 30
	colors := map[layout.FieldKind]string{
		layout.FieldTime: "#8ecae6", layout.FieldDatacenter: "#ffb703", layout.FieldWorker: "#fb8500",
		layout.FieldSeq: "#90be6d", layout.FieldEpoch: "#cdb4db", layout.FieldCounter: "#a8dadc", layout.FieldBackwards: "#e76f51",
	}
	var b strings.Builder
	width := 64*px + 20
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12">`+"\n", width, top+h+40)
	title := c.Preset + ": " + c.Layout.String()
	if c.Scheme != config.SchemeZxid {
		title += ", unit " + config.FormatUnit(c.Unit) + ", epoch " + rfc3339(c.EpochMs)
	}
	fmt.Fprintf(&b, `<text x="10" y="18" font-weight="bold">%s</text>`+"\n", xmlEscape(title))
	x := 10
	if pad := 64 - int(c.Layout.Bits()); pad > 0 {
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="#dddddd" stroke="#333"/>`+"\n", x, top, pad*px, h)
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">0</text>`+"\n", x+pad*px/2, top+h/2+4)
		x += pad * px
	}
	for _, f := range c.Layout.Fields {
		w := int(f.Width) * px
		fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%d" height="%d" fill="%s" stroke="#333"/>`+"\n", x, top, w, h, colors[f.Kind])
		label := fmt.Sprintf("%s %d", f.Kind, f.Width)
		if w < len(label)*7 {
			label = fmt.Sprintf("%d", f.Width)
		}
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="middle">%s</text>`+"\n", x+w/2, top+h/2+4, xmlEscape(label))
		fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="start" font-size="10">%d</text>`+"\n", x+1, top+h+14, f.Shift+f.Width-1)
		x += w
	}
	fmt.Fprintf(&b, `<text x="%d" y="%d" text-anchor="end" font-size="10">0</text>`+"\n", x-1, top+h+14)
	b.WriteString("</svg>\n")
	return b.String()
}

func xmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
