// Package idgen issues unique 64-bit and text ids: Snowflake and its
// relatives (hutool, mybatis-plus, Leaf, Baidu, sonyflake, ZooKeeper,
// RocketMQ), segments, UUIDv7 and ULID, with worker ids from a host lease,
// MAC+PID or a fleet coordinator, and defences against clock rollback.
//
// It is the same library the C ABI (include/idgen.h, libidgen.so) and the
// Python, Java and C++ bindings serve: a configuration string means the
// same generator in every language, and a Go program shares lease pools
// with the C, Python and Java processes of its fleet.
//
//	g, err := idgen.Open("preset=snowflake") // a host lease: worker=lease
//	if err != nil { ... }
//	defer g.Close()
//	id, err := g.Next()
package idgen

import (
	"context"
	"slices"
	"sync/atomic"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/gen"
)

// Generator issues ids. It is safe for concurrent use; its ids are
// strictly increasing, and no field ever wraps: when it cannot issue, it
// returns an error wrapping one of the sentinels (ErrClock, ErrOverflow,
// ErrWorker, ErrClosed).
type Generator struct {
	g      gen.Generator
	n      int64 // its number in MetricsText
	closed atomic.Bool
}

// Parts are the fields of an id, as idgen_parts: a field the layout lacks
// is -1.
type Parts struct {
	ID         int64
	UnixMs     int64 // generation time, ms since 1970 UTC; -1 if the layout has no time
	Time       int64 // raw time field (units since the epoch); -1 if none
	Epoch      int64 // zxid epoch, or the rollback counter; -1 if none
	Datacenter int64
	Worker     int64
	Sequence   int64 // sequence, or the counter of a counter layout
}

// TextParts are the fields of a text id, as idgen_text_parts; absent
// fields are -1, Addr is nil when the form has no address.
type TextParts struct {
	ID         int64 // a numeric preset's id; -1 for text-only forms
	UnixMs     int64
	Sequence   int64
	PID        int64
	LoaderHash int64
	Addr       []byte // IPv4 (4), IPv6 (16) or MAC (6) bytes; nil if none
}

// Open builds the generator that conf describes (the configuration
// string of include/idgen.h; "" means the defaults: preset=snowflake with
// a host lease). A lease source takes its pair before Open returns.
// Errors: ErrInvalid (the message names the key), ErrWorker, ErrClock.
func Open(conf string) (*Generator, error) { return OpenContext(context.Background(), conf) }

// OpenContext is Open that ctx can stop: an open that waits (for the
// clock to pass a predecessor's record, up to max_wait, or for the
// store's answer when it takes a pair) returns once ctx is done, with an error wrapping ctx.Err() and ErrWorker, and leaves
// nothing taken: no pair held, no record written. A ctx done before the
// open ends fails it even when nothing had to wait (the generator is
// closed). Once it returns, ctx no longer matters to the generator.
// Connecting to a store is bounded by the store's own timeouts, not ctx.
func OpenContext(ctx context.Context, conf string) (*Generator, error) {
	spec, err := config.Parse(conf)
	if err != nil {
		return nil, err
	}
	g, err := gen.Open(spec, gen.Options{Context: ctx})
	if err != nil {
		return nil, err
	}
	return &Generator{g: g, n: gen.Track(g)}, nil
}

// Next returns the next id (>= 0). It may wait for the next tick when the
// tick's sequence is used up.
func (g *Generator) Next() (int64, error) { return g.g.Next() }

// NextBatch fills out with strictly increasing ids, reserving a run per
// tick. If the first reservation fails, out is untouched; a later failure
// (the time range running out mid-batch) leaves consumed ids in a prefix.
func (g *Generator) NextBatch(out []int64) error { return g.g.NextBatch(out) }

