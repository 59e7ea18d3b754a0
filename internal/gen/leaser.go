package gen

import (
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
)

// holding is the lease a generator issues under and the id bits of its
// pair; the generator swaps it as a whole when its Keeper leases again.
type holding struct {
	l     *lease.Lease
	fixed int64 // the pair's bits in an id
}

// leaser is the lease side of a generator: the store, the Keeper (which
// owns taking over, fencing, renewing, riding out outages and leasing
// again) and the holding the hot path reads.
type leaser struct {
	spec     *config.Spec
	store    lease.Store
	ownStore bool
	env      lease.Env
	k        *lease.Keeper
	hold     atomic.Pointer[holding]
	onDrop   atomic.Pointer[func()] // a host's: called when a fence drops (SetOnDrop)
}

// current is the holding a generator issues under and the pair bits its
// ids carry: fixed without a lease (m is nil then).
func (m *leaser) current(fixed int64) (*holding, int64) {
	if m == nil {
		return nil, fixed
	}
	h := m.hold.Load()
	return h, h.fixed
}

// poolOf names the pool of a layout, unit and epoch: every generator of it
// leases from the same pairs, whichever fixed its datacenter.
func poolOf(c *config.Spec) lease.Pool {
	lay := strings.NewReplacer(":", "", ",", "-").Replace(c.Layout.String())
	name := lease.PoolName(c.Scheme.String(), lay)
	if c.Scheme != config.SchemeZxid {
		name = lease.PoolName(c.Scheme.String(), lay, config.FormatUnit(c.Unit), strconv.FormatInt(c.EpochMs, 10))
	}
	p := lease.Pool{Name: name, DCs: 1, Workers: 1}
	if f, ok := c.Layout.Field(layout.FieldDatacenter); ok {
		p.DCs = f.Max() + 1
	}
	if f, ok := c.Layout.Field(layout.FieldWorker); ok {
		p.Workers = f.Max() + 1
	}
	return p
}

// take has a Keeper take a pair for iss (the generator).
func (m *leaser) take(iss lease.Issuer, rb lease.Rollback) error {
	c := m.spec
	cfg := lease.Config{Pool: poolOf(c), DC: -1, TTL: c.LeaseTTL, MaxOutage: c.MaxOutage, Rollback: rb, Env: m.env, MaxSkew: c.MaxSkew, OnDrop: m.dropped}
	if c.DCSrc == config.SourceValue {
		cfg.DC = c.DC
	}
	if cfg.Rollback.MaxWait == 0 {
		cfg.Rollback.MaxWait = c.MaxWait
	}
	k, err := lease.Take(m.store, cfg, iss)
	if err != nil {
		return err
	}
	m.k = k
	return nil
}

// dropped tells the host, if one asked, that a fence dropped.
func (m *leaser) dropped() {
	if f := m.onDrop.Load(); f != nil {
		(*f)()
	}
}

// abort gives back everything a generator that failed to open took.
func (m *leaser) abort() {
	if m.k != nil {
		_ = m.k.Close()
	}
	if m.ownStore {
		m.store.Close()
	}
}

// close releases the lease (the Keeper writes the generator's last value)
// and closes the store.
func (m *leaser) close() error {
	err := m.k.Close()
	if m.ownStore {
		m.store.Close()
	}
	return err
}

// config is the generator's configuration string now: the pair it holds,
// and the one on_clock_back=switch gave up.
func (m *leaser) config() string {
	h := config.Held{Leased: m.hold.Load().l.Pair.String()}
	if m.k != nil {
		if sw, ok := m.k.Switched(); ok {
			h.Switched = sw.String()
		}
	}
	return m.spec.StringHeld(h)
}

// stats fills the lease part of s.
func (m *leaser) stats(s *Stats) {
	if m == nil || m.k == nil {
		return
	}
	ks := m.k.Stats()
	s.LeaseState = int64(ks.State)
	s.Datacenter, s.Worker = ks.Pair.DC, ks.Pair.Worker
	if !m.spec.Layout.Has(layout.FieldDatacenter) {
		s.Datacenter = -1
	}
	if !m.spec.Layout.Has(layout.FieldWorker) { // the layout is the pair (time:41,seq:22)
		s.Worker = -1
	}
	s.FenceUnixMs, s.RenewedUnixMs = ks.FenceUnixMs, ks.RenewedUnixMs
	s.Renewals, s.RenewalFailures, s.LeasesTaken = ks.Renewals, ks.RenewalFailures, ks.LeasesTaken
	s.SkewMs = ks.SkewMs
}
