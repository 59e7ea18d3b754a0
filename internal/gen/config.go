package gen

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
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

// Source says where a worker or datacenter id comes from.
type Source int

const (
	SourceUnset Source = iota // not given: 0, or the lease where one is taken
	SourceValue               // a number
	SourcePID                 // worker=pid: hutool's derivation from datacenter and pid
	SourceMAC                 // datacenter=mac: hutool's derivation from the MAC address
	SourceLease               // worker=lease: a host-local lease
)

// BackMode is what a wall clock that went back does to a generator.
type BackMode int

const (
	BackError    BackMode = iota // refuse with ErrClockBackwards
	BackWait                     // wait for the clock to catch up, up to Limit
	BackTolerate                 // keep issuing on the last tick, up to Limit
)

// ClockBack is the on_clock_back policy.
type ClockBack struct {
	Mode  BackMode
	Limit time.Duration
}

func (c ClockBack) String() string {
	switch c.Mode {
	case BackWait:
		return "wait:" + c.Limit.String()
	case BackTolerate:
		return "tolerate:" + c.Limit.String()
	}
	return "error"
}

// Config is a parsed configuration string. The zero value is not useful;
// use ParseConfig("") for the defaults.
type Config struct {
	Preset      string
	Scheme      Scheme
	Layout      Layout
	Unit        time.Duration // 1ms, 10ms, 1s ...
	EpochMs     int64         // unix milliseconds
	Worker      int64
	WorkerSrc   Source
	DC          int64
	DCSrc       Source
	WallClock   bool // clock=wall
	OnClockBack ClockBack
	Borrow      bool          // on_exhausted=borrow
	MaxDrift    time.Duration // how far borrowing may run ahead of the clock
	SeqRandom   int64         // seq_start=random:N (0: start at 0)
	LeaseDir    string        // "" means the default
	MaxWait     time.Duration // lease: how long to wait for the recorded time
	ZxidEpoch   int64         // zxid: first epoch
}

type preset struct {
	scheme  Scheme
	layout  string
	unit    time.Duration
	epochMs int64
	back    ClockBack
	random  int64
}

const twitterEpoch = 1288834974657

var presets = map[string]preset{
	"snowflake":  {SchemeTime, "time:41,datacenter:5,worker:5,seq:12", time.Millisecond, twitterEpoch, ClockBack{}, 0},
	"hutool":     {SchemeTime, "time:41,datacenter:5,worker:5,seq:12", time.Millisecond, twitterEpoch, ClockBack{BackTolerate, 2 * time.Second}, 0},
	"leaf":       {SchemeTime, "time:41,worker:10,seq:12", time.Millisecond, twitterEpoch, ClockBack{BackWait, 5 * time.Millisecond}, 100},
	"baidu":      {SchemeTime, "time:28,worker:22,seq:13", time.Second, 1463673600000, ClockBack{}, 0},
	"sonyflake":  {SchemeTime, "time:39,seq:8,worker:16", 10 * time.Millisecond, 1409529600000, ClockBack{}, 0},
	"zk-session": {SchemeSession, "worker:8,time:40,seq:16", time.Millisecond, 0, ClockBack{}, 0},
	"zxid":       {SchemeZxid, "epoch:32,counter:32", 0, 0, ClockBack{}, 0},
}

// Presets lists the preset names, for documentation and tests.
func Presets() []string {
	return []string{"snowflake", "hutool", "leaf", "baidu", "sonyflake", "zk-session", "zxid"}
}

var knownKeys = []string{"preset", "layout", "unit", "epoch", "worker", "datacenter", "clock",
	"on_clock_back", "on_exhausted", "max_drift", "seq_start", "lease_dir", "max_wait", "zxid_epoch"}

// DefaultConfig is the configuration of the process-wide default generator
// when $IDGEN_CONFIG is not set.
const DefaultConfig = "preset=snowflake worker=lease"

