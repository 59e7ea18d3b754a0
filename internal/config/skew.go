package config

import (
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// parseMaxSkew reads max_skew=<d>: opening fails with IDGEN_ECLOCK when
// this host's clock and the lease store's are further apart. Only stores
// with a clock take it (ZooKeeper's node times, PostgreSQL, MySQL, Redis);
// a number, the host directory and etcd have none.
func (c *Spec) parseMaxSkew(kv map[string]string) error {
	v, ok := kv["max_skew"]
	if !ok {
		return nil
	}
	switch c.WorkerSrc {
	case SourceZK, SourcePG, SourceMySQL, SourceRedis:
	case SourceLease:
		return errs.Key("max_skew", "the host lease directory has no clock of its own to compare with (use a store with one: zk://, postgres://, mysql:// or redis://)")
	case SourceEtcd:
		return errs.Key("max_skew", "etcd has no clock idgen can read (use zk://, postgres://, mysql:// or redis://)")
	default:
		return errs.Key("max_skew", "applies only with a lease store that has a clock (zk://, postgres://, mysql:// or redis://), not worker=%s", kv["worker"])
	}
	d, err := parseDuration("max_skew", v)
	if err != nil {
		return err
	}
	if d < time.Millisecond || d > MaxDuration {
		return errs.Key("max_skew", "want from 1ms to %s, got %q", MaxDuration, v)
	}
	c.MaxSkew = d
	return nil
}
