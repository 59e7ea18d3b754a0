package gen

import (
	"fmt"
	"sync/atomic"

	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
)

// closedBit marks a state word closed; no generator's progress reaches it.
const closedBit = uint64(1) << 63

// core is the lifecycle every numeric generator (time, session, zxid)
// embeds: its progress as one state word moved by compare-and-swap (bit 63
// marks it closed), the count of ids issued, the lease it issues under,
// its configuration, and closing. What the word means is the generator's:
// count says how many of its own ids a word stands for (see tally).
type core struct {
	state  atomic.Uint64 // the generator's progress; closedBit once closed
	issued tally         // ids handed out (stats)
	lm     *leaser       // nil without a lease
	*shape
	count func(state uint64) int64
}

// start puts the state word at first, as if the ids before it were issued
// by someone else (they are not counted); count is the generator's.
func (c *core) start(first uint64, count func(uint64) int64) {
	c.count = count
	c.state.Store(first)
	c.issued.from(count(first))
}

// open has the Keeper take a pair for iss (the generator) when it leases.
func (c *core) open(iss lease.Issuer, rb lease.Rollback) error {
	if c.lm == nil {
		return nil
	}
	return c.lm.take(iss, rb)
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

// Close marks the generator closed, stops its clock and gives back its
// lease (the Keeper records the last value issued).
func (c *core) Close() error {
	if !closeState(&c.state) {
		return nil
	}
	c.stopClock()
	if c.lm != nil {
		return c.lm.close()
	}
	return nil
}

// Config is the resolved configuration, with the pair a lease gave.
func (c *core) Config() string {
	if c.lm != nil {
		return c.lm.config()
	}
	return c.cfgString
}

// jump moves the state word to step(old) by compare-and-swap, again if
// another caller moved it first; a jump issues no id (the tally knows).
// step may refuse with an error; ErrClosed once closed.
func (c *core) jump(step func(old uint64) (uint64, error)) error {
	for {
		old := c.state.Load()
		if old&closedBit != 0 {
			return errClosed
		}
		next, err := step(old)
		if err != nil {
			return err
		}
		if c.issued.swap(&c.state, old, next, c.count(old), c.count(next), 0) {
			return nil
		}
	}
}

// fence makes h's fence cover v before an id at v is issued (one compare
// while it does). A failure of a generator that is closing is ErrClosed,
// never "lease lost".
func (c *core) fence(h *holding, v int64) error {
	if h == nil || v <= h.l.Fence() {
		return nil
	}
	if err := h.l.Extend(v); err != nil {
		if c.state.Load()&closedBit != 0 {
			return errClosed
		}
		return err
	}
	return nil
}

// stats fills the ids issued and the pair: the lease's, or the fixed one.
func (c *core) stats(s *Stats) {
	s.Issued = c.issuedNow()
	if c.lm != nil {
		c.lm.stats(s)
		return
	}
	l := &c.cfg.Layout
	if l.Has(layout.FieldDatacenter) {
		s.Datacenter = c.cfg.DC
	}
	if l.Has(layout.FieldWorker) {
		s.Worker = c.cfg.Worker
	}
}

// issuedNow is the ids issued so far.
func (c *core) issuedNow() int64 { return c.issued.total(&c.state, c.count) }

// base is the core of a generator that has one (Continue, keeperOf).
func (c *core) base() *core { return c }

// space names a generator's id space and fixed pair; "" for a leased one,
// whose pair no other live generator holds.
func (c *core) space() string {
	if c.cfg.WorkerSrc.Leasing() {
		return ""
	}
	return fmt.Sprintf("%s %d/%d", poolOf(c.cfg).Name, c.cfg.DC, c.cfg.Worker)
}