// NextRun hands a whole run of ids to a caller that hands them out itself
// (a binding whose every call into the library is dear): with runs=N in
// the configuration it reserves the next run (at most len(out) ids: what
// does not fit is not reserved), writes its ids and returns how many, and how long they may be handed out (the
// rest are then dropped, as Next drops them). Without runs it writes one
// id and returns 0: call Next instead. The ids follow every id g handed
// out before, through any method. An empty out reserves nothing and
// returns the longest run g hands out (N; 1 without runs).
func (g *Generator) NextRun(out []int64) (int, time.Duration, error) {
	longest := 1
	rn, ok := g.g.(gen.RunNexter)
	if ok {
		longest = rn.Longest()
	}
	switch {
	case g.closed.Load():
		return 0, 0, errClosed
	case len(out) == 0:
		return longest, 0, nil
	case longest > 1:
		n, ns, err := rn.NextRun(out)
		return n, time.Duration(ns), err
	}
	id, err := g.g.Next()
	if err != nil {
		return 0, 0, err
	}
	out[0] = id
	return 1, 0, nil
}

// NextText returns the next id as text: a text preset's form, or a
// numeric id in the configuration's text= form.
func (g *Generator) NextText() (string, error) {
	var buf [textMax]byte
	n, err := g.g.NextText(buf[:g.g.TextLen()])
	if err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}

// AppendText appends the next id's text to dst without allocating when
// dst has TextLen bytes to spare.
func (g *Generator) AppendText(dst []byte) ([]byte, error) {
	k, need := len(dst), g.g.TextLen()
	dst = slices.Grow(dst, need)
	n, err := g.g.NextText(dst[k : k+need])
	if err != nil {
		return dst[:k], err
	}
	return dst[:k+n], nil
}

// NextUUIDs fills out, a multiple of 16 bytes, with the next UUIDs of a
// preset=uuidv7 generator in RFC 9562's byte order (big-endian): those
// NextText would give, strictly increasing. ErrInvalid, consuming nothing,
// on any other generator or a length that is not a multiple of 16.
func (g *Generator) NextUUIDs(out []byte) error {
	m, ok := g.g.(gen.UUIDMaker)
	switch {
	case g.closed.Load():
		return errClosed
	case !ok:
		return errs.New(errs.ErrInvalid, "only preset=uuidv7 makes UUIDs: this generator's ids come as text from NextText")
	case len(out)%16 != 0:
		return errs.New(errs.ErrInvalid, "out holds %d bytes, not a whole number of 16-byte UUIDs", len(out))
	}
	return m.NextUUIDs(out)
}

// TextLen is the length of the longest text NextText returns (at most
// IDGEN_TEXT_MAX - 1).
func (g *Generator) TextLen() int { return g.g.TextLen() }

// errClosed is what the calls of a closed generator return.
var errClosed = errs.New(errs.ErrClosed, "the generator is closed")

// textMax is IDGEN_TEXT_MAX: every text id and its NUL fit.
const textMax = 57

// Decode splits an id of this generator's layout into its fields.
// ErrInvalid for a negative id or one with bits above the layout.
func (g *Generator) Decode(id int64) (Parts, error) {
	if g.closed.Load() {
		return Parts{}, errClosed
	}
	p, err := g.g.Decode(id)
	return Parts(p), err
}

// DecodeText reads a text id of this generator's form.
func (g *Generator) DecodeText(s string) (TextParts, error) {
	if g.closed.Load() {
		return TextParts{}, errClosed
	}
	p, err := g.g.DecodeText(s)
	return TextParts(p), err
}

// Compose is the inverse of Decode: it builds an id from p's fields
// (UnixMs unless it is negative, then Time; p.ID is ignored). A value
// that does not fit its field is ErrRange, never truncated.
func (g *Generator) Compose(p Parts) (int64, error) {
	if g.closed.Load() {
		return 0, errClosed
	}
	return g.g.Compose(gen.Parts(p))
}

// Config is the effective configuration: sources resolved to numbers, a
// lease source kept as a source with the pair held as leased=D/W.
func (g *Generator) Config() string { return g.g.Config() }

// Stats reports the generator's counters and its lease.
func (g *Generator) Stats() Stats { return statsOf(gen.StatsOf(g.g)) }

// Close stops the generator and gives back its lease; later calls fail
// with ErrClosed (Decode, DecodeText and Compose too, though they need no
// lease: as a closed C handle). Closing twice is harmless.
func (g *Generator) Close() error {
	if !g.closed.CompareAndSwap(false, true) {
		return nil
	}
	gen.Untrack(g.n)
	return g.g.Close()
}
