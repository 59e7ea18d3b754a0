package config

// The keys of preset=segment: a named counter in a store, handed out in
// segments (DESIGN "Segments: dense counters from a store").

import (
	"math"
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/stores"
)

// needName: a segment generator's name is its counter.
func needName(d *draft) error {
	return errs.Key("name", "preset segment needs name=<counter>: the counter its values come from (1 to 64 characters of A-Z a-z 0-9 _ . -)")
}

func printSegmentName(c *Spec) (string, bool) { return c.Name, true }

// readStore reads store=: the URL forms of worker= (none: the host lease
// directory).
func readStore(d *draft, v string) error {
	u, err := ParseStoreURL(v)
	if err != nil {
		return errs.Key("store", "%s", strings.TrimPrefix(err.Error(), "worker: "))
	}
	d.Store = u
	return nil
}

func printStore(c *Spec) (string, bool) {
	if c.Store == nil {
		return "", false
	}
	return Quote(c.Store.Redacted), true
}

func readStep(d *draft, v string) error {
	if v == "auto" {
		d.Segment.Auto, d.Segment.Step = true, MinAutoStep
		return nil
	}
	n, err := parseWhole(v)
	if err != nil || n < 1 || n > MaxSegmentStep {
		return errs.Key("step", "want auto or a whole number of values per segment from 1 to %d, got %q", int64(MaxSegmentStep), v)
	}
	d.Segment.Step = n
	return nil
}

func defStep(d *draft) error {
	d.Segment.Step = DefaultSegmentStep
	return nil
}

func printStep(c *Spec) (string, bool) {
	if c.Segment.Auto {
		return "auto", true
	}
	return strconv.FormatInt(c.Segment.Step, 10), true
}

func readStart(d *draft, v string) error {
	n, err := parseWhole(v)
	if err != nil || n < 1 {
		return errs.Key("start", "want a whole number from 1 to %d (where a new counter begins), got %q", int64(math.MaxInt64), v)
	}
	d.Segment.Start = n
	return nil
}

func defStart(d *draft) error {
	d.Segment.Start = 1
	return nil
}

func printStart(c *Spec) (string, bool) { return strconv.FormatInt(c.Segment.Start, 10), true }

func readSegmentPadding(d *draft, v string) error {
	n, err := parseWhole(v)
	if err != nil || n < 1 || n > 99 {
		return errs.Key("padding", "want a percentage from 1 to 99 (the next segment is fetched when fewer are left), got %q", v)
	}
	d.Padding = int(n)
	return nil
}

func readSegmentWait(d *draft, v string) (err error) {
	if d.MaxWait, err = parseDuration("max_wait", v); err != nil {
		return err
	}
	if d.MaxWait > MaxDuration {
		return errs.Key("max_wait", "want at most %s, got %q", MaxDuration, v)
	}
	return nil
}

func defSegmentWait(d *draft) error {
	d.MaxWait = DefaultSegmentWait
	return nil
}

func printSegmentWait(c *Spec) (string, bool) { return c.MaxWait.String(), true }

func hostDirectory(d *draft) string {
	if d.Store != nil {
		return "applies only to the host directory (no store=), not store=" + d.Store.Redacted
	}
	return ""
}

func printSegmentDir(c *Spec) (string, bool) {
	if c.LeaseDir == "" {
		return "", false
	}
	return Quote(c.LeaseDir), true
}

func sqlStore(d *draft) string {
	if r, ok := storeRow(d.Store); !ok || !r.Tables {
		return "applies only to the SQL stores (store=" + stores.Names(hasTables, false, "://…") + ")"
	}
	return ""
}

// readSegmentTable: counters live in lease_table + "_segment".
func readSegmentTable(d *draft, v string) error {
	if err := checkIdentifier(v); err != nil {
		return err
	}
	if len(v)+len(SegmentTableSuffix) > 63 {
		return errs.Key("lease_table", "counters live in table %s%s, which must fit 63 bytes: want at most %d characters, got %q", v, SegmentTableSuffix, 63-len(SegmentTableSuffix), v)
	}
	d.LeaseTable = v
	return nil
}

func printSegmentTable(c *Spec) (string, bool) { return c.LeaseTable, c.LeaseTable != "" }
