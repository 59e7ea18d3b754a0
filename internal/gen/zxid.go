package gen

import "sync/atomic"

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
	cmask     uint64 // all-ones counter: never issued
	emax      uint64
	lease     *Lease
	cfgString string
}

func newZxid(sh *shape, lease *Lease) (*zxidGen, error) {
	c := sh.cfg
	ef, _ := c.Layout.Field(FieldEpoch)
	cf, _ := c.Layout.Field(FieldCounter)
	g := &zxidGen{shape: sh, cbits: cf.Width, cmask: uint64(1)<<cf.Width - 1, emax: uint64(ef.Max()), lease: lease, cfgString: c.String()}
	epoch := uint64(c.ZxidEpoch)
	if lease != nil {
		if rec := lease.Recorded(); rec >= 0 && uint64(rec) >= epoch {
			epoch = uint64(rec) + 1
		}
	}
	if epoch > g.emax {
		return nil, errorf(ErrTimeOverflow, "zxid epochs are used up (the next would be %d, the field holds %d)", epoch, g.emax)
	}
	if lease != nil {
		if err := lease.Extend(int64(epoch)); err != nil {
			return nil, err
		}
		lease.Start(func() int64 { return int64(g.state.Load() &^ closedBit >> g.cbits) }, 0)
	}
	g.state.Store(epoch << g.cbits)
	return g, nil
}

func (g *zxidGen) reserve(n uint64) (uint64, uint64, error) {
	for {
		old := g.state.Load()
		if old&closedBit != 0 {
			return 0, 0, errClosed
		}
		epoch, counter := old>>g.cbits, old&g.cmask
		if epoch > g.emax {
			return 0, 0, errorf(ErrTimeOverflow, "zxid epochs are used up after epoch %d", g.emax)
		}
		got := min(n, g.cmask-counter)
		next := old + got
		if counter+got == g.cmask {
			next = (epoch + 1) << g.cbits
		}
		if g.lease != nil && int64(epoch) > g.lease.Limit() {
			if err := g.lease.Extend(int64(epoch)); err != nil {
				return 0, 0, err
			}
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
func (g *zxidGen) Config() string { return g.cfgString }

// LastValue is the epoch of the next zxid.
func (g *zxidGen) LastValue() int64 { return int64(g.state.Load() &^ closedBit >> g.cbits) }

// Close marks the generator closed.
func (g *zxidGen) Close() error {
	if closeState(&g.state) && g.lease != nil {
		return g.lease.Release()
	}
	return nil
}
