package gen

// What the text presets (uuidv7, ulid, and the rocketmq ones) share: a millisecond clock
// that never goes back (idgen's MonoClock: a wall reading taken once,
// advanced by the monotonic clock), a random source, waiting for the next
// millisecond, closing, and the refusals of the numeric calls.

import (
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"time"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
)

// maxStateMs is the last unix millisecond the state words of uuidv7 and
// ulid hold (46 bits: the year 4199); later, ErrTimeOverflow.
const maxStateMs = 1<<46 - 1

type randText struct {
	cfg      *config.Spec
	clock    clock.Clock
	recent   clock.Recent // nil when the clock offers no cheap reading
	ownClock bool
	cfgStr   string
	closed   atomic.Bool
	// rnd draws 64 random bits: the runtime's ChaCha8 generator (per
	// thread, seeded from the OS), replaced in tests.
	rnd func() uint64
}

// init sets up a new generator's shared part from its shape (the
// configuration, its string as opened, the clock).
func (b *randText) init(sh *shape) {
	b.cfg, b.clock, b.ownClock, b.cfgStr, b.rnd = sh.cfg, sh.clock, sh.ownClock, sh.cfgString, rand.Uint64
	if rc, ok := sh.clock.(clock.Recent); ok {
		b.recent = rc
	}
}

// nowMs is the clock in unix ms: a reading at most about a millisecond old
// unless precise is set. A time before 1970 or past maxStateMs cannot be
// written: ErrTimeOverflow.
func (b *randText) nowMs(precise bool) (int64, error) {
	var ns int64
	if precise || b.recent == nil {
		ns = b.clock.Now()
	} else {
		ns = b.recent.Recent()
	}
	ms := ns / int64(time.Millisecond)
	if ms < 0 || ms > maxStateMs {
		return 0, errs.New(errs.ErrTimeOverflow, "%s: the clock reads %d ms since 1970, outside 0..%d (the year 4199) that its ids hold", b.cfg.Preset, ms, int64(maxStateMs))
	}
	return ms, nil
}

// waitPast spins (yielding the thread) until the clock has passed unix ms
// last: at most a millisecond with idgen's own clock. ErrClosed if the
// generator closes meanwhile.
func (b *randText) waitPast(last int64) error {
	for {
		if b.closed.Load() {
			return errClosed
		}
		if ms, err := b.nowMs(true); err != nil || ms > last {
			return err
		}
		runtime.Gosched()
	}
}

func (b *randText) textOnly() error { return textOnlyErr(b.cfg.Preset, b.closed.Load()) }

func (b *randText) Next() (int64, error)         { return 0, b.textOnly() }
func (b *randText) NextBatch([]int64) error      { return b.textOnly() }
func (b *randText) Decode(int64) (Parts, error)  { return Parts{}, b.textOnly() }
func (b *randText) Compose(Parts) (int64, error) { return 0, b.textOnly() }
func (b *randText) Config() string               { return b.cfgStr }

// Close stops the generator; later calls fail with ErrClosed.
func (b *randText) Close() error {
	if !b.closed.Swap(true) {
		stopClock(b.clock, b.ownClock)
	}
	return nil
}
