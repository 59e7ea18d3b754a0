// Package config parses idgen's configuration string into a typed Spec:
// the preset, the bit layout, the time unit and epoch, where the worker and
// datacenter ids come from, and the clock and lease policies. It knows no
// generator; every error wraps errs.ErrInvalid and names the key.
package config

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

// Scheme is the kind of generator a layout is driven by.
type Scheme int

const (
	// SchemeTime is the Snowflake family: time, optional datacenter and
	// worker, sequence.
	SchemeTime Scheme = iota
	// SchemeSession is ZooKeeper's session id: worker, then a counter that
	// starts at the time of opening and carries from seq into time.
	SchemeSession
	// SchemeZxid is ZooKeeper's transaction id: epoch and counter.
	SchemeZxid
)

func (s Scheme) String() string { return [...]string{"time", "session", "zxid"}[s] }

// Source says where a worker or datacenter id comes from.
type Source int

const (
	SourceUnset Source = iota // datacenter not given: leased with the worker, or 0
	SourceValue               // a number, trusted as given
	SourcePID                 // worker=pid: the preset's derivation from datacenter and pid
	SourceMAC                 // datacenter=mac: the preset's derivation from a MAC address
	SourceLease               // worker=lease: the host lease directory
	SourceZK                  // worker=zk://...: a ZooKeeper ensemble
	SourcePG                  // worker=postgres://...: a PostgreSQL table
)

// Leasing reports whether the source takes a lease.
func (s Source) Leasing() bool { return s == SourceLease || s == SourceZK || s == SourcePG }

// Spec is a parsed configuration string. Parse("") gives the defaults.
type Spec struct {
	Preset      string
	Scheme      Scheme
	Layout      layout.Layout
	Unit        time.Duration // 1ms, 10ms, 1s ...
	EpochMs     int64         // unix milliseconds
	Worker      int64
	WorkerSrc   Source
	DC          int64
	DCSrc       Source
	Store       *StoreURL // the coordinator of SourceZK and SourcePG
	WallClock   bool      // clock=wall
	OnClockBack Policy
	Borrow      bool          // on_exhausted=borrow
	MaxDrift    time.Duration // how far borrowing may run ahead of the clock
	SeqRandom   int64         // seq_start=random:N (0: start at 0)
	LeaseDir    string        // "" means DefaultLeaseDir
	LeaseTTL    time.Duration // how long a lease outlives its last renewal
	LeaseTable  string        // PostgreSQL table
	MaxWait     time.Duration // how long a taker waits for its predecessor's record
	ZxidEpoch   int64         // zxid: first epoch
	// Leased is the pair a generator holds, shown by its configuration
	// string; Parse accepts it and opening ignores it.
	Leased string
}

// DefaultLeaseDir is the host lease directory: one fixed path for every
// process of the host, whatever its environment or user.
const DefaultLeaseDir = "/var/tmp/idgen"

// Default lease times: the host directory is renewed locally, the fleet
// stores over a network.
const (
	DefaultHostTTL  = time.Second
	DefaultFleetTTL = 10 * time.Second
	DefaultMaxDrift = time.Second
)

type preset struct {
	scheme  Scheme
	layout  string
	unit    time.Duration
	epochMs int64
	back    Policy
	random  int64
}

const twitterEpoch = 1288834974657

const snowflakeLayout = "time:41,datacenter:5,worker:5,seq:12"

var presets = map[string]preset{
	"snowflake":    {SchemeTime, snowflakeLayout, time.Millisecond, twitterEpoch, Policy{}, 0},
	"hutool":       {SchemeTime, snowflakeLayout, time.Millisecond, twitterEpoch, Policy{{Tolerate, 2 * time.Second}}, 0},
	"mybatis-plus": {SchemeTime, snowflakeLayout, time.Millisecond, twitterEpoch, Policy{{Wait, 5 * time.Millisecond}}, 0},
	"leaf":         {SchemeTime, "time:41,worker:10,seq:12", time.Millisecond, twitterEpoch, Policy{{Wait, 5 * time.Millisecond}}, 100},
	"baidu":        {SchemeTime, "time:28,worker:22,seq:13", time.Second, 1463673600000, Policy{}, 0},
	"sonyflake":    {SchemeTime, "time:39,seq:8,worker:16", 10 * time.Millisecond, 1409529600000, Policy{}, 0},
	"sonyflake-v2": {SchemeTime, "time:39,seq:8,worker:16", 10 * time.Millisecond, 1735689600000, Policy{}, 0},
	"js53":         {SchemeTime, "time:41,worker:5,seq:7", time.Millisecond, 1704067200000, Policy{}, 0},
	"zk-session":   {SchemeSession, "worker:8,time:40,seq:16", time.Millisecond, 0, Policy{}, 0},
	"zxid":         {SchemeZxid, "epoch:32,counter:32", 0, 0, Policy{}, 0},
}

