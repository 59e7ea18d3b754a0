package config

// The keys of a lease source: where the store keeps its records
// (lease_dir=, lease_table=), lease_ttl=, max_outage= and max_wait=
// (whose defaults follow the source and each other), and max_skew=.

import (
	"fmt"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/stores"
)

// leasing: the keys of a lease apply only to a generator that takes one.
func leasing(d *draft) string {
	if d.WorkerSrc.Leasing() {
		return ""
	}
	return "applies only with a lease source (worker=lease, " + stores.Names(nil, false, "://") + "…), not worker=" + d.given["worker"]
}

func hostLease(d *draft) string {
	if d.WorkerSrc != SourceLease {
		return "applies only with worker=lease"
	}
	return ""
}

func readLeaseDir(d *draft, v string) error {
	if !strings.HasPrefix(v, "/") {
		return errs.Key("lease_dir", "want an absolute path, got %q", v)
	}
	d.LeaseDir = v
	return nil
}

func printLeaseDir(c *Spec) (string, bool) {
	if !c.WorkerSrc.Leasing() || c.LeaseDir == "" {
		return "", false
	}
	return Quote(c.LeaseDir), true
}

func sqlLease(d *draft) string {
	if d.WorkerSrc != SourceStore || !d.leaseProps().Tables {
		return "applies only with worker=" + stores.Names(hasTables, false, "://…")
	}
	return ""
}

func readLeaseTable(d *draft, v string) error {
	if err := checkIdentifier(v); err != nil {
		return err
	}
	d.LeaseTable = v
	return nil
}

func printLeaseTable(c *Spec) (string, bool) {
	return c.LeaseTable, c.WorkerSrc.Leasing() && c.LeaseTable != ""
}

func readLeaseTTL(d *draft, v string) (err error) {
	if d.LeaseTTL, err = parseDuration("lease_ttl", v); err != nil {
		return err
	}
	if d.LeaseTTL < 100*time.Millisecond || d.LeaseTTL > time.Hour {
		return errs.Key("lease_ttl", "want from 100ms to 1h, got %q", v)
	}
	if p := d.leaseProps(); d.LeaseTTL < p.MinTTL {
		return errs.Key("lease_ttl", "%s needs at least %s, got %q", p.MinTTLWhy, p.MinTTL, v)
	}
	return nil
}

// defLeaseTTL: the store's (the host directory is renewed locally, the
// fleet stores over a network).
func defLeaseTTL(d *draft) error {
	d.LeaseTTL = d.leaseProps().DefaultTTL
	return nil
}

func printLeaseTTL(c *Spec) (string, bool) { return c.LeaseTTL.String(), c.WorkerSrc.Leasing() }

func readMaxOutage(d *draft, v string) (err error) {
	if d.MaxOutage, err = parseDuration("max_outage", v); err != nil {
		return err
	}
	if d.MaxOutage < d.LeaseTTL || d.MaxOutage > MaxDuration {
		return errs.Key("max_outage", "want from lease_ttl (%s) to %s, got %q", d.LeaseTTL, MaxDuration, v)
	}
	return nil
}

func defMaxOutage(d *draft) error {
	d.MaxOutage = max(d.leaseProps().DefaultOutage, d.LeaseTTL)
	return nil
}

func printMaxOutage(c *Spec) (string, bool) { return c.MaxOutage.String(), c.WorkerSrc.Leasing() }

func readMaxWait(d *draft, v string) (err error) {
	d.MaxWait, err = parseDuration("max_wait", v)
	return err
}

func defMaxWait(d *draft) error {
	d.MaxWait = d.MaxOutage + d.MaxDrift + time.Second
	return nil
}

func printMaxWait(c *Spec) (string, bool) { return c.MaxWait.String(), c.WorkerSrc.Leasing() }

// storeClock: max_skew=<d> fails an open with IDGEN_ECLOCK when this
// host's clock and the lease store's are further apart. Only stores with
// a clock take it (the table of stores says which: Props.Clock); a number
// has none.
func storeClock(d *draft) string {
	withClock := stores.Names(hasClock, false, "://")
	if !d.WorkerSrc.Leasing() {
		return "applies only with a lease store that has a clock (" + withClock + "), not worker=" + d.given["worker"]
	}
	if p := d.leaseProps(); !p.Clock {
		return fmt.Sprintf(p.NoClock, withClock)
	}
	return ""
}

func readMaxSkew(d *draft, v string) (err error) {
	if d.MaxSkew, err = parseDuration("max_skew", v); err != nil {
		return err
	}
	if d.MaxSkew < time.Millisecond || d.MaxSkew > MaxDuration {
		return errs.Key("max_skew", "want from 1ms to %s, got %q", MaxDuration, v)
	}
	return nil
}

func printMaxSkew(c *Spec) (string, bool) {
	return c.MaxSkew.String(), c.WorkerSrc.Leasing() && c.MaxSkew > 0
}