// splitConfig cuts a config string into key/value pairs. Pairs are separated
// by white space or ';'; a value may be single-quoted ('a b', with \' and \\)
// to hold either.
func splitConfig(s string) ([][2]string, error) {
	var out [][2]string
	i := 0
	isSep := func(c byte) bool {
		return c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
	}
	for {
		for i < len(s) && isSep(s[i]) {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		start := i
		for i < len(s) && !isSep(s[i]) && s[i] != '=' {
			i++
		}
		key := s[start:i]
		if i >= len(s) || s[i] != '=' {
			return nil, configError(key, "expected key=value")
		}
		if key == "" {
			return nil, configError("config", "a value without a key near %q", s[start:min(len(s), start+20)])
		}
		i++ // '='
		var val strings.Builder
		if i < len(s) && s[i] == '\'' {
			i++
			closed := false
			for i < len(s) {
				c := s[i]
				i++
				if c == '\\' && i < len(s) {
					val.WriteByte(s[i])
					i++
					continue
				}
				if c == '\'' {
					closed = true
					break
				}
				val.WriteByte(c)
			}
			if !closed {
				return nil, configError(key, "unterminated quoted value")
			}
			if i < len(s) && !isSep(s[i]) {
				return nil, configError(key, "text after a quoted value")
			}
		} else {
			for i < len(s) && !isSep(s[i]) {
				val.WriteByte(s[i])
				i++
			}
		}
		if val.Len() == 0 {
			return nil, configError(key, "missing value")
		}
		out = append(out, [2]string{key, val.String()})
	}
}

// ParseConfig parses a configuration string; "" means the defaults
// (preset=snowflake, worker 0). Every error wraps ErrInvalid and names the
// key. Worker and datacenter sources (pid, mac, lease) are resolved by Open,
// not here.
func ParseConfig(s string) (*Config, error) {
	pairs, err := splitConfig(s)
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
			return nil, configError(p[0], "unknown key (known: %s)", strings.Join(knownKeys, ", "))
		}
		if _, dup := kv[p[0]]; dup {
			return nil, configError(p[0], "given more than once")
		}
		kv[p[0]] = p[1]
	}

	c := &Config{Preset: "snowflake", MaxWait: 5 * time.Second}
	if v, ok := kv["preset"]; ok {
		if v == "baidu-cached" {
			return nil, configError("preset", "baidu-cached is not available in this version (use baidu with on_exhausted=borrow)")
		}
		if _, ok := presets[v]; !ok {
			return nil, configError("preset", "unknown preset %q (known: %s)", v, strings.Join(Presets(), ", "))
		}
		c.Preset = v
	}
	p := presets[c.Preset]
	c.Scheme, c.Unit, c.EpochMs, c.OnClockBack, c.SeqRandom = p.scheme, p.unit, p.epochMs, p.back, p.random

	layout := p.layout
	if v, ok := kv["layout"]; ok {
		layout = v
	}
	if c.Layout, err = ParseLayout(layout); err != nil {
		return nil, err
	}
	if err := c.checkLayout(); err != nil {
		return nil, err
	}

	timeless := c.Scheme == SchemeZxid
	for _, k := range []string{"unit", "epoch", "clock", "on_clock_back", "on_exhausted", "max_drift", "seq_start", "datacenter"} {
		if _, ok := kv[k]; ok && timeless {
			return nil, configError(k, "preset zxid has no time, sequence or datacenter field")
		}
	}
	if c.Scheme == SchemeSession {
		for _, k := range []string{"on_clock_back", "on_exhausted", "max_drift", "seq_start"} {
			if _, ok := kv[k]; ok {
				return nil, configError(k, "not used by preset %s (its ids count up from the time of opening)", c.Preset)
			}
		}
	}
	if v, ok := kv["unit"]; ok {
		if c.Unit, err = parseUnit(v); err != nil {
			return nil, err
		}
	}
	if v, ok := kv["epoch"]; ok {
		if c.EpochMs, err = parseEpoch(v); err != nil {
			return nil, err
		}
	}
	if v, ok := kv["clock"]; ok {
		switch v {
		case "mono", "monotonic":
		case "wall":
			c.WallClock = true
		default:
			return nil, configError("clock", "want mono or wall, got %q", v)
		}
	}
	if v, ok := kv["on_clock_back"]; ok {
		if c.OnClockBack, err = parseClockBack(v); err != nil {
			return nil, err
		}
	}
	if v, ok := kv["on_exhausted"]; ok {
		switch v {
		case "wait":
		case "borrow":
			c.Borrow = true
		default:
			return nil, configError("on_exhausted", "want wait or borrow, got %q", v)
		}
	}
	if v, ok := kv["max_drift"]; ok {
		if c.MaxDrift, err = parseDuration("max_drift", v); err != nil {
			return nil, err
		}
	}
	if c.Borrow && c.MaxDrift == 0 {
		c.MaxDrift = time.Second
	}
	if v, ok := kv["max_wait"]; ok {
		if c.MaxWait, err = parseDuration("max_wait", v); err != nil {
			return nil, err
		}
	}
	if v, ok := kv["seq_start"]; ok {
		if c.SeqRandom, err = parseSeqStart(v); err != nil {
			return nil, err
		}
	}
	if v, ok := kv["lease_dir"]; ok {
		c.LeaseDir = v
	}
	if v, ok := kv["zxid_epoch"]; ok {
		if c.Scheme != SchemeZxid {
			return nil, configError("zxid_epoch", "only preset zxid has an epoch counter")
		}
		f, _ := c.Layout.Field(FieldEpoch)
		if c.ZxidEpoch, err = parseInt("zxid_epoch", v, f.Max()); err != nil {
			return nil, err
		}
	}
	if v, ok := kv["datacenter"]; ok {
		if c.DCSrc, c.DC, err = c.parseSource("datacenter", v, FieldDatacenter); err != nil {
			return nil, err
		}
	}
	if v, ok := kv["worker"]; ok {
		if c.WorkerSrc, c.Worker, err = c.parseSource("worker", v, FieldWorker); err != nil {
			return nil, err
		}
	}
	if c.WorkerSrc == SourcePID && !c.Layout.Has(FieldWorker) {
		return nil, configError("worker", "pid needs a layout with a worker field")
	}
	return c, nil
}

