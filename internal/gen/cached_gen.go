package gen

// preset=baidu-cached: Baidu's CachedUidGenerator design on idgen's
// guarantees. A ring of (max seq + 1) << boost pre-made ids (at most
// 2^config.MaxRingBits, checked when the configuration is parsed) is
// filled by a goroutine of its own from an ordinary borrowing time
// generator, so the
// borrowed seconds are bounded by max_drift and covered by the lease fence;
// callers take ids from the ring without a lock. An id that has waited in
// the ring until it is dated more than one unit behind the clock is thrown
// away, never handed out.

import (
	"sync"
	"sync/atomic"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/errs"

	"github.com/idgen/idgen/internal/layout"
)

type cachedGen struct {
	*timeGen
	_ [64]byte
	// What a take reads, on one cache line that only takers write: the
	// head (its top bit set once closed), and read-only copies of the ring
	// and of the time generator's constants (whose own line the filler
	// writes).
	head      atomic.Uint64 // ids taken from the ring; closedBit once closed
	closing   atomic.Bool
	slots     []atomic.Int64
	mask      uint64
	low       uint64 // refill when fewer than this many are left
	mc        *clock.MonoClock
	epoch     int64 // the layout's epoch in ns
	unit      int64 // ns per tick
	tickShift uint  // the time field's place in an id
	tickMax   int64
	pairMask  int64 // the pair's bits in an id (a leased generator)
	_         [64]byte
	tail      atomic.Uint64 // ids put into the ring
	_         [56]byte

	kick    chan struct{} // wakes the filler
	stop    chan struct{}
	fillErr atomic.Pointer[error] // why the filler stopped, if it did
	fills   atomic.Uint64         // failed fill attempts (a waiter waits for a new one)
	taken   tally                 // ids handed out (stats): its v is head; a discard moves base

	mu      sync.Mutex // guards the wait for an empty ring
	cond    *sync.Cond
	waiters atomic.Int32
}

func newCached(tg *timeGen) *cachedGen {
	c := tg.cfg
	sf, _ := c.Layout.Field(layout.FieldSeq)
	size := uint64(sf.Max()+1) << c.Boost
	n := uint64(1)
	for n < size {
		n <<= 1 // a power of two, so a slot is an index & mask
	}
	g := &cachedGen{
		timeGen:   tg,
		slots:     make([]atomic.Int64, n),
		mask:      n - 1,
		low:       n * uint64(c.Padding) / 100,
		kick:      make(chan struct{}, 1),
		stop:      make(chan struct{}),
		mc:        tg.mono,
		epoch:     tg.epochNs,
		unit:      tg.unitNs,
		tickShift: tg.timeShift,
		tickMax:   tg.maxTick,
		pairMask:  pairBits(&c.Layout),
	}
	g.cond = sync.NewCond(&g.mu)
	tg.handedOut = g.handedOut
	if !tg.manual {
		go g.fill()
	}
	g.wake()
	return g
}

// pairBits are the bits of the datacenter and worker fields of l.
func pairBits(l *layout.Layout) int64 {
	m := int64(0)
	for _, k := range []layout.FieldKind{layout.FieldDatacenter, layout.FieldWorker} {
		if f, ok := l.Field(k); ok {
			m |= l.Put(k, f.Max())
		}
	}
	return m
}

func (g *cachedGen) wake() {
	select {
	case g.kick <- struct{}{}:
	default:
	}
}

// fill tops the ring up whenever it is woken, in chunks that never cross
// the ring's end.
func (g *cachedGen) fill() {
	// A chunk is at most what the time generator gives without waiting for
	// its clock (the current tick and the ticks it may borrow): a chunk
	// made over several units would be stale, thrown away as it lands, and
	// made again for ever.
	buf := make([]int64, g.chunk())
	for {
		select {
		case <-g.stop:
			return
		case <-g.kick:
		}
		if g.guardedPass(buf) {
			return
		}
	}
}

// fillFault, when set (tests), runs before each pass of the filler
// goroutine: a panic there stands for a bug under the filler.
var fillFault atomic.Pointer[func()]

// guardedPass is the filler goroutine's fillPass: a panic in it (a bug)
// fails the pass as a failed batch does, with an errs.ErrInternal naming
// the bug that the callers waiting get, and the filler goes on (woken
// again by the next caller that finds the ring empty).
func (g *cachedGen) guardedPass(buf []int64) (done bool) {
	errs.Guard("the baidu-cached filler", func() {
		if f := fillFault.Load(); f != nil {
			(*f)()
		}
		done = g.fillPass(buf, false)
	}, func(err error) {
		g.fillErr.Store(&err)
		g.fills.Add(1)
		g.broadcast()
		done = g.closing.Load()
	})
	return done
}

// chunk is the length of the filler's batches.
func (g *cachedGen) chunk() int {
	perTick := int(g.timeGen.seqMask) + 1
	return min(len(g.slots), 8192, perTick*int(g.timeGen.borrow+1))
}

// fillPass tops the ring up, in chunks of buf's length (one chunk when
// once is set: a caller that fills for itself takes the first ids while
// they are fresh); it reports whether the generator is closing (the
// filler ends).
func (g *cachedGen) fillPass(buf []int64, once bool) (done bool) {
	for {
		t, h := g.tail.Load(), g.head.Load()
		if h&closedBit != 0 {
			return true
		}
		free := uint64(len(g.slots)) - (t - h)
		if free == 0 {
			return false
		}
		k := min(free, uint64(len(buf)), uint64(len(g.slots))-t&g.mask)
		if err := g.timeGen.NextBatch(buf[:k]); err != nil {
			// Callers get the error while the ring is empty; the next
			// one to find it empty wakes the filler to try again.
			g.fillErr.Store(&err)
			g.fills.Add(1)
			g.broadcast()
			return g.closing.Load()
		}
		g.fillErr.Store(nil)
		for i, id := range buf[:k] {
			g.slots[(t+uint64(i))&g.mask].Store(id)
		}
		g.tail.Store(t + k)
		g.broadcast()
		if g.closing.Load() {
			return true
		}
		if once {
			return false
		}
	}
}

func (g *cachedGen) broadcast() {
	if g.waiters.Load() > 0 {
		g.mu.Lock()
		g.cond.Broadcast()
		g.mu.Unlock()
	}
}

// handedOut is the tick at or above every id handed out: the tick of the
// first id still in the ring (the ids before it were taken), or the last
// tick reserved when the ring is empty.
func (g *cachedGen) handedOut() int64 {
	h := g.head.Load() &^ closedBit
	if h == g.tail.Load() {
		return g.timeGen.LastValue()
	}
	return g.slots[h&g.mask].Load() >> g.tickShift
}

// stats: the ids handed out are the ring's, not the time generator's.
func (g *cachedGen) stats(s *Stats) {
	g.timeGen.stats(s)
	s.Issued = g.taken.total(&g.head, func(h uint64) int64 { return int64(h &^ closedBit) })
}

// Close stops the filler and closes the underlying generator (which records
// the last tick reserved, ids left in the ring included, in the lease).
func (g *cachedGen) Close() error {
	if g.closing.Swap(true) {
		return nil
	}
	for { // takers see the head's closed bit; their swaps of it fail
		h := g.head.Load()
		if g.head.CompareAndSwap(h, h|closedBit) {
			break
		}
	}
	close(g.stop)
	err := g.timeGen.Close()
	g.mu.Lock()
	g.cond.Broadcast()
	g.mu.Unlock()
	return err
}
