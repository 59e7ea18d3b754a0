package gen

// The stores a configuration names, opened through the table of stores
// (internal/lease/stores): for a lease, for listing a pool (idgen leases),
// for a segment counter.

import (
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/stores"
	"github.com/idgen/idgen/internal/segment"
)

// opened is the store a generator opens on: its lease store or its
// segment counter store (neither for a generator that needs none); own
// says Open opened it (not a test's), so it is closed with the generator.
type opened struct {
	leases   lease.Store
	counters segment.Store
	own      bool
}

// openStores opens the store c names, or takes opt's.
func openStores(c *config.Spec, opt Options) (opened, error) {
	segment := c.Scheme == config.SchemeSegment
	switch {
	case segment && opt.Counters != nil:
		return opened{counters: opt.Counters}, nil
	case !segment && (c.Scheme.IsText() || !c.WorkerSrc.Leasing()):
		return opened{}, nil
	case !segment && opt.Store != nil:
		return opened{leases: opt.Store}, nil
	}
	o := storeOptions(c)
	if segment {
		counters, err := stores.OpenCounters(o)
		return opened{counters: counters, own: true}, err
	}
	leases, err := stores.OpenLeases(o)
	return opened{leases: leases, own: true}, err
}

// storeOptions is what the table's openers take from a configuration:
// its store (the host directory without one: lease_dir= or the default).
func storeOptions(c *config.Spec) stores.Options {
	horizon := 2*c.MaxOutage + c.MaxDrift // how long a lost fence may matter
	if c.Scheme == config.SchemeZxid {
		horizon = stores.Forever // a counter: for good
	}
	o := stores.Options{
		URL: c.Store, Dir: c.LeaseDir, Explicit: c.LeaseDir != "",
		Table: c.LeaseTable, SegmentTable: c.SegmentTable(),
		TTL: c.LeaseTTL, Horizon: horizon, Timeout: storeOpenTimeout,
	}
	if !o.Explicit {
		o.Dir = config.DefaultLeaseDir
	}
	return o
}

// openListStore opens the store without creating anything (nil: the host
// directory does not exist, so no pool is in it).
func openListStore(c *config.Spec) (lease.Store, error) {
	return stores.OpenLister(storeOptions(c))
}

// counterReader reads a segment counter (idgen leases).
type counterReader = stores.CounterReader

// openCounterReader opens a segment configuration's store without
// creating anything: no table, no host directory (nil: the default host
// directory does not exist, so no counter is in it).
func openCounterReader(c *config.Spec) (counterReader, error) {
	return stores.OpenCounterReader(storeOptions(c))
}

// storeOpenTimeout bounds connecting to a counter store at open.
const storeOpenTimeout = 10 * time.Second