func (c *Config) checkLayout() error {
	l := &c.Layout
	allowed := map[Scheme][]FieldKind{
		SchemeTime:    {FieldTime, FieldDatacenter, FieldWorker, FieldSeq},
		SchemeSession: {FieldWorker, FieldTime, FieldSeq},
		SchemeZxid:    {FieldEpoch, FieldCounter},
	}[c.Scheme]
	for _, f := range l.Fields {
		ok := false
		for _, k := range allowed {
			ok = ok || k == f.Kind
		}
		if !ok {
			return configError("layout", "preset %s has no %q field", c.Preset, f.Kind)
		}
	}
	switch c.Scheme {
	case SchemeTime:
		if !l.Has(FieldTime) || !l.Has(FieldSeq) {
			return configError("layout", "a time-based layout needs a time and a seq field")
		}
		if !l.Order(FieldTime, FieldSeq) {
			return configError("layout", "time must come before seq so that ids increase")
		}
		if l.Bits() > 63 {
			return configError("layout", "fields add up to %d bits; at most 63 are allowed (bit 63 stays 0)", l.Bits())
		}
	case SchemeSession:
		t, ok1 := l.Field(FieldTime)
		s, ok2 := l.Field(FieldSeq)
		if !ok1 || !ok2 || t.Shift != s.Width || s.Shift != 0 {
			return configError("layout", "preset %s needs time directly above seq at the low end", c.Preset)
		}
		if w, ok := l.Field(FieldWorker); ok && w.Shift != t.Shift+t.Width {
			return configError("layout", "preset %s needs worker above time", c.Preset)
		}
	case SchemeZxid:
		e, ok1 := l.Field(FieldEpoch)
		n, ok2 := l.Field(FieldCounter)
		if !ok1 || !ok2 || n.Shift != 0 || e.Shift != n.Width {
			return configError("layout", "preset zxid needs epoch directly above counter")
		}
	}
	if l.Bits() > 64 {
		return configError("layout", "fields add up to %d bits; at most 64 fit in an id", l.Bits())
	}
	return nil
}

func (c *Config) parseSource(key, v string, kind FieldKind) (Source, int64, error) {
	switch {
	case key == "worker" && v == "pid":
		return SourcePID, 0, nil
	case key == "worker" && v == "lease":
		return SourceLease, 0, nil
	case key == "datacenter" && v == "mac":
		if !c.Layout.Has(FieldDatacenter) {
			return 0, 0, configError(key, "mac needs a layout with a datacenter field")
		}
		return SourceMAC, 0, nil
	case strings.Contains(v, "://"):
		return 0, 0, configError(key, "coordinator sources (%q) are not available in this version", v)
	}
	f, ok := c.Layout.Field(kind)
	max := int64(0)
	if ok {
		max = f.Max()
	}
	n, err := parseInt(key, v, max)
	if err != nil {
		if !ok {
			return 0, 0, configError(key, "the layout has no %s field, so only 0 is allowed, got %q", kind, v)
		}
		return 0, 0, err
	}
	return SourceValue, n, nil
}

func parseInt(key, v string, max int64) (int64, error) {
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 || n > max {
		return 0, configError(key, "want a whole number from 0 to %d, got %q", max, v)
	}
	return n, nil
}

func parseUnit(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < time.Millisecond || d%time.Millisecond != 0 || d > 24*time.Hour {
		return 0, configError("unit", "want a whole number of milliseconds from 1ms to 24h, like 1ms, 10ms or 1s; got %q", v)
	}
	return d, nil
}

