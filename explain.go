package idgen

// What a configuration is, in words and without a lease: the words of
// idgen explain and idgen decode, for the CLI and for any Go program.

import (
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/explain"
	"github.com/idgen/idgen/internal/gen"
	"github.com/idgen/idgen/internal/layout"
)

// Explain describes conf as `idgen explain` prints it: the bit layout
// drawn and its limits (ids per second per worker, workers, when the
// time field runs out), a text preset's fields, or a segment counter. It
// takes no lease and contacts no store. Errors: what Open would say of a
// bad configuration (ErrInvalid, naming the key).
func Explain(conf string) (string, error) {
	c, err := config.Parse(conf)
	if err != nil {
		return "", err
	}
	return explain.Text(c)
}

// ExplainSVG draws conf's bit layout as an SVG image (12 px per bit);
// ErrInvalid for a text preset or a segment counter, which have none.
func ExplainSVG(conf string) (string, error) {
	c, err := config.Parse(conf)
	if err != nil {
		return "", err
	}
	return explain.SVG(c)
}

// KeyTable is the table of configuration keys, a row a line: the key's
// name, the presets it applies to (comma-separated) and its default in
// words, separated by tabs (`idgen explain --keys`). A key with a row of
// its own for preset=segment has two lines.
func KeyTable() []string { return explain.Keys() }

// LayoutFields are the field names a layout= value may use (`idgen
// explain --fields`), e.g. time, datacenter, worker, seq.
func LayoutFields() []string { return layout.FieldNames() }

// OpenDecoder opens conf for decoding only: with lease=off where the key
// applies (numeric presets and segment: no lease, no segment, no store
// contacted; Next and its kin fail with ErrInvalid naming lease=off), and
// as it is for a text preset, which takes no lease. Decode, DecodeText,
// Compose, AppendID, Info and Config work as on a generator opened with
// Open.
func OpenDecoder(conf string) (*Generator, error) {
	c, err := config.Parse(conf)
	if err != nil {
		return nil, err
	}
	c.LeaseOff = c.LeaseOff || !c.Scheme.IsText()
	g, err := gen.Open(c, gen.Options{})
	if err != nil {
		return nil, err
	}
	return &Generator{g: g, n: gen.Track(g)}, nil
}

// AppendID appends id (one g issued, or any other) in g's text form, the
// text= of a numeric configuration: decimal, or fixed-width base 16, 36
// or 62, as NextText writes ids, without issuing one. ErrInvalid for a
// text preset, whose ids are not numbers.
func (g *Generator) AppendID(dst []byte, id int64) ([]byte, error) {
	if g.closed.Load() {
		return dst, errClosed
	}
	return gen.AppendIDText(g.g, dst, id)
}
