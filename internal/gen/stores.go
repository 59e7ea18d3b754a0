package gen

// The stores a configuration names, opened: for a lease, for listing a
// pool (idgen leases), for a segment counter. The one place that knows
// every store package.

import (
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

// openStore opens the store a lease source names.
func openStore(c *config.Spec) (lease.Store, error) {
	switch c.WorkerSrc {
	case config.SourceLease:
		if c.LeaseDir != "" {
			return dirstore.Open(c.LeaseDir, true)
		}
		return dirstore.Open(config.DefaultLeaseDir, false)
	case config.SourceZK:
		return zkstore.Open(c.Store, c.LeaseTTL)
	case config.SourcePG:
		return pgstore.Open(c.Store, c.LeaseTable, c.LeaseTTL)
	case config.SourceEtcd:
		return etcdstore.Open(c.Store, c.LeaseTTL)
	case config.SourceRedis:
		return redisstore.Open(c.Store, c.LeaseTTL)
	case config.SourceMySQL:
		return mysqlstore.Open(c.Store, c.LeaseTable, c.LeaseTTL)
	}
	return nil, errs.Key("worker", "%s is not available in this version", c.Store.Redacted())
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
	}
	return openStore(c)
}

// storeOpenTimeout bounds connecting to a counter store at open.
const storeOpenTimeout = 10 * time.Second

// openCounterStore opens the store a segment configuration names: the
// host lease directory without store=. As openStore, it answers a typed
// nil with its error: callers look at the error first.
func openCounterStore(c *config.Spec) (segment.Store, error) {
	if c.Store == nil {
		dir, explicit := c.LeaseDir, c.LeaseDir != ""
		if !explicit {
			dir = config.DefaultLeaseDir
		}
		return dirstore.OpenCounters(dir, explicit)
	}
	switch c.Store.Kind {
	case config.StoreZK:
		return zkstore.OpenCounters(c.Store, storeOpenTimeout)
	case config.StorePG:
		return pgstore.OpenCounters(c.Store, c.SegmentTable(), storeOpenTimeout)
	case config.StoreMySQL:
		return mysqlstore.OpenCounters(c.Store, c.SegmentTable(), storeOpenTimeout)
	case config.StoreRedis:
		return redisstore.OpenCounters(c.Store, storeOpenTimeout)
	case config.StoreEtcd:
		return etcdstore.OpenCounters(c.Store, storeOpenTimeout)
	}
	return nil, errs.Key("store", "%s keeps no segment counters in this version", c.Store.Redacted())
}
