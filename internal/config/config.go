// Package config parses idgen's configuration string into a typed Spec:
// the preset, the bit layout, the time unit and epoch, where the worker and
// datacenter ids come from, and the clock and lease policies. It knows no
// generator; every error wraps errs.ErrInvalid and names the key.
package config

import (
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
	// SchemeRocketMQ is RocketMQ's UNIQ_KEY text id (MessageClientIDSetter).
	SchemeRocketMQ
	// SchemeRocketV1 is rocketmq-clients 5.x's V1 text id (MessageIdCodec).
	SchemeRocketV1
	// SchemeUUIDv7 is RFC 9562's version-7 UUID, as canonical text.
	SchemeUUIDv7
	// SchemeULID is a ULID, as Crockford base32 text.
	SchemeULID
	// SchemeSegment is a dense counter from a store (segment.go).
	SchemeSegment
)

func (s Scheme) String() string {
	return [...]string{"time", "session", "zxid", "rocketmq", "rocketmq-v1", "uuidv7", "ulid", "segment"}[s]
}

// Source says where a worker or datacenter id comes from.
type Source int

const (
	SourceUnset   Source = iota // datacenter not given: leased with the worker, or 0
	SourceValue                 // a number, trusted as given
	SourcePID                   // worker=pid: the preset's derivation from datacenter and pid
	SourceMAC                   // datacenter=mac: the preset's derivation from a MAC address
	SourceLease                 // worker=lease: the host lease directory
	SourceZK                    // worker=zk://...: a ZooKeeper ensemble
	SourcePG                    // worker=postgres://...: a PostgreSQL table
	SourceMySQL                 // worker=mysql://... or mariadb://...: a MySQL/MariaDB table
	SourceRedis                 // worker=redis://... or rediss://...: Redis keys
	SourceEtcd                  // worker=etcd://... or etcds://...: etcd keys through its JSON gateway
	SourceOrdinal               // worker=ordinal: the host name's trailing -N, or $IDGEN_ORDINAL
)

// Leasing reports whether the source takes a lease.
func (s Source) Leasing() bool { return s == SourceLease || s.Fleet() }

// Fleet reports whether the source is a coordinator shared by many hosts.
func (s Source) Fleet() bool {
	switch s {
	case SourceZK, SourcePG, SourceMySQL, SourceRedis, SourceEtcd:
		return true
	}
	return false
}

