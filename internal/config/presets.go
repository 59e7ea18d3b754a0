package config

import (
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

// preset is what a preset= name stands for: its scheme and the defaults
// of its keys.
type preset struct {
	scheme  Scheme
	layout  string
	unit    time.Duration
	epochMs int64
	back    Policy
	random  int64
	cached  bool // baidu-cached: ids from a ring, always borrowing
}

const twitterEpoch = 1288834974657

const snowflakeLayout = "time:41,datacenter:5,worker:5,seq:12"

var presets = map[string]preset{
	"snowflake":    {SchemeTime, snowflakeLayout, time.Millisecond, twitterEpoch, Policy{}, 0, false},
	"hutool":       {SchemeTime, snowflakeLayout, time.Millisecond, twitterEpoch, Policy{{Tolerate, 2 * time.Second}}, 0, false},
	"mybatis-plus": {SchemeTime, snowflakeLayout, time.Millisecond, twitterEpoch, Policy{{Wait, 5 * time.Millisecond}}, 0, false},
	"leaf":         {SchemeTime, "time:41,worker:10,seq:12", time.Millisecond, twitterEpoch, Policy{{Wait, 5 * time.Millisecond}}, 100, false},
	"baidu":        {SchemeTime, "time:28,worker:22,seq:13", time.Second, 1463673600000, Policy{}, 0, false},
	"baidu-cached": {SchemeTime, "time:28,worker:22,seq:13", time.Second, 1463673600000, Policy{}, 0, true},
	"sonyflake":    {SchemeTime, "time:39,seq:8,worker:16", 10 * time.Millisecond, 1409529600000, Policy{}, 0, false},
	"sonyflake-v2": {SchemeTime, "time:39,seq:8,worker:16", 10 * time.Millisecond, 1735689600000, Policy{}, 0, false},
	"js53":         {SchemeTime, "time:41,worker:5,seq:7", time.Millisecond, 1704067200000, Policy{}, 0, false},
	"zk-session":   {SchemeSession, "worker:8,time:40,seq:16", time.Millisecond, 0, Policy{}, 0, false},
	"zxid":         {SchemeZxid, "epoch:32,counter:32", 0, 0, Policy{}, 0, false},
	"rocketmq":     {SchemeRocketMQ, "", time.Millisecond, 0, Policy{}, 0, false},
	"rocketmq-v1":  {SchemeRocketV1, "", time.Second, 1609459200000, Policy{}, 0, false},
	"uuidv7":       {SchemeUUIDv7, "", time.Millisecond, 0, Policy{}, 0, false},
	"ulid":         {SchemeULID, "", time.Millisecond, 0, Policy{}, 0, false},
	"segment":      {SchemeSegment, "", 0, 0, Policy{}, 0, false},
}

// Presets lists the preset names, for documentation and tests.
func Presets() []string {
	return []string{"snowflake", "hutool", "mybatis-plus", "leaf", "baidu", "baidu-cached", "sonyflake", "sonyflake-v2", "js53", "zk-session", "zxid", "rocketmq", "rocketmq-v1", "uuidv7", "ulid", "segment"}
}

// start reads preset=: the scheme, and the defaults the preset gives its
// keys.
func start(given map[string]string) (*draft, error) {
	name, ok := given["preset"]
	if !ok {
		name = "snowflake"
	}
	p, ok := presets[name]
	if !ok {
		return nil, errs.Key("preset", "unknown preset %q (known: %s)", name, strings.Join(Presets(), ", "))
	}
	c := &Spec{Preset: name, Scheme: p.scheme, Unit: p.unit, EpochMs: p.epochMs, OnClockBack: p.back, SeqRandom: p.random, Cached: p.cached}
	if p.scheme.IsText() {
		c.TextKeys = TextKeys{PID: -1, LoaderHash: -1} // auto, random
	}
	return &draft{Spec: c, given: given}, nil
}

// MetricName is the generator's name label in metrics: the name= key;
// else the preset; else "custom" for a layout given without a preset (the
// default preset restated with another layout, unit or epoch).
func (c *Spec) MetricName() string {
	if c.Name != "" {
		return c.Name
	}
	p, ok := presets[c.Preset]
	if !ok {
		return "custom"
	}
	if c.Preset == "snowflake" && !c.Scheme.IsText() {
		l, err := layout.Parse(p.layout)
		if err != nil || l.String() != c.Layout.String() || c.Unit != p.unit || c.EpochMs != p.epochMs {
			return "custom"
		}
	}
	return c.Preset
}
