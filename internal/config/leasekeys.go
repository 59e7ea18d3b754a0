package config

import (
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// parseLeaseKeys reads the keys of a lease source: where the store keeps
// its records, lease_ttl, max_outage and max_wait (whose defaults follow
// the source and each other), and the pair shown by a generator.
func (c *Spec) parseLeaseKeys(kv map[string]string) error {
	var err error
	if v, ok := kv["lease_dir"]; ok {
		if !strings.HasPrefix(v, "/") {
			return errs.Key("lease_dir", "want an absolute path, got %q", v)
		}
		c.LeaseDir = v
	}
	if v, ok := kv["lease_table"]; ok {
		if err := checkIdentifier(v); err != nil {
			return err
		}
		c.LeaseTable = v
	}
	switch c.WorkerSrc {
	case SourceZK, SourcePG, SourceMySQL, SourceRedis, SourceEtcd:
		c.LeaseTTL = DefaultFleetTTL
	default:
		c.LeaseTTL = DefaultHostTTL
	}
	if v, ok := kv["lease_ttl"]; ok {
		if c.LeaseTTL, err = parseDuration("lease_ttl", v); err != nil {
			return err
		}
		if c.LeaseTTL < 100*time.Millisecond || c.LeaseTTL > time.Hour {
			return errs.Key("lease_ttl", "want from 100ms to 1h, got %q", v)
		}
		if c.WorkerSrc == SourceZK && c.LeaseTTL < time.Second {
			return errs.Key("lease_ttl", "a ZooKeeper session needs at least 1s, got %q", v)
		}
	}
	c.MaxOutage = max(DefaultHostOutage, c.LeaseTTL)
	if c.WorkerSrc.Fleet() {
		c.MaxOutage = max(DefaultFleetOutage, c.LeaseTTL)
	}
	if v, ok := kv["max_outage"]; ok {
		if c.MaxOutage, err = parseDuration("max_outage", v); err != nil {
			return err
		}
		if c.MaxOutage < c.LeaseTTL || c.MaxOutage > MaxDuration {
			return errs.Key("max_outage", "want from lease_ttl (%s) to %s, got %q", c.LeaseTTL, MaxDuration, v)
		}
	}
	c.MaxWait = c.MaxOutage + c.MaxDrift + time.Second
	if v, ok := kv["max_wait"]; ok {
		if c.MaxWait, err = parseDuration("max_wait", v); err != nil {
			return err
		}
	}
	if v, ok := kv["switched"]; ok {
		if err := c.checkPair("switched", v); err != nil {
			return err
		}
		c.Switched = v
	}
	if v, ok := kv["leased"]; ok {
		if err := c.checkPair("leased", v); err != nil {
			return err
		}
		c.Leased = v
	}
	return nil
}
