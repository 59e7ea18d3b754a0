package gen

// What a generator is to the packages above: the Generator interface, the
// parts of ids, and what Open takes besides a configuration.

import (
	"context"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/numbers"
	"github.com/idgen/idgen/internal/segment"
)

// Generator issues ids. Every implementation is safe for concurrent use,
// issues strictly increasing ids, and never wraps a field: when it cannot
// issue it returns an error wrapping one of the sentinels.
type Generator interface {
	// Next returns the next id.
	Next() (int64, error)
	// NextBatch fills out with strictly increasing ids, reserving them in
	// as few steps as the layout allows. If the first reservation fails,
	// out is untouched; a later failure (rare: the time field running out
	// or the clock stepping back mid-batch) leaves a prefix of out holding
	// ids that are consumed and never issued again.
	NextBatch(out []int64) error
	// Decode splits an id of this generator's layout into its fields.
	Decode(id int64) (Parts, error)
	// Compose is the inverse of Decode.
	Compose(p Parts) (int64, error)
	// Config is the effective configuration, with worker and datacenter
	// sources resolved to their numbers.
	Config() string
	// LastValue is the generator's progress in its own terms (a tick, a
	// session counter, a zxid), for the lease record.
	LastValue() int64
	// TextLen is the length of the longest text NextText writes.
	TextLen() int
	// NextText writes the next id as text into dst (at least TextLen
	// bytes): a text preset's form, or a numeric id in the text= form.
	NextText(dst []byte) (int, error)
	// DecodeText reads text of the generator's form.
	DecodeText(s string) (TextParts, error)
	// Close stops the generator: later calls fail with ErrClosed. Closing
	// twice is harmless.
	Close() error
}

// UUIDMaker is a Generator that makes UUIDs (preset=uuidv7): NextUUIDs
// fills out, a multiple of 16 bytes, with the next UUIDs in RFC 9562's
// byte order, those NextText would give. A failure part way leaves a
// prefix filled, consumed and never issued again.
type UUIDMaker interface {
	NextUUIDs(out []byte) error
}

// Parts are the fields of an id; a field the layout lacks is -1.
type Parts = layout.Parts

// TextParts are the fields of a text id, as the public idgen.TextParts
// documents them: absent numbers are -1; Addr is an IP (4 or 16 bytes), a
// MAC (6) or nil.
type TextParts struct {
	ID, UnixMs, Sequence, PID, LoaderHash int64
	Addr                                  []byte
}

// Options are what Open takes besides the configuration.
type Options struct {
	// Clock replaces the clock the configuration asks for (tests).
	Clock clock.Clock
	// Store replaces the lease store the configuration names (tests, the
	// simulator); the generator does not close it.
	Store lease.Store
	// Env replaces the lease Keeper's and a segment counter's time (the
	// simulator).
	Env lease.Env
	// Counters replaces the segment counter store the configuration names
	// (the simulator); the generator owns it.
	Counters segment.Store
	// Context, when set, stops an open that waits (for a predecessor's
	// record, or for the store's answer to a take): Open then fails with an
	// error wrapping its Err and ErrWorker, and leaves nothing taken
	// (open_cancel.go).
	Context context.Context
	// Periods, when set, replaces the calendar of a reset= counter (tests
	// only: numbers.Fixed makes a period end every few seconds). It
	// replaces only which period a time of the store's clock is in; the
	// store's clock, the takes and the period's end are the same code.
	// Nothing in a configuration string can set it.
	Periods numbers.Periods
	// Hooks, when set, is filled by Open with what the simulator steps by
	// hand (hooks.go).
	Hooks *Hooks
}

// Hooks is what Open hands a caller that steps a generator's background
// work itself (a manual lease.Env: the simulator).
type Hooks struct {
	// Keeper is the generator's lease Keeper, nil without a lease.
	Keeper *lease.Keeper
	// Prefetch runs a segment counter's prefetch step (nil for any other
	// generator).
	Prefetch func()
	// Fill runs baidu-cached's filler once if it was woken (a no-op for
	// any other generator).
	Fill func()
}

// NextText writes the next id as text into dst, which must hold
// g.TextLen() bytes (ErrRange otherwise, and nothing is consumed); it
// returns the length written.
func NextText(g Generator, dst []byte) (int, error) {
	if need := g.TextLen(); len(dst) < need {
		return 0, errs.New(errs.ErrRange, "a buffer of %d bytes cannot hold the %d characters this generator may write (and, in C, the NUL after them)", len(dst), need)
	}
	return g.NextText(dst)
}