// Presets lists the preset names, for documentation and tests.
func Presets() []string {
	return []string{"snowflake", "hutool", "mybatis-plus", "leaf", "baidu", "sonyflake", "sonyflake-v2", "js53", "zk-session", "zxid"}
}

var knownKeys = []string{"preset", "layout", "unit", "epoch", "worker", "datacenter", "clock",
	"on_clock_back", "on_exhausted", "max_drift", "seq_start", "lease_dir", "lease_ttl", "lease_table",
	"max_wait", "zxid_epoch", "leased"}

// Parse parses a configuration string; "" means the defaults
// (preset=snowflake, worker=lease). Every error wraps errs.ErrInvalid and
// names the key. Worker and datacenter sources (pid, mac, leases) are
// resolved when a generator opens, not here.
func Parse(s string) (*Spec, error) {
	pairs, err := split(s)
	if err != nil {
		return nil, err
	}
	kv := map[string]string{}
	for _, p := range pairs {
		known := false
		for _, k := range knownKeys {
			known = known || k == p[0]
		}
		if !known {
			return nil, errs.Key(p[0], "unknown key (known: %s)", strings.Join(knownKeys, ", "))
		}
		if _, dup := kv[p[0]]; dup {
			return nil, errs.Key(p[0], "given more than once")
		}
		kv[p[0]] = p[1]
	}

	c := &Spec{Preset: "snowflake"}
	if v, ok := kv["preset"]; ok {
		if v == "baidu-cached" {
			return nil, errs.Key("preset", "baidu-cached is not available in this version (use baidu with on_exhausted=borrow)")
		}
		if _, ok := presets[v]; !ok {
			return nil, errs.Key("preset", "unknown preset %q (known: %s)", v, strings.Join(Presets(), ", "))
		}
		c.Preset = v
	}
	p := presets[c.Preset]
	c.Scheme, c.Unit, c.EpochMs, c.OnClockBack, c.SeqRandom = p.scheme, p.unit, p.epochMs, p.back, p.random

	lay := p.layout
	if v, ok := kv["layout"]; ok {
		lay = v
	}
	if c.Layout, err = layout.Parse(lay); err != nil {
		return nil, err
	}
	if err := c.checkLayout(); err != nil {
		return nil, err
	}
	if err := c.parseKeys(kv); err != nil {
		return nil, err
	}
	if err := c.checkApplies(kv); err != nil {
		return nil, err
	}
	return c, nil
}

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
	if v, ok := kv["max_drift"]; ok {
		if c.MaxDrift, err = parseDuration("max_drift", v); err != nil {
			return err
		}
		if c.MaxDrift < c.Unit {
			return errs.Key("max_drift", "%s is less than one %s tick, so nothing could be borrowed", v, FormatUnit(c.Unit))
		}
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
	if c.Preset == "mybatis-plus" && (c.WorkerSrc == SourcePID || c.DCSrc == SourceMAC) {
		return errs.Key("worker", "preset mybatis-plus's own pid/mac derivation is not available in this version (preset=hutool derives hutool's)")
	}
	if c.WorkerSrc == SourcePID && !c.Layout.Has(layout.FieldWorker) {
		return errs.Key("worker", "pid needs a layout with a worker field")
	}
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
	case SourceZK, SourcePG:
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
	c.MaxWait = c.LeaseTTL + c.MaxDrift + time.Second
	if v, ok := kv["max_wait"]; ok {
		if c.MaxWait, err = parseDuration("max_wait", v); err != nil {
			return err
		}
	}
	if v, ok := kv["leased"]; ok {
		if _, _, ok := ParseLeased(v); !ok {
			return errs.Key("leased", "want datacenter/worker as a generator's configuration string shows it, got %q", v)
		}
		c.Leased = v
	}
	return nil
}

