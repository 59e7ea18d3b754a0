package gen

import (
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
)

// zxidGen is ZooKeeper's transaction id (preset zxid): epoch<<32 | counter.
//
//   - Counter exhaustion: the counter never wraps and never reaches its
//     all-ones value; as ZooKeeper's leader does when its counter rolls
//     over, the generator opens the next epoch at counter 0.
//   - Clock: none is used.
//   - Overflow: when the epoch field is used up, ErrTimeOverflow.
//   - Restarts: with worker=lease, a restarted holder opens the epoch after
//     the last one its predecessor entered, as a new leader does.
//
// Its state word is the next zxid to issue.
type zxidGen struct {
	core
	cbits uint
	cmask uint64 // all-ones counter: never issued; in the last epoch it marks the end
	emax  uint64
}

func newZxid(sh *shape, lm *leaser) (*zxidGen, error) {
	c := sh.cfg
	ef, _ := c.Layout.Field(layout.FieldEpoch)
	cf, _ := c.Layout.Field(layout.FieldCounter)
	g := &zxidGen{core: core{shape: sh, lm: lm}, cbits: cf.Width, cmask: uint64(1)<<cf.Width - 1, emax: uint64(ef.Max())}
	g.start(uint64(c.ZxidEpoch)<<g.cbits, g.v)
	if err := g.open(g, lease.Rollback{}); err != nil {
		return nil, err
	}
	return g, nil
}

// Until: a counter starts above any record at once.
func (g *zxidGen) Until(int64) time.Duration { return 0 }

// LostFloor: zxids have no clock, so nothing bounds what a holder whose
// record was lost issued.
func (g *zxidGen) LostFloor() (int64, bool) { return 0, false }

// Adopt opens the epoch after the last one the predecessor entered, as a
// new ZooKeeper leader does; leasing again opens a new epoch above
// everything issued.
func (g *zxidGen) Adopt(l *lease.Lease, floor, _, _ int64, _ bool) error {
	err := g.jump(func(old uint64) (uint64, error) {
		epoch := old >> g.cbits
		if g.lm.hold.Load() != nil {
			epoch++
		}
		if floor >= 0 && uint64(floor) >= epoch {
			epoch = uint64(floor) + 1
		}
		if epoch > g.emax {
			return 0, errs.New(errs.ErrTimeOverflow, "zxid epochs are used up (the next would be %d, the field holds up to %d)", epoch, g.emax)
		}
		return epoch << g.cbits, nil
	})
	if err == nil {
		g.lm.hold.Store(&holding{l: l})
	}
	return err
}

// NextFence is the epoch of the next zxid: entering the next one writes
// the record first.
func (g *zxidGen) NextFence() int64 { return int64(g.state.Load() &^ closedBit >> g.cbits) }

// Last is the epoch of the next zxid: a successor opens the one after it.
func (g *zxidGen) Last() (int64, int64) { return g.LastValue(), 0 }

// UnixMs: zxids have no time.
func (g *zxidGen) UnixMs(int64) int64 { return -1 }

func (g *zxidGen) reserve(n uint64) (uint64, uint64, error) {
	for {
		h, _ := g.lm.current(0)
		old := g.state.Load()
		if old&closedBit != 0 {
			return 0, 0, errClosed
		}
		epoch, counter := old>>g.cbits, old&g.cmask
		if counter == g.cmask {
			return 0, 0, errs.New(errs.ErrTimeOverflow, "zxid epochs are used up: epoch %d, the last the field holds, has no counter left", epoch)
		}
		got := min(n, g.cmask-counter)
		next := old + got
		if counter+got == g.cmask && epoch < g.emax {
			next = (epoch + 1) << g.cbits
		}
		if err := g.fence(h, int64(next>>g.cbits)); err != nil {
			return 0, 0, err
		}
		if g.issued.swap(&g.state, old, next, g.v(old), g.v(next), int64(got)) { // (an epoch rolled over: the skipped counter)
			return old, got, nil
		}
	}
}

// Next returns the next zxid.
func (g *zxidGen) Next() (int64, error) {
	z, _, err := g.reserve(1)
	if err != nil {
		return -1, err
	}
	return int64(z), nil
}

// NextBatch fills out with increasing zxids, crossing into the next epoch
// if the counter runs out.
func (g *zxidGen) NextBatch(out []int64) error {
	return fillRuns(out, 1, func(n uint64) (int64, uint64, error) {
		z, got, err := g.reserve(n)
		return int64(z), got, err
	})
}

// NextText writes the next zxid in the text= form.
func (g *zxidGen) NextText(dst []byte) (int, error) {
	id, err := g.Next()
	return g.formatText(id, err, dst)
}

// v is the state as a count (stats).
func (g *zxidGen) v(state uint64) int64 { return int64(state &^ closedBit) }

// LastValue is the epoch of the next zxid.
func (g *zxidGen) LastValue() int64 { return int64(g.state.Load() &^ closedBit >> g.cbits) }

// stats: a zxid carries no pair, leased or not.
func (g *zxidGen) stats(s *Stats) {
	g.core.stats(s)
	if g.lm != nil {
		s.Datacenter, s.Worker = -1, -1
	}
}