// Spec is a parsed configuration string. Parse("") gives the defaults.
type Spec struct {
	Preset      string
	Name        string // name=: the generator's label in metrics (a segment's counter)
	Scheme      Scheme
	Layout      layout.Layout
	Unit        time.Duration // 1ms, 10ms, 1s ...
	EpochMs     int64         // unix milliseconds
	Worker      int64
	WorkerSrc   Source
	DC          int64
	DCSrc       Source
	Store       *StoreURL // the coordinator of a Fleet source
	WallClock   bool      // clock=wall
	OnClockBack Policy
	Borrow      bool          // on_exhausted=borrow
	MaxDrift    time.Duration // how far borrowing may run ahead of the clock
	SeqRandom   int64         // seq_start=random:N (0: start at 0)
	LeaseDir    string        // "" means DefaultLeaseDir
	LeaseTTL    time.Duration // how long the store keeps the pair of a silent holder
	MaxOutage   time.Duration // how far ahead the fence runs: how long a holder issues without its store
	LeaseTable  string        // PostgreSQL table
	MaxWait     time.Duration // how long a taker waits for its predecessor's record
	MaxSkew     time.Duration // max_skew: refuse to open when this host's clock and the store's are further apart; 0: only report
	ZxidEpoch   int64         // zxid: first epoch
	Cached      bool          // baidu-cached: ids handed out from a ring buffer
	Boost       int           // baidu-cached: the ring holds (max seq + 1) << Boost ids
	Padding     int           // baidu-cached: refill when fewer than Padding percent are left
	Text        TextForm      // numeric presets: the text= form of idgen_next_text
	Segment     Segment       // preset=segment: step and start (segment.go)
	TextKeys    TextKeys      // text presets: ip, mac, pid, loader_hash, tz
	// Leased is the pair a generator holds, shown by its configuration
	// string; Parse accepts it and opening ignores it.
	Leased string
	// Switched is the pair a generator gave up because its record was
	// too far ahead (on_clock_back=switch); shown, accepted and ignored.
	Switched string
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
	// The fence runs max_outage ahead of the clock: a store outage that
	// short stops no generator.
	DefaultHostOutage  = time.Second
	DefaultFleetOutage = 60 * time.Second
	// MaxDuration bounds max_drift and max_outage, so sums of them never
	// overflow.
	MaxDuration = 24 * time.Hour
	// baidu-cached's defaults are Baidu's CachedUidGenerator's.
	DefaultBoost   = 3
	DefaultPadding = 50
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
	"baidu-cached": {SchemeTime, "time:28,worker:22,seq:13", time.Second, 1463673600000, Policy{}, 0},
	"sonyflake":    {SchemeTime, "time:39,seq:8,worker:16", 10 * time.Millisecond, 1409529600000, Policy{}, 0},
	"sonyflake-v2": {SchemeTime, "time:39,seq:8,worker:16", 10 * time.Millisecond, 1735689600000, Policy{}, 0},
	"js53":         {SchemeTime, "time:41,worker:5,seq:7", time.Millisecond, 1704067200000, Policy{}, 0},
	"zk-session":   {SchemeSession, "worker:8,time:40,seq:16", time.Millisecond, 0, Policy{}, 0},
	"zxid":         {SchemeZxid, "epoch:32,counter:32", 0, 0, Policy{}, 0},
	"rocketmq":     {SchemeRocketMQ, "", time.Millisecond, 0, Policy{}, 0},
	"rocketmq-v1":  {SchemeRocketV1, "", time.Second, 1609459200000, Policy{}, 0},
	"uuidv7":       {SchemeUUIDv7, "", time.Millisecond, 0, Policy{}, 0},
	"ulid":         {SchemeULID, "", time.Millisecond, 0, Policy{}, 0},
	"segment":      {SchemeSegment, "", 0, 0, Policy{}, 0},
}

// Presets lists the preset names, for documentation and tests.
func Presets() []string {
	return []string{"snowflake", "hutool", "mybatis-plus", "leaf", "baidu", "baidu-cached", "sonyflake", "sonyflake-v2", "js53", "zk-session", "zxid", "rocketmq", "rocketmq-v1", "uuidv7", "ulid", "segment"}
}

var knownKeys = []string{"preset", "layout", "unit", "epoch", "worker", "datacenter", "clock",
	"on_clock_back", "on_exhausted", "max_drift", "seq_start", "lease_dir", "lease_ttl", "lease_table",
	"max_wait", "max_outage", "zxid_epoch", "leased", "text", "ip", "mac", "pid", "loader_hash", "tz", "boost", "padding", "switched", "name", "store", "step", "start", "max_skew"}

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
		if _, ok := presets[v]; !ok {
			return nil, errs.Key("preset", "unknown preset %q (known: %s)", v, strings.Join(Presets(), ", "))
		}
		c.Preset = v
	}
	p := presets[c.Preset]
	c.Scheme, c.Unit, c.EpochMs, c.OnClockBack, c.SeqRandom = p.scheme, p.unit, p.epochMs, p.back, p.random
	if v, ok := kv["name"]; ok {
		if err := checkName(v); err != nil {
			return nil, err
		}
		c.Name = v
	}
	if c.Scheme == SchemeSegment {
		if err := c.parseSegment(kv); err != nil {
			return nil, err
		}
		return c, nil
	}
	if c.Scheme.IsText() {
		if err := c.parseTextPreset(kv); err != nil {
			return nil, err
		}
		return c, nil
	}
	for _, k := range []string{"ip", "mac", "pid", "loader_hash", "tz"} {
		if _, ok := kv[k]; ok {
			return nil, errs.Key(k, "applies only to the text presets (rocketmq: ip, pid, loader_hash, tz; rocketmq-v1: mac, pid), not preset %s", c.Preset)
		}
	}
	if v, ok := kv["text"]; ok {
		if c.Text, err = parseTextForm(v); err != nil {
			return nil, err
		}
	}

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
	if err := c.parseMaxSkew(kv); err != nil {
		return nil, err
	}
	return c, nil
}
