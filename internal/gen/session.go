package gen

import (
	"sync/atomic"
	"time"
)

// session is ZooKeeper's session-id generator (preset zk-session):
// worker<<56 | (time at opening in ms, low 40 bits)<<16, then +1 per id,
// the sequence carrying into the time bits.
//
//   - Sequence exhaustion: none; the counter carries into the time bits,
//     as ZooKeeper's does, so ids may run ahead of the clock.
//   - Clock regression: the time is read once, at opening; a lease makes a
//     restarted holder start above everything its predecessor issued.
//   - Overflow: when the counter would carry into the worker bits, every
//     call fails with ErrTimeOverflow.
type session struct {
	*shape
	state     atomic.Uint64 // the next counter value to issue; closedBit when closed
	high      int64         // the worker bits
	max       uint64        // the largest counter value
	lease     *Lease
	cfgString string
}

func newSession(sh *shape, lease *Lease) (*session, error) {
	c := sh.cfg
	tf, _ := c.Layout.Field(FieldTime)
	sf, _ := c.Layout.Field(FieldSeq)
	g := &session{
		shape:     sh,
		high:      c.Layout.put(FieldWorker, c.Worker),
		max:       uint64(1)<<(tf.Width+sf.Width) - 1,
		lease:     lease,
		cfgString: c.String(),
	}
	if g.high != 0 && uint64(g.high)+g.max > uint64(1)<<63-1 {
		g.max = uint64(1)<<63 - 1 - uint64(g.high)
	}
	ms := sh.clock.Now()/int64(time.Millisecond) - c.EpochMs
	if ms < 0 {
		return nil, configError("epoch", "%d is in the future", c.EpochMs)
	}
	tick := uint64(ms/sh.unitMs()) & uint64(tf.Max())
	start := tick << sf.Width
	if lease != nil {
		if rec := lease.Recorded(); rec >= 0 && uint64(rec) >= start {
			start = uint64(rec) + 1
		}
		lease.Start(g.LastValue, 1<<24)
	}
	g.state.Store(start)
	return g, nil
}

func (g *session) reserve(n uint64) (uint64, uint64, error) {
	for {
		old := g.state.Load()
		if old&closedBit != 0 {
			return 0, 0, errClosed
		}
		if old > g.max {
			return 0, 0, errorf(ErrTimeOverflow, "session ids of worker %d are used up: the counter would carry into the worker bits", g.cfg.Worker)
		}
		got := min(n, g.max-old+1)
		if g.lease != nil && int64(old+got-1) > g.lease.Limit() {
			if err := g.lease.Extend(int64(old + got - 1)); err != nil {
				return 0, 0, err
			}
		}
		if g.state.CompareAndSwap(old, old+got) {
			return old, got, nil
		}
	}
}

// Next returns the next session id.
func (g *session) Next() (int64, error) {
	c, _, err := g.reserve(1)
	if err != nil {
		return -1, err
	}
	return g.high | int64(c), nil
}

// NextBatch fills out with consecutive session ids.
func (g *session) NextBatch(out []int64) error {
	return fillRuns(out, func(n uint64) (int64, uint64, error) {
		c, got, err := g.reserve(n)
		return g.high | int64(c), got, err
	})
}

// Config is the resolved configuration.
func (g *session) Config() string { return g.cfgString }

// LastValue is the last counter value issued.
func (g *session) LastValue() int64 { return int64(g.state.Load()&^closedBit) - 1 }

// Close marks the generator closed and records the last counter value.
func (g *session) Close() error {
	if closeState(&g.state) && g.lease != nil {
		return g.lease.Release()
	}
	return nil
}

// fillRuns fills out with runs of consecutive ids, each run reserved in
// one step by reserve (its first id and length).
func fillRuns(out []int64, reserve func(n uint64) (int64, uint64, error)) error {
	for i := 0; i < len(out); {
		first, got, err := reserve(uint64(len(out) - i))
		if err != nil {
			return err
		}
		run := out[i : i+int(got)]
		for k := range run {
			run[k] = first + int64(k)
		}
		i += int(got)
	}
	return nil
}

// closeState sets the closed bit; it reports whether this call did.
func closeState(s *atomic.Uint64) bool {
	for {
		old := s.Load()
		if old&closedBit != 0 {
			return false
		}
		if s.CompareAndSwap(old, old|closedBit) {
			return true
		}
	}
}
