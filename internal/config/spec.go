package config

import (
	"time"

	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease/stores"
	"github.com/idgen/idgen/internal/lease/storeurl"
	"github.com/idgen/idgen/internal/numbers"
)

// Spec is a parsed configuration string; Parse("") gives the defaults. A
// Spec is a value: Parse fills it and nothing changes it afterwards (a
// generator keeps what it resolves, and the pair it holds, to itself).
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
	Store       *storeurl.StoreURL // the store worker= or store= names (its own package parsed it)
	WallClock   bool               // clock=wall
	OnClockBack Policy
	Borrow      bool          // on_exhausted=borrow
	MaxDrift    time.Duration // how far borrowing may run ahead of the clock
	SeqRandom   int64         // seq_start=random:N (0: start at 0)
	Runs        int           // runs=N: the longest run Next hands out from one reservation (0: none)
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
	Segment     Segment       // preset=segment: step and start
	Numbers     Numbers       // preset=segment: reset=, tz=, format= (business numbers)
	TextKeys    TextKeys      // text presets: ip, mac, pid, loader_hash, tz
	LeaseOff    bool          // lease=off: for decoding only (no lease, no segment, no store; issuing refused)
}

// Segment is what preset=segment takes besides the keys it shares with
// other presets (name, store, padding, max_wait, text, lease_dir,
// lease_table).
type Segment struct {
	Step  int64 // values per segment; with Auto, the first segment's size
	Auto  bool  // step=auto: sized from the consumption rate
	Start int64 // where a new counter begins; changes nothing on one that exists
}

// Numbers is what business numbers add to a segment configuration.
type Numbers struct {
	Reset  numbers.Reset
	TZ     *time.Location    // the zone periods are days, months and years of (UTC by default)
	Format *numbers.Template // format=, nil without one
}

// DefaultLeaseDir is the host lease directory: one fixed path for every
// process of the host, whatever its environment or user.
const DefaultLeaseDir = "/var/tmp/idgen"

// Default lease times: the host directory is renewed locally, the fleet
// stores over a network.
const (
	DefaultHostTTL  = stores.HostTTL
	DefaultFleetTTL = stores.FleetTTL
	DefaultMaxDrift = time.Second
	// The fence runs max_outage ahead of the clock: a store outage that
	// short stops no generator.
	DefaultHostOutage  = stores.HostOutage
	DefaultFleetOutage = stores.FleetOutage
	// MaxDuration bounds max_drift and max_outage, so sums of them never
	// overflow.
	MaxDuration = 24 * time.Hour
	// baidu-cached's defaults are Baidu's CachedUidGenerator's.
	DefaultBoost   = 3
	DefaultPadding = 50
	// MaxRingBits bounds baidu-cached's ring: at most 2^24 ids (128 MiB of
	// 8-byte slots), so seq width + boost is at most 24 (Baidu's default,
	// seq:13 and boost=3, is 2^16).
	MaxRingBits = 24
)

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

// SegmentTable is the SQL stores' counter table.
func (c *Spec) SegmentTable() string {
	if c.LeaseTable == "" {
		return DefaultSegmentTable
	}
	return c.LeaseTable + SegmentTableSuffix
}

// draft is a Spec while Parse reads it: the Spec and the pairs the string
// gave, for keys whose reading depends on what else was given.
type draft struct {
	*Spec
	given map[string]string
}

// has reports whether the string gave key k.
func (d *draft) has(k string) bool {
	_, ok := d.given[k]
	return ok
}
