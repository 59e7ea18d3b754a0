package gen

// Taking ids from a baidu-cached ring (cached_gen.go): lock free while it
// holds ids, waiting for its filler when it is empty; an id that has
// waited too long is thrown away, never handed out.

import (
	"sync"

	"github.com/idgen/idgen/internal/lease"
)

// stale reports whether id is dated more than one unit behind the clock.
func (g *cachedGen) stale(id int64, now int64) bool {
	tick := id >> g.tickShift & g.tickMax
	return now >= g.epoch+(tick+2)*g.unit
}

// revoked reports whether id was made under a lease the generator no
// longer issues under: its pair is not the one held now, or it lies above
// the fence (cut to nothing when the pair's record was removed, which
// bounds nothing). Such ids are thrown away, never handed out: the ring
// must not go on handing out what its filler made before the loss.
func (g *cachedGen) revoked(id int64) bool {
	if g.lm == nil || lease.Mutant() == "ring-after-removed" {
		return false
	}
	h := g.lm.hold.Load()
	return id&g.pairMask != h.fixed&g.pairMask || id>>g.tickShift&g.tickMax > h.l.Fence()
}

// unusable reports whether the ids in slots h .. h+n-1 (n >= 1) may not
// be handed out: the first has waited too long, or the first or the last
// was made under a lease since lost (ids in the ring increase).
func (g *cachedGen) unusable(h, n uint64, now int64) bool {
	first := g.slots[h&g.mask].Load()
	return g.stale(first, now) || g.revoked(first) || n > 1 && g.revoked(g.slots[(h+n-1)&g.mask].Load())
}

func (g *cachedGen) clockNow() int64 {
	if g.mc == nil {
		return g.clock.Now()
	}
	if v, ok := g.mc.Cached(); ok {
		return v
	}
	return g.mc.Recent()
}

// Next takes one id from the ring.
func (g *cachedGen) Next() (int64, error) {
	for {
		h := g.head.Load()
		if h&closedBit != 0 {
			return 0, errClosed
		}
		t := g.tail.Load()
		if h == t {
			if err := g.await(h); err != nil {
				return 0, err
			}
			continue
		}
		id := g.slots[h&g.mask].Load()
		now, ok := int64(0), false
		if g.mc != nil {
			now, ok = g.mc.Cached() // inlined: one load
		}
		if !ok {
			now = g.clockNow()
		}
		if g.stale(id, now) || g.revoked(id) {
			g.discard(h, t)
			continue
		}
		if g.head.CompareAndSwap(h, h+1) {
			if t-h-1 < g.low {
				g.wake()
			}
			return id, nil
		}
	}
}

// NextBatch takes len(out) ids. When the ring holds them all it takes them
// straight into out in one step; otherwise (it must wait for the filler,
// which may fail) it takes them into a scratch buffer and copies them on
// success, so a failed batch leaves out untouched. (One case still writes
// out before failing: another taker drains the ring between this one's
// read and its step, and then the filler fails.)
func (g *cachedGen) NextBatch(out []int64) error {
	n := uint64(len(out))
	for {
		h, t := g.head.Load(), g.tail.Load()
		if h&closedBit != 0 {
			return errClosed
		}
		if t-h < n || g.unusable(h, n, g.clockNow()) {
			break
		}
		for i := range out {
			out[i] = g.slots[(h+uint64(i))&g.mask].Load()
		}
		if g.head.CompareAndSwap(h, h+n) {
			if t-h-n < g.low {
				g.wake()
			}
			return nil
		}
	}
	p := scratch.Get().(*[]int64)
	defer scratch.Put(p)
	if cap(*p) < len(out) {
		*p = make([]int64, len(out))
	}
	buf := (*p)[:len(out)]
	if err := g.take(buf); err != nil {
		return err
	}
	copy(out, buf)
	return nil
}

// scratch holds the buffers of batches that must wait for the filler.
var scratch = sync.Pool{New: func() any { return new([]int64) }}

// take fills out from the ring, as many at a time as it holds, waiting for
// the filler when it is empty.
func (g *cachedGen) take(out []int64) error {
	for done := 0; done < len(out); {
		h := g.head.Load()
		if h&closedBit != 0 {
			return errClosed
		}
		t := g.tail.Load()
		if h == t {
			if err := g.await(h); err != nil {
				return err
			}
			continue
		}
		k := min(uint64(len(out)-done), t-h)
		if g.unusable(h, k, g.clockNow()) {
			g.discard(h, t)
			continue
		}
		for i := uint64(0); i < k; i++ {
			out[done+int(i)] = g.slots[(h+i)&g.mask].Load()
		}
		if g.head.CompareAndSwap(h, h+k) {
			done += int(k)
			if t-h-k < g.low {
				g.wake()
			}
		}
	}
	return nil
}

// discard throws away the ids from h to t (they have waited too long; they
// are consumed, never handed out) and asks for fresh ones.
func (g *cachedGen) discard(h, t uint64) {
	g.taken.swap(&g.head, h, t, int64(h), int64(t), 0) // (or another caller moved the head first)
	g.wake()
}

// await waits while the ring is empty at h. When the filler fails, a
// waiter returns its error only once the filler has tried again since
// the waiter came (a call after a lease came back fills, not fails).
func (g *cachedGen) await(h uint64) error {
	if g.manual {
		return g.fillHere(h)
	}
	g.waiters.Add(1)
	defer g.waiters.Add(-1)
	g.mu.Lock()
	defer g.mu.Unlock()
	seen := g.fills.Load()
	g.wake()
	for g.tail.Load() == h && g.head.Load() == h {
		if p := g.fillErr.Load(); p != nil && g.fills.Load() != seen {
			return *p
		}
		if g.closing.Load() {
			return errClosed
		}
		g.cond.Wait()
	}
	return nil
}

// fillHere is await without a filler goroutine (a manual Env): the caller
// fills one chunk itself, so that it takes the first ids while they are
// fresh.
func (g *cachedGen) fillHere(h uint64) error {
	for g.tail.Load() == h && g.head.Load() == h {
		if g.closing.Load() {
			return errClosed
		}
		select { // a wake pending for the filler: this call answers it
		case <-g.kick:
		default:
		}
		g.fillPass(make([]int64, g.chunk()), true)
		if p := g.fillErr.Load(); p != nil && g.tail.Load() == h {
			return *p
		}
	}
	return nil
}

// NextText writes the next id from the ring in the text= form.
func (g *cachedGen) NextText(dst []byte) (int, error) {
	id, err := g.Next()
	return g.formatText(id, err, dst)
}
