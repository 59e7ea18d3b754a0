package gen

import (
	"sync/atomic"
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
type zxidGen struct {
	*shape
	state     atomic.Uint64 // the next zxid to issue; closedBit when closed
	cbits     uint
	cmask     uint64 // all-ones counter: never issued; in the last epoch it marks the end
	emax      uint64
	lm        *leaser
	cfgString string
}

func newZxid(sh *shape, lm *leaser) (*zxidGen, error) {
	c := sh.cfg
	ef, _ := c.Layout.Field(layout.FieldEpoch)
	cf, _ := c.Layout.Field(layout.FieldCounter)
	g := &zxidGen{shape: sh, cbits: cf.Width, cmask: uint64(1)<<cf.Width - 1, emax: uint64(ef.Max()), lm: lm}
	g.state.Store(uint64(c.ZxidEpoch) << g.cbits)
	if lm != nil {
		h, err := g.take(lm.first)
		if err != nil {
			return nil, err
		}
		lm.start(h, g.take, nil)
	}
	g.cfgString = c.String()
	return g, nil
}

// take takes a claim over: a new holder opens the epoch after the last one
// its predecessor entered, as a new ZooKeeper leader does.
func (g *zxidGen) take(c lease.Claim) (*holding, error) {
	rec, state := c.Predecessor()
	old := g.state.Load()
	if old&closedBit != 0 {
		return nil, errClosed
	}
	epoch := old >> g.cbits
	if g.lm != nil && g.lm.hold.Load() != nil {
		epoch++ // leasing again: a new epoch above everything issued
	}
	switch state {
	case lease.Present:
		if rec.IssuedUpTo >= 0 && uint64(rec.IssuedUpTo) >= epoch {
			epoch = uint64(rec.IssuedUpTo) + 1
		}
	case lease.Missing:
		// A holder whose file was removed may live on until its next
		// renewal: wait one lease_ttl, once.
		time.Sleep(g.cfg.LeaseTTL)
	}
	if epoch > g.emax {
		return nil, errs.New(errs.ErrTimeOverflow, "zxid epochs are used up (the next would be %d, the field holds up to %d)", epoch, g.emax)
	}
	h, err := lease.Hold(c, g.cfg.LeaseTTL, lease.Record{IssuedUpTo: int64(epoch), Backwards: rec.Backwards})
	if err != nil {
		return nil, err
	}
	if !g.state.CompareAndSwap(old, epoch<<g.cbits) {
		_ = h.Release(int64(epoch))
		if g.state.Load()&closedBit != 0 {
			return nil, errClosed
		}
		return nil, errs.New(errs.ErrWorker, "lease %s: the generator moved while it was taken over", c.Where())
	}
	h.Start(func() int64 { return int64(g.state.Load() &^ closedBit >> g.cbits) })
	return &holding{h: h, pair: c.Pair()}, nil
}

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
		if err := fence(h, int64(next>>g.cbits), &g.state); err != nil {
			return 0, 0, err
		}
		if g.state.CompareAndSwap(old, next) {
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
	return fillRuns(out, func(n uint64) (int64, uint64, error) {
		z, got, err := g.reserve(n)
		return int64(z), got, err
	})
}

// Config is the resolved configuration.
func (g *zxidGen) Config() string {
	if g.lm != nil {
		return g.lm.config()
	}
	return g.cfgString
}

// LastValue is the epoch of the next zxid.
func (g *zxidGen) LastValue() int64 { return int64(g.state.Load() &^ closedBit >> g.cbits) }

// Close marks the generator closed and releases its lease.
func (g *zxidGen) Close() error {
	if closeState(&g.state) && g.lm != nil {
		return g.lm.close(g.LastValue())
	}
	return nil
}
