package sim

// The simulated counter store of the segment setups: one counter per
// name in the shared state, moved atomically by Take, set back by
// GiveBack only when it still stands where the giver left it (the
// compare-and-set of every real store). A Take may land and lose its
// answer: its values are gone (never handed out, never taken again).

import (
	"context"
	"errors"
	"math"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/segment"
)

// counterView is one process's connection to the counters.
type counterView struct{ v view }

var errAnswerLost = errors.New("simulated: the take landed but its answer was lost")

func (c *counterView) Take(_ context.Context, name string, start, n, mark int64) (prev, last int64, err error) {
	if err := c.v.reachable(); err != nil {
		return 0, 0, err
	}
	s := c.v.s
	cur, ok := s.counters[name]
	switch {
	case (!ok && mark > 0 || ok && cur < mark) && mutant() != "segment-no-mark":
		return 0, 0, segment.WentBack(c.Where(), name, mark, cur, ok, "")
	case !ok:
		cur = start - 1
	}
	if cur == math.MaxInt64 {
		return 0, 0, errs.New(errs.ErrTimeOverflow, "counter %s is used up", name)
	}
	last = cur + min(n, math.MaxInt64-cur)
	s.counters[name] = last
	if s.w.rnd.intn(20) == 0 && !s.w.healed { // drawn either way: the schedule stays the same
		s.w.tracef("p%d: take of %s up to %d landed, its answer lost", c.v.proc.id, name, last)
		return 0, 0, errAnswerLost
	}
	return cur, last, nil
}

func (c *counterView) GiveBack(_ context.Context, name string, last, to int64) (bool, error) {
	if err := c.v.reachable(); err != nil {
		return false, err
	}
	s := c.v.s
	if s.counters[name] != last {
		return false, nil
	}
	s.counters[name] = to
	s.w.tracef("p%d gave %s back: %d -> %d", c.v.proc.id, name, last, to)
	return true, nil
}

func (c *counterView) Read(_ context.Context, name string) (int64, bool, error) {
	if err := c.v.reachable(); err != nil {
		return 0, false, err
	}
	v, ok := c.v.s.counters[name]
	return v, ok, nil
}

func (c *counterView) Where() string { return "simulated counter store" }
func (c *counterView) Close() error  { return nil }