// maxEpochMs keeps epoch arithmetic in nanoseconds inside int64 (2262).
const maxEpochMs = math.MaxInt64 / int64(time.Millisecond)

func parseEpoch(v string) (int64, error) {
	if n, err := strconv.ParseInt(v, 10, 64); err == nil {
		if n < 0 || n > maxEpochMs {
			return 0, configError("epoch", "unix milliseconds must be from 0 (1970) to %d (2262), got %q", maxEpochMs, v)
		}
		return n, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return 0, configError("epoch", "want unix milliseconds or an RFC 3339 time like 2016-09-20T00:00:00+08:00, got %q", v)
	}
	ms := t.UnixMilli()
	if ms < 0 || ms > maxEpochMs || t.Nanosecond()%int(time.Millisecond) != 0 {
		return 0, configError("epoch", "%q must be a whole millisecond from 1970 to 2262", v)
	}
	return ms, nil
}

func parseDuration(key, v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, configError(key, "want a duration like 5ms, 2s or 1h, got %q", v)
	}
	return d, nil
}

func parseClockBack(v string) (ClockBack, error) {
	if v == "error" {
		return ClockBack{}, nil
	}
	mode, dur, ok := strings.Cut(v, ":")
	var m BackMode
	switch mode {
	case "wait":
		m = BackWait
	case "tolerate":
		m = BackTolerate
	default:
		ok = false
	}
	if !ok {
		return ClockBack{}, configError("on_clock_back", "want error, wait:<duration> or tolerate:<duration>, got %q", v)
	}
	d, err := parseDuration("on_clock_back", dur)
	if err != nil {
		return ClockBack{}, err
	}
	return ClockBack{m, d}, nil
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
	return 0, configError("seq_start", "want 0 or random:N with N >= 1, got %q", v)
}

// DefaultLeaseDir is $XDG_RUNTIME_DIR/idgen, else /tmp/idgen-<uid>.
func DefaultLeaseDir() string {
	if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
		return filepath.Join(d, "idgen")
	}
	return filepath.Join(os.TempDir(), "idgen-"+strconv.Itoa(os.Getuid()))
}

func quote(v string) string {
	if v != "" && !strings.ContainsAny(v, " \t\n\r\v\f;'\\") {
		return v
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}

func formatUnit(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
}

// String prints the configuration in canonical form; ParseConfig of the
// result gives the same configuration. Unresolved sources print as their
// names (worker=lease); a generator's Config prints them resolved.
func (c *Config) String() string {
	var parts []string
	add := func(k, v string) { parts = append(parts, k+"="+v) }
	add("preset", c.Preset)
	add("layout", c.Layout.String())
	src := func(s Source, v int64) string {
		switch s {
		case SourcePID:
			return "pid"
		case SourceMAC:
			return "mac"
		case SourceLease:
			return "lease"
		}
		return strconv.FormatInt(v, 10)
	}
	if c.Scheme == SchemeZxid {
		add("zxid_epoch", strconv.FormatInt(c.ZxidEpoch, 10))
		if c.WorkerSrc == SourceLease {
			add("worker", "lease")
		}
	} else {
		add("unit", formatUnit(c.Unit))
		add("epoch", strconv.FormatInt(c.EpochMs, 10))
		if c.Layout.Has(FieldDatacenter) {
			add("datacenter", src(c.DCSrc, c.DC))
		}
		if c.Layout.Has(FieldWorker) || c.WorkerSrc == SourceLease {
			add("worker", src(c.WorkerSrc, c.Worker))
		}
		if c.WallClock {
			add("clock", "wall")
		} else {
			add("clock", "mono")
		}
		if c.Scheme == SchemeTime {
			add("on_clock_back", c.OnClockBack.String())
			if c.Borrow {
				add("on_exhausted", "borrow")
				add("max_drift", c.MaxDrift.String())
			} else {
				add("on_exhausted", "wait")
			}
			if c.SeqRandom > 0 {
				add("seq_start", "random:"+strconv.FormatInt(c.SeqRandom, 10))
			} else {
				add("seq_start", "0")
			}
		}
	}
	if c.WorkerSrc == SourceLease {
		if c.LeaseDir != "" {
			add("lease_dir", quote(c.LeaseDir))
		}
		add("max_wait", c.MaxWait.String())
	}
	return strings.Join(parts, " ")
}

// unitTicks converts a duration to whole ticks of the unit, rounding up.
func ceilTicks(d, unit time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d + unit - 1) / unit)
}
