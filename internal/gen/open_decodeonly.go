package gen

// lease=off: a generator opened for decoding only. It takes no lease,
// fetches no segment and contacts no store; it decodes, composes, reads
// text and shows its configuration, and refuses to issue, naming the key.

import (
	"sync/atomic"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
)

// errLeaseOff is what issuing on a lease=off generator returns.
var errLeaseOff = errs.Key("lease=off", "this generator was opened for decoding only: it takes no lease and issues no ids (decode, compose and text decoding work); open it without lease=off to issue")

// decodeOnly is the generator of a lease=off configuration: what decodes
// (a numeric layout, a segment decoder) with every issuing call refused.
type decodeOnly struct {
	Generator // decodes; its issuing calls are never reached
	cfg       *config.Spec
	closed    atomic.Bool
}

// openDecodeOnly opens what decodes sh's configuration (a numeric
// layout's epoch was checked by openShape).
func openDecodeOnly(sh *shape) Generator {
	var inner Generator = &layoutOnly{sh}
	if sh.cfg.Scheme == config.SchemeSegment {
		inner = &segGen{shape: sh}
		if sh.cfg.Numbers.Format != nil {
			inner = newNumbers(&segGen{shape: sh})
		}
	}
	return &decodeOnly{Generator: inner, cfg: sh.cfg}
}

func (g *decodeOnly) refuse() error {
	if g.closed.Load() {
		return errClosed
	}
	return errLeaseOff
}

func (g *decodeOnly) Next() (int64, error)         { return -1, g.refuse() }
func (g *decodeOnly) NextBatch([]int64) error      { return g.refuse() }
func (g *decodeOnly) NextText([]byte) (int, error) { return 0, g.refuse() }
func (g *decodeOnly) spec() *config.Spec           { return g.cfg }

// Close stops the clock the layout decodes with; closing twice is harmless.
func (g *decodeOnly) Close() error {
	if !g.closed.CompareAndSwap(false, true) {
		return nil
	}
	return g.Generator.Close()
}

// layoutOnly is a numeric layout without a generator: the shape's decode,
// compose and text= form.
type layoutOnly struct{ *shape }

func (l *layoutOnly) Next() (int64, error)         { return -1, errLeaseOff }
func (l *layoutOnly) NextBatch([]int64) error      { return errLeaseOff }
func (l *layoutOnly) NextText([]byte) (int, error) { return 0, errLeaseOff }
func (l *layoutOnly) Config() string               { return l.cfgString }
func (l *layoutOnly) LastValue() int64             { return 0 }
func (l *layoutOnly) Close() error                 { l.stopClock(); return nil }
