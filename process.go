package idgen

import (
	"unsafe"

	"github.com/idgen/idgen/internal/gen"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/metrics"
)

// The process-wide default generator (idgen_next_id and its kin): built on
// first use from $IDGEN_CONFIG, or the defaults when that is unset.

// NextID returns the next id of the default generator.
func NextID() (int64, error) {
	var id int64
	err := gen.WithDefault(func(g gen.Generator) (err error) {
		id, err = g.Next()
		return err
	})
	return id, err
}

// NextIDs fills out with ids of the default generator, as NextBatch.
func NextIDs(out []int64) error {
	return gen.WithDefault(func(g gen.Generator) error { return g.NextBatch(out) })
}

// Decode splits an id by the default generator's layout.
func Decode(id int64) (Parts, error) {
	g, err := gen.Default()
	if err != nil {
		return Parts{}, err
	}
	p, err := g.Decode(id)
	return Parts(p), err
}

// Configure replaces the default generator with one built from config;
// the one it replaces is closed once no call is using it, and the new one
// goes on above every id the old one issued.
func Configure(config string) error { return gen.Configure(config) }

// Format writes id in base 10, 16, 36 or 62; fixed pads base 16, 36 and
// 62 to the width of the largest id, so that text order is id order.
func Format(id int64, base int, fixed bool) (string, error) {
	var buf [textMax]byte
	b, err := AppendFormat(buf[:0], id, base, fixed)
	return string(b), err
}

// AppendFormat is Format appending to dst.
func AppendFormat(dst []byte, id int64, base int, fixed bool) ([]byte, error) {
	return layout.AppendID(dst, id, base, fixed)
}

// Parse reads text written by Format in the same base, fixed width or
// not. ErrInvalid for anything else (a negative number, a stray byte).
func Parse(text string, base int) (int64, error) { return layout.ParseID(text, base) }

// MetricsText is every open generator of the process (C, Python, Java and
// Go callers alike) in the Prometheus text exposition format.
func MetricsText() string {
	b := metrics.Text() // fresh and never written again: no copy needed
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// AppendMetricsText is MetricsText appended to dst: a scraper that keeps
// its buffer makes almost no garbage.
func AppendMetricsText(dst []byte) []byte { return metrics.AppendText(dst) }
