package gen

import (
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/segment"
)

// segGen hands out the values of a named counter (preset=segment), in
// segments taken from its store by a segment.Counter.
//
//   - Exhaustion: a segment used up is followed by the prefetched one; a
//     caller that outruns the prefetch waits up to max_wait, then
//     ErrWorker naming the store (the store does not answer).
//   - Clock: none is used; nothing can go back.
//   - Overflow: past INT64_MAX, ErrTimeOverflow; the counter never wraps.
type segGen struct {
	*shape   // the text= form (TextLen, formatText, parseText); no layout
	c        *segment.Counter
	hostHeld // a host's runs (host_runs.go)
}

// newSegment opens a segment generator of sh's configuration on the
// counter store st, with opt's time (and opt.Periods: its counter's
// periods, as openSegment resolved them).
func newSegment(sh *shape, st segment.Store, opt Options) (Generator, error) {
	c := sh.cfg
	cnt, err := segment.NewCounter(st, segment.Config{
		Name: c.Name, Start: c.Segment.Start, Step: c.Segment.Step, Auto: c.Segment.Auto,
		Min: config.MinAutoStep, Max: config.MaxAutoStep, Padding: int64(c.Padding), MaxWait: c.MaxWait,
		Env: opt.Env, Periods: opt.Periods, Clock: opt.Clock,
	})
	if err != nil {
		return nil, err
	}
	return &segGen{shape: sh, c: cnt}, nil
}

var errDecodeOnly = errs.New(errs.ErrInvalid, "this segment generator was opened for decoding only")

// Next returns the next value of the counter.
func (g *segGen) Next() (int64, error) {
	if g.c == nil {
		return -1, errDecodeOnly
	}
	return g.c.Next()
}

// NextBatch fills out with increasing values, from as many segments as it
// takes. A batch is all or nothing: near INT64_MAX, one that asks for more
// values than are left fails with ErrTimeOverflow and takes none of them
// (Counter.Enough), so that Next and smaller batches hand them out.
func (g *segGen) NextBatch(out []int64) error {
	if g.c == nil {
		return errDecodeOnly
	}
	if err := g.c.Enough(int64(len(out))); err != nil {
		return err // all or nothing: what is left stays for the next calls
	}
	reserved := int64(0)
	err := fillRuns(out, 1, func(n uint64) (int64, uint64, error) {
		first, got, err := g.c.Reserve(int64(n))
		reserved += got
		return first, uint64(got), err
	})
	if err != nil {
		g.c.Forfeit(reserved) // a failed batch hands out nothing (stats count handed-out values)
	}
	return err
}

// NextText writes the next value in the text= form.
func (g *segGen) NextText(dst []byte) (int, error) {
	id, err := g.Next()
	return g.formatText(id, err, dst)
}

// Decode: a segment id is its value: id and sequence; the rest -1.
func (g *segGen) Decode(id int64) (Parts, error) {
	if id < 0 {
		return Parts{}, errs.New(errs.ErrInvalid, "id %d is negative; idgen ids never are", id)
	}
	return Parts{ID: id, UnixMs: -1, Time: -1, Epoch: -1, Datacenter: -1, Worker: -1, Sequence: id}, nil
}

// Compose is the inverse of Decode: the sequence is the id.
func (g *segGen) Compose(p Parts) (int64, error) {
	for _, f := range []struct {
		name string
		v    int64
	}{{"unix_ms", p.UnixMs}, {"time", p.Time}, {"epoch", p.Epoch}, {"datacenter", p.Datacenter}, {"worker", p.Worker}} {
		if f.v != -1 && f.v != 0 {
			return 0, errs.New(errs.ErrInvalid, "%s: a segment id is a counter value only, so it must be -1 or 0, got %d", f.name, f.v)
		}
	}
	if p.Sequence < 0 {
		return 0, errs.New(errs.ErrRange, "sequence: %d is negative; a segment id is the counter value (>= 0)", p.Sequence)
	}
	return p.Sequence, nil
}

// DecodeText reads a value in the text= form.
func (g *segGen) DecodeText(text string) (TextParts, error) {
	id, err := g.parseText(text)
	if err != nil {
		return TextParts{}, err
	}
	return TextParts{ID: id, UnixMs: -1, Sequence: id, PID: -1, LoaderHash: -1}, nil
}

// Config is the configuration string.
func (g *segGen) Config() string { return g.cfgString }

// LastValue is the number of values handed out.
func (g *segGen) LastValue() int64 {
	if g.c == nil {
		return 0
	}
	return g.c.Issued()
}

// Close gives back the unused values when it can (segment.Counter.Close).
func (g *segGen) Close() error {
	if g.c == nil {
		return nil
	}
	return g.c.Close()
}

func (g *segGen) stats(s *Stats) {
	if g.c != nil {
		held := g.held() // in the host's hands: not handed out yet
		s.Issued, s.SegmentLeft = g.c.Issued()-held, g.c.Left()+held
	}
}
