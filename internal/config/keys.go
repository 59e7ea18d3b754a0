package config

// The keys of a configuration string: reading each one into the Spec, and
// refusing keys that would configure nothing here.

import (
	"fmt"
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

func (c *Spec) parseKeys(kv map[string]string) error {
	var err error
	if c.Scheme == SchemeZxid {
		for _, k := range []string{"unit", "epoch", "clock", "on_clock_back", "on_exhausted", "max_drift", "seq_start", "datacenter"} {
			if _, ok := kv[k]; ok {
				return errs.Key(k, "preset zxid has no time, sequence or datacenter field")
			}
		}
	}
	if c.Scheme == SchemeSession {
		for _, k := range []string{"on_clock_back", "on_exhausted", "max_drift", "seq_start"} {
			if _, ok := kv[k]; ok {
				return errs.Key(k, "not used by preset %s (its ids count up from the time of opening)", c.Preset)
			}
		}
	}
	if v, ok := kv["unit"]; ok {
		if c.Unit, err = parseUnit(v); err != nil {
			return err
		}
	}
	if v, ok := kv["epoch"]; ok {
		if c.EpochMs, err = parseEpoch(v); err != nil {
			return err
		}
	}
	if v, ok := kv["clock"]; ok {
		switch v {
		case "mono", "monotonic":
		case "wall":
			c.WallClock = true
		default:
			return errs.Key("clock", "want mono or wall, got %q", v)
		}
	}
	if v, ok := kv["on_clock_back"]; ok {
		if c.OnClockBack, err = ParsePolicy(v); err != nil {
			return err
		}
	} else if !c.WallClock {
		// A preset's tolerate step (hutool's timeOffset) answers a wall
		// clock stepping back between two calls; clock=mono has none.
		c.OnClockBack = c.OnClockBack.Without(Tolerate)
	}
	if v, ok := kv["on_exhausted"]; ok {
		switch v {
		case "wait":
		case "borrow":
			c.Borrow = true
		default:
			return errs.Key("on_exhausted", "want wait or borrow, got %q", v)
		}
	}
	if err := c.parseCached(kv); err != nil {
		return err
	}
	if v, ok := kv["max_drift"]; ok {
		if c.MaxDrift, err = parseDuration("max_drift", v); err != nil {
			return err
		}
		if c.MaxDrift < c.Unit {
			return errs.Key("max_drift", "%s is less than one %s tick, so nothing could be borrowed", v, FormatUnit(c.Unit))
		}
		if c.MaxDrift > MaxDuration {
			return errs.Key("max_drift", "want at most %s, got %q", MaxDuration, v)
		}
	} else if c.Cached {
		// Room to fill the ring once ahead of the clock, at most what an
		// explicit max_drift may say, so the configuration string reads
		// back (unit=24h boost=7 would be 3072h).
		c.MaxDrift = min(c.Unit<<c.Boost, MaxDuration)
	} else if c.Borrow {
		c.MaxDrift = max(DefaultMaxDrift, c.Unit)
	}
	if v, ok := kv["seq_start"]; ok {
		if c.SeqRandom, err = parseSeqStart(v); err != nil {
			return err
		}
	}
	if c.SeqRandom > 0 {
		if f, ok := c.Layout.Field(layout.FieldSeq); ok && c.SeqRandom > f.Max()+1 {
			if _, given := kv["seq_start"]; !given {
				// The preset's own start (leaf's random:100) and a layout
				// restated with a narrower seq: the layout is what was given.
				return errs.Key("layout", "preset %s starts each tick's sequence at random below %d (seq_start=random:%d), which the %d-bit seq of %s cannot hold: give seq_start=0 or seq_start=random:N with N at most %d, or a wider seq field",
					c.Preset, c.SeqRandom, c.SeqRandom, f.Width, &c.Layout, f.Max()+1)
			}
			return errs.Key("seq_start", "random:%d is larger than the %d-bit sequence (at most random:%d)", c.SeqRandom, f.Width, f.Max()+1)
		}
	}
	if v, ok := kv["zxid_epoch"]; ok {
		if c.Scheme != SchemeZxid {
			return errs.Key("zxid_epoch", "only preset zxid has an epoch counter")
		}
		f, _ := c.Layout.Field(layout.FieldEpoch)
		if c.ZxidEpoch, err = parseInt("zxid_epoch", v, f.Max()); err != nil {
			return err
		}
	}
	if v, ok := kv["datacenter"]; ok {
		if c.DCSrc, c.DC, err = c.parseSource("datacenter", v, layout.FieldDatacenter); err != nil {
			return err
		}
	}
	c.WorkerSrc = SourceLease // the default for every generator
	if v, ok := kv["worker"]; ok {
		if c.WorkerSrc, c.Worker, err = c.parseSource("worker", v, layout.FieldWorker); err != nil {
			return err
		}
	}
	if c.WorkerSrc == SourcePID && !c.Layout.Has(layout.FieldWorker) {
		return errs.Key("worker", "pid needs a layout with a worker field")
	}
	return c.parseLeaseKeys(kv)
}

// checkPair checks the D/W of leased= or switched=: a pair of this
// layout's pool. Opening ignores both (a generator shows only the pair it
// holds and one it gave up itself), but a value no generator of the
// layout could show is out of range.
func (c *Spec) checkPair(key, v string) error {
	dc, w, ok := ParseLeased(v)
	if !ok {
		return errs.Key(key, "want datacenter/worker as a generator's configuration string shows it, got %q", v)
	}
	maxDC, maxW := int64(0), int64(0)
	if f, ok := c.Layout.Field(layout.FieldDatacenter); ok {
		maxDC = f.Max()
	}
	if f, ok := c.Layout.Field(layout.FieldWorker); ok {
		maxW = f.Max()
	}
	if dc > maxDC || w > maxW {
		return errs.Key(key, "%q is not a pair of layout %s (datacenter 0..%d, worker 0..%d)", v, &c.Layout, maxDC, maxW)
	}
	return nil
}

// checkApplies refuses keys that would configure nothing.
func (c *Spec) checkApplies(kv map[string]string) error {
	leasing := c.WorkerSrc.Leasing()
	for _, k := range []string{"max_wait", "lease_ttl", "max_outage"} {
		if _, ok := kv[k]; ok && !leasing {
			return errs.Key(k, "applies only with a lease source (worker=lease, zk://, postgres://, mysql://, redis:// or etcd://…), not worker=%s", kv["worker"])
		}
	}
	if _, ok := kv["lease_dir"]; ok && c.WorkerSrc != SourceLease {
		return errs.Key("lease_dir", "applies only with worker=lease")
	}
	if _, ok := kv["lease_table"]; ok && c.WorkerSrc != SourcePG && c.WorkerSrc != SourceMySQL {
		return errs.Key("lease_table", "applies only with worker=postgres://… or mysql://…")
	}
	if _, ok := kv["max_drift"]; ok && !c.Borrow {
		return errs.Key("max_drift", "applies only with on_exhausted=borrow")
	}
	if _, ok := kv["on_clock_back"]; ok && !c.WallClock && !leasing {
		return errs.Key("on_clock_back", "no clock can go back here: clock=mono never steps back and there is no lease whose record could be ahead (use clock=wall, or a lease source)")
	}
	if c.OnClockBack.Has(Tolerate) && !c.WallClock {
		return errs.Key("on_clock_back", "tolerate:<d> keeps issuing on the last tick when the wall clock steps back between two calls, so it needs clock=wall; with clock=mono nothing steps back between calls, and at a lease takeover nothing is tolerated (no id goes at or below the predecessor's record: it is waited out up to max_wait, or a wait:<d> step)")
	}
	if c.OnClockBack.Has(Switch) && !leasing {
		return errs.Key("on_clock_back", "switch needs a lease source to take another pair from")
	}
	if _, ok := kv["switched"]; ok && !leasing {
		return errs.Key("switched", "shows a pair given up by on_clock_back=switch; this configuration takes no lease")
	}
	if _, ok := kv["leased"]; ok && !leasing {
		return errs.Key("leased", "shows a leased pair; this configuration takes no lease")
	}
	return nil
}

func (c *Spec) checkLayout() error {
	l := &c.Layout
	allowed := map[Scheme][]layout.FieldKind{
		SchemeTime:    {layout.FieldTime, layout.FieldDatacenter, layout.FieldWorker, layout.FieldSeq, layout.FieldBackwards},
		SchemeSession: {layout.FieldWorker, layout.FieldTime, layout.FieldSeq},
		SchemeZxid:    {layout.FieldEpoch, layout.FieldCounter},
	}[c.Scheme]
	for _, f := range l.Fields {
		ok := false
		for _, k := range allowed {
			ok = ok || k == f.Kind
		}
		if f.Kind == layout.FieldBackwards && (f.Width < 1 || f.Width > 4) {
			return errs.Key("layout", "backwards:%d: the rollback counter takes 1 to 4 bits", f.Width)
		}
		if !ok {
			return errs.Key("layout", "preset %s has no %q field", c.Preset, f.Kind)
		}
	}
	switch c.Scheme {
	case SchemeTime:
		if !l.Has(layout.FieldTime) || !l.Has(layout.FieldSeq) {
			return errs.Key("layout", "a time-based layout needs a time and a seq field")
		}
		if !l.Order(layout.FieldTime, layout.FieldSeq) {
			return errs.Key("layout", "time must come before seq so that ids increase")
		}
		if l.Bits() > 63 {
			return errs.Key("layout", "fields add up to %d bits; at most 63 are allowed (bit 63 stays 0)", l.Bits())
		}
	case SchemeSession:
		t, ok1 := l.Field(layout.FieldTime)
		s, ok2 := l.Field(layout.FieldSeq)
		if !ok1 || !ok2 || t.Shift != s.Width || s.Shift != 0 {
			return errs.Key("layout", "preset %s needs time directly above seq at the low end", c.Preset)
		}
		if w, ok := l.Field(layout.FieldWorker); ok && w.Shift != t.Shift+t.Width {
			return errs.Key("layout", "preset %s needs worker above time", c.Preset)
		}
	case SchemeZxid:
		e, ok1 := l.Field(layout.FieldEpoch)
		n, ok2 := l.Field(layout.FieldCounter)
		if !ok1 || !ok2 || n.Shift != 0 || e.Shift != n.Width {
			return errs.Key("layout", "preset zxid needs epoch directly above counter")
		}
	}
	if l.Bits() > 64 {
		return errs.Key("layout", "fields add up to %d bits; at most 64 fit in an id", l.Bits())
	}
	return nil
}

func (c *Spec) parseSource(key, v string, kind layout.FieldKind) (Source, int64, error) {
	switch {
	case key == "worker" && v == "pid":
		return SourcePID, 0, nil
	case key == "worker" && v == "lease":
		return SourceLease, 0, nil
	case key == "worker" && v == "ordinal":
		n, err := Ordinal(c.Layout)
		return SourceOrdinal, n, err
	case key == "worker" && strings.Contains(v, "://"):
		u, err := ParseStoreURL(v)
		if err != nil {
			return 0, 0, err
		}
		c.Store = u
		return u.Kind.Source(), 0, nil
	case key == "datacenter" && v == "mac":
		if !c.Layout.Has(layout.FieldDatacenter) {
			return 0, 0, errs.Key(key, "mac needs a layout with a datacenter field")
		}
		return SourceMAC, 0, nil
	case strings.Contains(v, "://"):
		return 0, 0, errs.Key(key, "a coordinator (%q) can only be given as worker=", redactAny(v))
	}
	f, ok := c.Layout.Field(kind)
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

// MaxRingBits bounds baidu-cached's ring: at most 2^24 ids (128 MiB of
// 8-byte slots), so seq width + boost is at most 24 (Baidu's default,
// seq:13 and boost=3, is 2^16).
const MaxRingBits = 24

// parseCached reads baidu-cached's boost and padding; the preset always
// borrows.
func (c *Spec) parseCached(kv map[string]string) error {
	_, hasBoost := kv["boost"]
	_, hasPadding := kv["padding"]
	if c.Preset != "baidu-cached" {
		if hasBoost {
			return errs.Key("boost", "applies only to preset baidu-cached")
		}
		if hasPadding {
			return errs.Key("padding", "applies only to preset baidu-cached")
		}
		return nil
	}
	if v, ok := kv["on_exhausted"]; ok && v != "borrow" {
		return errs.Key("on_exhausted", "preset baidu-cached always borrows future seconds (up to max_drift); got %q", v)
	}
	c.Cached, c.Borrow, c.Boost, c.Padding = true, true, DefaultBoost, DefaultPadding
	if hasBoost {
		n, err := parseInt("boost", kv["boost"], 10)
		if err != nil {
			return err
		}
		c.Boost = int(n)
	}
	// The ring holds 2^(seq width + boost) ids of 8 bytes each; compared as
	// widths, since the product overflows int64 once they reach 63.
	if f, ok := c.Layout.Field(layout.FieldSeq); ok && int(f.Width)+c.Boost > MaxRingBits {
		key, fix := "layout", fmt.Sprintf("a seq field of at most %d bits", MaxRingBits-c.Boost)
		if hasBoost && int(f.Width) <= MaxRingBits {
			key, fix = "boost", fmt.Sprintf("boost at most %d", MaxRingBits-int(f.Width))
		}
		return errs.Key(key, "the ring of (max seq + 1) << boost ids, 2^%d << %d with seq:%d and boost=%d, is too large: at most 2^%d ids (%d MiB); want %s",
			f.Width, c.Boost, f.Width, c.Boost, MaxRingBits, 8<<MaxRingBits>>20, fix)
	}
	if hasPadding {
		n, err := parseInt("padding", kv["padding"], 99)
		if err != nil {
			return err
		}
		if n < 1 {
			return errs.Key("padding", "want a percentage from 1 to 99, got %q", kv["padding"])
		}
		c.Padding = int(n)
	}
	return nil
}