// checkApplies refuses keys that would configure nothing.
func (c *Spec) checkApplies(kv map[string]string) error {
	leasing := c.WorkerSrc.Leasing()
	for _, k := range []string{"max_wait", "lease_ttl"} {
		if _, ok := kv[k]; ok && !leasing {
			return errs.Key(k, "applies only with a lease source (worker=lease, zk://… or postgres://…), not worker=%s", kv["worker"])
		}
	}
	if _, ok := kv["lease_dir"]; ok && c.WorkerSrc != SourceLease {
		return errs.Key("lease_dir", "applies only with worker=lease")
	}
	if _, ok := kv["lease_table"]; ok && c.WorkerSrc != SourcePG {
		return errs.Key("lease_table", "applies only with worker=postgres://…")
	}
	if _, ok := kv["max_drift"]; ok && !c.Borrow {
		return errs.Key("max_drift", "applies only with on_exhausted=borrow")
	}
	if _, ok := kv["on_clock_back"]; ok && !c.WallClock && !leasing {
		return errs.Key("on_clock_back", "no clock can go back here: clock=mono never steps back and there is no lease whose record could be ahead (use clock=wall, or a lease source)")
	}
	if c.OnClockBack.Has(Switch) && !leasing {
		return errs.Key("on_clock_back", "switch needs a lease source to take another pair from")
	}
	if _, ok := kv["leased"]; ok && !leasing {
		return errs.Key("leased", "shows a leased pair; this configuration takes no lease")
	}
	return nil
}

func (c *Spec) checkLayout() error {
	l := &c.Layout
	allowed := map[Scheme][]layout.FieldKind{
		SchemeTime:    {layout.FieldTime, layout.FieldDatacenter, layout.FieldWorker, layout.FieldSeq},
		SchemeSession: {layout.FieldWorker, layout.FieldTime, layout.FieldSeq},
		SchemeZxid:    {layout.FieldEpoch, layout.FieldCounter},
	}[c.Scheme]
	for _, f := range l.Fields {
		ok := false
		for _, k := range allowed {
			ok = ok || k == f.Kind
		}
		if f.Kind == layout.FieldBackwards && c.Scheme == SchemeTime {
			return errs.Key("layout", "the backwards field is not available in this version")
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
	case key == "worker" && strings.Contains(v, "://"):
		u, err := ParseStoreURL(v)
		if err != nil {
			return 0, 0, err
		}
		c.Store = u
		if u.Kind == StoreZK {
			return SourceZK, 0, nil
		}
		return SourcePG, 0, nil
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

// ParseLeased reads the leased=D/W form.
func ParseLeased(v string) (dc, worker int64, ok bool) {
	a, b, found := strings.Cut(v, "/")
	if !found {
		return 0, 0, false
	}
	d, err1 := strconv.ParseInt(a, 10, 64)
	w, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || d < 0 || w < 0 {
		return 0, 0, false
	}
	return d, w, true
}

func parseInt(key, v string, limit int64) (int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > limit {
		return 0, errs.Key(key, "want a whole number from 0 to %d, got %q", limit, v)
	}
	return n, nil
}

func parseUnit(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < time.Millisecond || d%time.Millisecond != 0 || d > 24*time.Hour {
		return 0, errs.Key("unit", "want a whole number of milliseconds from 1ms to 24h, like 1ms, 10ms or 1s; got %q", v)
	}
	return d, nil
}

// maxEpochMs keeps epoch arithmetic in nanoseconds inside int64 (2262).
const maxEpochMs = math.MaxInt64 / int64(time.Millisecond)

func parseEpoch(v string) (int64, error) {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 || n > maxEpochMs {
			return 0, errs.Key("epoch", "unix milliseconds must be from 0 (1970) to %d (2262), got %q", maxEpochMs, v)
		}
		return n, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return 0, errs.Key("epoch", "want unix milliseconds or an RFC 3339 time like 2016-09-20T00:00:00+08:00, got %q", v)
	}
	ms := t.UnixMilli()
	if ms < 0 || ms > maxEpochMs || t.Nanosecond()%int(time.Millisecond) != 0 {
		return 0, errs.Key("epoch", "%q must be a whole millisecond from 1970 to 2262", v)
	}
	return ms, nil
}

func parseDuration(key, v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, errs.Key(key, "want a duration like 5ms, 2s or 1h, got %q", v)
	}
	return d, nil
}

func parseSeqStart(v string) (int64, error) {
	if v == "0" {
		return 0, nil
	}
	if n, ok := strings.CutPrefix(v, "random:"); ok {
		r, err := strconv.ParseInt(n, 10, 64)
		if err == nil && r >= 1 {
			return r, nil
		}
	}
	return 0, errs.Key("seq_start", "want 0 or random:N with N >= 1, got %q", v)
}

// FormatUnit prints a unit the way Parse reads it: "1ms", "10ms", "1s".
func FormatUnit(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
}

// CeilTicks converts a duration to whole ticks of the unit, rounding up.
func CeilTicks(d, unit time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d + unit - 1) / unit)
}
