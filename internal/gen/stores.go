package gen

// The stores a configuration names, opened: for a lease, for listing a
// pool (idgen leases), for a segment counter. The one place that knows
// every store package.

import (
	"context"
	"os"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
	"github.com/idgen/idgen/internal/lease/etcdstore"
	"github.com/idgen/idgen/internal/lease/mysqlstore"
	"github.com/idgen/idgen/internal/lease/pgstore"
	"github.com/idgen/idgen/internal/lease/redisstore"
	"github.com/idgen/idgen/internal/lease/zkstore"
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
func openStores(c *config.Spec, opt Options) (o opened, err error) {
	segment := c.Scheme == config.SchemeSegment
	o.own = true
	switch {
	case segment && opt.Counters != nil:
		return opened{counters: opt.Counters}, nil
	case segment && c.Store != nil:
		o.counters, err = storeKinds[c.Store.Kind].counters(c)
	case segment:
		dir, explicit := c.LeaseDir, c.LeaseDir != ""
		if !explicit {
			dir = config.DefaultLeaseDir
		}
		o.counters, err = dirstore.OpenCounters(dir, explicit)
	case c.Scheme.IsText() || !c.WorkerSrc.Leasing():
		return opened{}, nil
	case opt.Store != nil:
		return opened{leases: opt.Store}, nil
	case c.Store != nil:
		o.leases, err = storeKinds[c.Store.Kind].leases(c)
	case c.WorkerSrc == config.SourceLease && c.LeaseDir != "":
		o.leases, err = dirstore.Open(c.LeaseDir, true)
	case c.WorkerSrc == config.SourceLease:
		o.leases, err = dirstore.Open(config.DefaultLeaseDir, false)
	default:
		err = errs.Key("worker", "this lease source is not available in this version")
	}
	return o, err
}

// openStore opens the store a lease source names.
func openStore(c *config.Spec) (lease.Store, error) {
	o, err := openStores(c, Options{})
	return o.leases, err
}

// openCounterStore opens the store a segment configuration names: the
// host lease directory without store=.
func openCounterStore(c *config.Spec) (segment.Store, error) {
	o, err := openStores(c, Options{})
	return o.counters, err
}

// storeKind is how one store package opens: for a lease pool and for
// segment counters.
type storeKind struct {
	leases   func(c *config.Spec) (lease.Store, error)
	counters func(c *config.Spec) (segment.Store, error)
}

// storeKinds are the store packages by the kind of their URL.
var storeKinds = map[config.StoreKind]storeKind{
	config.StoreZK: {
		counters: func(c *config.Spec) (segment.Store, error) { return zkstore.OpenCounters(c.Store, storeOpenTimeout) },
		leases:   func(c *config.Spec) (lease.Store, error) { return zkstore.Open(c.Store, c.LeaseTTL) },
	},
	config.StorePG: {
		counters: func(c *config.Spec) (segment.Store, error) {
			return pgstore.OpenCounters(c.Store, c.SegmentTable(), storeOpenTimeout)
		},
		leases: func(c *config.Spec) (lease.Store, error) { return pgstore.Open(c.Store, c.LeaseTable, c.LeaseTTL) },
	},
	config.StoreMySQL: {
		counters: func(c *config.Spec) (segment.Store, error) {
			return mysqlstore.OpenCounters(c.Store, c.SegmentTable(), storeOpenTimeout)
		},
		leases: func(c *config.Spec) (lease.Store, error) { return mysqlstore.Open(c.Store, c.LeaseTable, c.LeaseTTL) },
	},
	config.StoreRedis: {
		counters: func(c *config.Spec) (segment.Store, error) { return redisstore.OpenCounters(c.Store, storeOpenTimeout) },
		leases: func(c *config.Spec) (lease.Store, error) {
			horizon := 2*c.MaxOutage + c.MaxDrift // how long a lost fence may matter
			if c.Scheme == config.SchemeZxid {
				horizon = redisstore.Forever // a counter: for good
			}
			return redisstore.OpenLeases(c.Store, c.LeaseTTL, horizon)
		},
	},
	config.StoreEtcd: {
		counters: func(c *config.Spec) (segment.Store, error) { return etcdstore.OpenCounters(c.Store, storeOpenTimeout) },
		leases:   func(c *config.Spec) (lease.Store, error) { return etcdstore.Open(c.Store, c.LeaseTTL) },
	},
}

// openListStore opens the store without creating anything (nil: the host
// directory does not exist, so no pool is in it).
func openListStore(c *config.Spec) (lease.Store, error) {
	switch c.WorkerSrc {
	case config.SourceLease:
		dir := c.LeaseDir
		if dir == "" {
			dir = config.DefaultLeaseDir
			if _, err := os.Stat(dir); os.IsNotExist(err) {
				return nil, nil
			}
		}
		return dirstore.Open(dir, true)
	case config.SourcePG:
		return pgstore.OpenReadOnly(c.Store, c.LeaseTable, c.LeaseTTL)
	case config.SourceMySQL:
		return mysqlstore.OpenReadOnly(c.Store, c.LeaseTable, c.LeaseTTL)
	}
	return openStore(c)
}

// counterReader reads a segment counter (idgen leases).
type counterReader interface {
	Where() string
	Read(ctx context.Context, name string) (last int64, found bool, err error)
	Close() error
}

// openCounterReader opens a segment configuration's store without
// creating anything: no table, no host directory (nil: the default host
// directory does not exist, so no counter is in it).
func openCounterReader(c *config.Spec) (counterReader, error) {
	switch {
	case c.Store == nil && c.LeaseDir == "":
		if _, err := os.Stat(config.DefaultLeaseDir); os.IsNotExist(err) {
			return nil, nil
		}
		return dirstore.OpenCounters(config.DefaultLeaseDir, true)
	case c.Store == nil:
		return dirstore.OpenCounters(c.LeaseDir, true)
	case c.Store.Kind == config.StorePG:
		return pgstore.OpenCountersReadOnly(c.Store, c.SegmentTable(), storeOpenTimeout)
	case c.Store.Kind == config.StoreMySQL:
		return mysqlstore.OpenCountersReadOnly(c.Store, c.SegmentTable(), storeOpenTimeout)
	}
	return openCounterStore(c)
}

// storeOpenTimeout bounds connecting to a counter store at open.
const storeOpenTimeout = 10 * time.Second
