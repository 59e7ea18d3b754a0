package sim

// Business numbers in the simulated world: a segment counter that
// restarts each period of the store's clock (reset=, with the test hook's
// periods of 5 s in place of days, so that a schedule crosses many ends,
// processes cut off, paused or killed across them). The store's clock is
// the world's; each process's own clock is skewed. Every number handed
// out must be of the period the world's clock is in when it is handed
// out, and no (period, value) twice.
//
// Not modelled: a period's counter lost or deleted under its generators
// (the extended world's lost counters). A generator moving into a period
// it has not taken from yet knows nothing of that period's counter, as a
// generator opened after a loss knows nothing of a plain one (the
// extended world opens none then): both rest on the store's durability
// (docs/ARCHITECTURE.md "What each store needs"), and on Redis on its
// incarnation and watch, which tests/fleet covers.

import (
	"context"
	"time"

	"github.com/idgen/idgen/internal/gen"
	"github.com/idgen/idgen/internal/numbers"
)

// numBit is the bit of a seed that plays a segment schedule as business
// numbers; seeds with it clear play what they played before.
const numBit = 45

// numbersSetup is the segment setup with reset=: its values are text
// only, drawn here through gen.NextNumber.
var numbersSetup = Setup{"numbers", "preset=segment name=orders step=40 padding=25 max_wait=300ms reset=day format={yyyy}{MM}{dd}-{seq}", 0, false, 100, true}

// numberPeriod is the length of the simulated periods.
const numberPeriod = 5 * time.Second

// periodsOf is the test hook's periods for the numbers setup (nil for
// every other).
func (s *sched) periodsOf() numbers.Periods {
	if s.su.Name != numbersSetup.Name {
		return nil
	}
	return numbers.Fixed(numberPeriod)
}

// StoreClock is the world's clock: the store's.
func (c *counterView) StoreClock(context.Context) (int64, int64, error) {
	if err := c.v.reachable(); err != nil {
		return 0, 0, err
	}
	ms := c.v.s.w.now / int64(time.Millisecond)
	return ms, ms + 1, nil
}

// issueNumbers draws n numbers from p's generator: each must be of the
// period the world's clock is in at that moment; the checker sees (period,
// value) as one id.
func (s *sched) issueNumbers(p *Proc, n int) error {
	w := s.w
	for i := 0; i < n; i++ {
		v, per, err := gen.NextNumber(p.g)
		if err != nil {
			return err
		}
		now := w.now / int64(time.Millisecond)
		if now < per.Start || now >= per.End {
			w.check.fail("p%d g%d handed out %s value %d at store time %d ms, outside its period [%d, %d)", p.id, p.gid, per.Label, v, now, per.Start, per.End)
		}
		w.check.id(p.gid, (per.Start/numberPeriod.Milliseconds())%(1<<22)<<40|v)
	}
	w.tracef("p%d g%d issued %d number(s)", p.id, p.gid, n)
	return nil
}
