package segment

// A counter store's clock, and what a Counter knows of it (business
// numbers: period.go).

import (
	"context"
	"sync"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/numbers"
)

// Clock is a counter store's clock, as a store gives it itself when its
// reading is coarser than a millisecond or differs from the one max_skew
// takes (ClockOf).
type Clock interface {
	// StoreClock reads the store's clock: at some moment between the call
	// and its answer, the store's time lay in [lo, hi] (unix ms; hi > lo
	// by the reading's resolution).
	StoreClock(ctx context.Context) (lo, hi int64, err error)
}

// ClockOf is st's clock: its own Clock, or the reading max_skew takes
// (lease.Clocked) to the millisecond; false when it has neither.
func ClockOf(st any) (Clock, bool) {
	switch c := st.(type) {
	case Clock:
		return c, true
	case lease.Clocked:
		return msClock{c}, true
	}
	return nil, false
}

// msClock reads a lease.Clocked store's clock, given to the millisecond.
type msClock struct{ lease.Clocked }

func (m msClock) StoreClock(ctx context.Context) (int64, int64, error) {
	t, err := m.StoreNow(ctx)
	if err != nil {
		return 0, 0, err
	}
	ms := t.UnixMilli()
	return ms, ms + 1, nil
}

// reading is a reading of the store's clock (ns since 1970) and when it
// was asked for and answered, on the generator's clock.
type reading struct {
	lo, hi    int64
	sent, got int64
}

// rateAllowance is how far apart two clocks' rates are assumed to run at
// most: 100 ppm (NTP keeps them within a few).
const rateAllowance = 10_000

// lower is the least the store's clock reads at t.
func (r reading) lower(t int64) int64 { return r.lo + (t - r.got) - (t-r.got)/rateAllowance }

// upper is the most the store's clock reads at t.
func (r reading) upper(t int64) int64 { return r.hi + (t - r.sent) + (t-r.sent)/rateAllowance + 1 }

// until is the first moment of the generator's clock at which the store's
// clock may have reached end (ns).
func (r reading) until(end int64) int64 {
	return r.sent + (end-r.hi-1)/(rateAllowance+1)*rateAllowance
}

// periodState is what a Counter knows of periods: the store's clock, the
// generator's, the last reading, and the latest period taken from.
type periodState struct {
	mu    sync.Mutex
	clk   Clock
	now   clock.Clock
	last  reading
	have  bool
	cur   *numbers.Period // the latest period taken from (never goes back)
	label string          // the period whose counter c.mark is of
}
