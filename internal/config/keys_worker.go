package config

// worker= and datacenter=: where the ids of a pair come from; leased= and
// switched=, the pairs a running generator shows.

import (
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/hostid"
	"github.com/idgen/idgen/internal/layout"
)

func readDatacenter(d *draft, v string) (err error) {
	d.DCSrc, d.DC, err = d.parseSource("datacenter", v, layout.FieldDatacenter)
	return err
}

func printDatacenter(c *Spec) (string, bool) {
	if !c.Layout.Has(layout.FieldDatacenter) || c.DCSrc == SourceUnset {
		return "", false
	}
	return c.source(c.DCSrc, c.DC), true
}

func readWorker(d *draft, v string) (err error) {
	if d.WorkerSrc, d.Worker, err = d.parseSource("worker", v, layout.FieldWorker); err != nil {
		return err
	}
	if d.WorkerSrc == SourcePID && !d.Layout.Has(layout.FieldWorker) {
		return errs.Key("worker", "pid needs a layout with a worker field")
	}
	return nil
}

// defWorker: every generator leases by default.
func defWorker(d *draft) error {
	d.WorkerSrc = SourceLease
	return nil
}

func printWorker(c *Spec) (string, bool) {
	if c.WorkerSrc.Leasing() || c.Layout.Has(layout.FieldWorker) || c.Layout.Has(layout.FieldDatacenter) {
		return c.source(c.WorkerSrc, c.Worker), true
	}
	return "0", true
}

// source prints a worker or datacenter source as its name (worker=lease,
// worker=zk://… without the password) or its number.
func (c *Spec) source(s Source, v int64) string {
	switch s {
	case SourcePID:
		return "pid"
	case SourceMAC:
		return "mac"
	case SourceLease:
		return "lease"
	case SourceOrdinal:
		return "ordinal"
	case SourceStore:
		return Quote(c.Store.Redacted)
	}
	return strconv.FormatInt(v, 10)
}

func (d *draft) parseSource(key, v string, kind layout.FieldKind) (Source, int64, error) {
	switch {
	case key == "worker" && v == "pid":
		return SourcePID, 0, nil
	case key == "worker" && v == "lease":
		return SourceLease, 0, nil
	case key == "worker" && v == "ordinal":
		n, err := Ordinal(d.Layout)
		return SourceOrdinal, n, err
	case key == "worker" && strings.Contains(v, "://"):
		u, err := ParseStoreURL(v)
		if err != nil {
			return 0, 0, err
		}
		d.Store = u
		return SourceStore, 0, nil
	case key == "datacenter" && v == "mac":
		if !d.Layout.Has(layout.FieldDatacenter) {
			return 0, 0, errs.Key(key, "mac needs a layout with a datacenter field")
		}
		return SourceMAC, 0, nil
	case strings.Contains(v, "://"):
		return 0, 0, errs.Key(key, "a coordinator (%q) can only be given as worker=", redactAny(v))
	}
	f, ok := d.Layout.Field(kind)
	limit := int64(0)
	if ok {
		limit = f.Max()
	}
	n, err := parseInt(key, v, limit)
	if err != nil {
		if !ok {
			return 0, 0, errs.Key(key, "the layout has no %s field, so only 0 is allowed, got %q", kind, v)
		}
		return 0, 0, err
	}
	return SourceValue, n, nil
}

// Ordinal is worker=ordinal's number: $IDGEN_ORDINAL when set, else the
// trailing -N of the host name (a StatefulSet pod web-3 is 3). It must fit
// the layout's worker field.
func Ordinal(l layout.Layout) (int64, error) {
	f, ok := l.Field(layout.FieldWorker)
	if !ok {
		return 0, errs.Key("worker", "ordinal needs a layout with a worker field")
	}
	v, from, err := hostid.Ordinal()
	if err != nil {
		return 0, errs.Key("worker", "ordinal: %v", err)
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return 0, errs.Key("worker", "ordinal: %s gives %q, not a whole number", from, v)
	}
	if n > f.Max() {
		return 0, errs.Key("worker", "ordinal: %s gives %d, above the worker field's largest value %d", from, n, f.Max())
	}
	return n, nil
}

// holdsNoLease: leased= and switched= show pairs of a lease.
func holdsNoLease(what string) func(d *draft) string {
	return func(d *draft) string {
		if d.WorkerSrc.Leasing() {
			return ""
		}
		return what + "; this configuration takes no lease"
	}
}

// checkPair checks the D/W of leased= or switched=: a pair of this
// layout's pool. Opening ignores both (a generator shows only the pair it
// holds and one it gave up itself), but a value no generator of the
// layout could show is out of range.
func checkPair(key string) func(d *draft, v string) error {
	return func(d *draft, v string) error {
		dc, w, ok := ParseLeased(v)
		if !ok {
			return errs.Key(key, "want datacenter/worker as a generator's configuration string shows it, got %q", v)
		}
		maxDC, maxW := int64(0), int64(0)
		if f, ok := d.Layout.Field(layout.FieldDatacenter); ok {
			maxDC = f.Max()
		}
		if f, ok := d.Layout.Field(layout.FieldWorker); ok {
			maxW = f.Max()
		}
		if dc > maxDC || w > maxW {
			return errs.Key(key, "%q is not a pair of layout %s (datacenter 0..%d, worker 0..%d)", v, &d.Layout, maxDC, maxW)
		}
		return nil
	}
}
