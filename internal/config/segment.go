package config

// preset=segment: a named counter in a store, handed out in segments
// (DESIGN "Segments: dense counters from a store"). Its keys are read here
// and nowhere else; every other key is refused by name.

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// Segment is what preset=segment takes besides the keys it shares with
// other presets (name, store, padding, max_wait, text, lease_dir,
// lease_table).
type Segment struct {
	Step  int64 // values per segment; with Auto, the first segment's size
	Auto  bool  // step=auto: sized from the consumption rate
	Start int64 // where a new counter begins; changes nothing on one that exists
}

// Segment defaults and bounds.
const (
	DefaultSegmentStep    = 1000
	MaxSegmentStep        = 1_000_000_000
	MinAutoStep           = 1000       // step=auto never takes fewer
	MaxAutoStep           = 10_000_000 // nor more
	DefaultSegmentPadding = 50
	DefaultSegmentWait    = 2 * time.Second
	// SegmentTableSuffix names the SQL stores' counter table after
	// lease_table (idgen_segment without one).
	SegmentTableSuffix  = "_segment"
	DefaultSegmentTable = "idgen" + SegmentTableSuffix
)

// segmentKeys are the keys preset=segment takes besides preset.
var segmentKeys = []string{"name", "store", "step", "start", "padding", "max_wait", "text", "lease_dir", "lease_table"}

// parseSegment reads the keys of preset=segment and refuses every other.
func (c *Spec) parseSegment(kv map[string]string) error {
	for k := range kv {
		if k == "preset" {
			continue
		}
		ok := false
		for _, o := range segmentKeys {
			ok = ok || o == k
		}
		if !ok {
			return errs.Key(k, "does not apply to preset segment (its keys: %s); a segment generator takes no worker id, lease or clock: its values come from the counter in its store", strings.Join(segmentKeys, ", "))
		}
	}
	if c.Name == "" {
		return errs.Key("name", "preset segment needs name=<counter>: the counter its values come from (1 to 64 characters of A-Z a-z 0-9 _ . -)")
	}
	c.Segment = Segment{Step: DefaultSegmentStep, Start: 1}
	c.Padding, c.MaxWait = DefaultSegmentPadding, DefaultSegmentWait
	if err := c.parseSegmentStore(kv); err != nil {
		return err
	}
	var err error
	if v, ok := kv["step"]; ok {
		if v == "auto" {
			c.Segment.Auto, c.Segment.Step = true, MinAutoStep
		} else if n, perr := parseWhole(v); perr != nil || n < 1 || n > MaxSegmentStep {
			return errs.Key("step", "want auto or a whole number of values per segment from 1 to %d, got %q", int64(MaxSegmentStep), v)
		} else {
			c.Segment.Step = n
		}
	}
	if v, ok := kv["start"]; ok {
		n, perr := parseWhole(v)
		if perr != nil || n < 1 {
			return errs.Key("start", "want a whole number from 1 to %d (where a new counter begins), got %q", int64(math.MaxInt64), v)
		}
		c.Segment.Start = n
	}
	if v, ok := kv["padding"]; ok {
		n, perr := parseWhole(v)
		if perr != nil || n < 1 || n > 99 {
			return errs.Key("padding", "want a percentage from 1 to 99 (the next segment is fetched when fewer are left), got %q", v)
		}
		c.Padding = int(n)
	}
	if v, ok := kv["max_wait"]; ok {
		if c.MaxWait, err = parseDuration("max_wait", v); err != nil {
			return err
		}
		if c.MaxWait > MaxDuration {
			return errs.Key("max_wait", "want at most %s, got %q", MaxDuration, v)
		}
	}
	if v, ok := kv["text"]; ok {
		if c.Text, err = parseTextForm(v); err != nil {
			return err
		}
	}
	return nil
}

// parseSegmentStore reads store= (the URL forms of worker=; none: the
// host lease directory) and the keys that say where in it counters live.
func (c *Spec) parseSegmentStore(kv map[string]string) error {
	if v, ok := kv["store"]; ok {
		u, err := ParseStoreURL(v)
		if err != nil {
			return errs.Key("store", "%s", strings.TrimPrefix(err.Error(), "worker: "))
		}
		c.Store = u
	}
	if v, ok := kv["lease_dir"]; ok {
		if c.Store != nil {
			return errs.Key("lease_dir", "applies only to the host directory (no store=), not store=%s", c.Store.Redacted())
		}
		if !strings.HasPrefix(v, "/") {
			return errs.Key("lease_dir", "want an absolute path, got %q", v)
		}
		c.LeaseDir = v
	}
	if v, ok := kv["lease_table"]; ok {
		if c.Store == nil || c.Store.Kind != StorePG && c.Store.Kind != StoreMySQL {
			return errs.Key("lease_table", "applies only to the SQL stores (store=postgres://… or mysql://…)")
		}
		if err := checkIdentifier(v); err != nil {
			return err
		}
		if len(v)+len(SegmentTableSuffix) > 63 {
			return errs.Key("lease_table", "counters live in table %s%s, which must fit 63 bytes: want at most %d characters, got %q", v, SegmentTableSuffix, 63-len(SegmentTableSuffix), v)
		}
		c.LeaseTable = v
	}
	return nil
}

// SegmentTable is the SQL stores' counter table.
func (c *Spec) SegmentTable() string {
	if c.LeaseTable == "" {
		return DefaultSegmentTable
	}
	return c.LeaseTable + SegmentTableSuffix
}

// segmentString is String for preset=segment.
func (c *Spec) segmentString() string {
	parts := []string{"preset=segment", "name=" + c.Name}
	if c.Store != nil {
		parts = append(parts, "store="+Quote(c.Store.Redacted()))
	}
	step := strconv.FormatInt(c.Segment.Step, 10)
	if c.Segment.Auto {
		step = "auto"
	}
	parts = append(parts, "step="+step, "start="+strconv.FormatInt(c.Segment.Start, 10),
		"padding="+strconv.Itoa(c.Padding), "max_wait="+c.MaxWait.String())
	if c.Text != TextDec {
		parts = append(parts, "text="+c.Text.String())
	}
	if c.LeaseDir != "" {
		parts = append(parts, "lease_dir="+Quote(c.LeaseDir))
	}
	if c.LeaseTable != "" {
		parts = append(parts, "lease_table="+c.LeaseTable)
	}
	return strings.Join(parts, " ")
}
