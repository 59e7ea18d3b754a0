package gen

// The epoch's check: a numeric layout whose epoch is in the future is
// refused before a clock starts or a store is contacted, with or without
// lease=off (the same configuration opens, or not, either way).

import (
	"time"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
)

// epochStarted fails when c's epoch is still ahead: of opt's clock (a
// test's, the simulator's) or of the time now, which the clock Open makes
// starts from.
func epochStarted(c *config.Spec, opt Options) error {
	now := time.Now().UnixNano()
	if opt.Clock != nil {
		now = opt.Clock.Now()
	}
	if now/int64(time.Millisecond) < c.EpochMs {
		return errs.Key("epoch", "%s is in the future; a generator cannot issue before its epoch", clock.FormatMs(c.EpochMs))
	}
	return nil
}
