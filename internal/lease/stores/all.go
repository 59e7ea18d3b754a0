// Package stores is the table of stores: one row per store package, which
// maps its URL schemes to how it parses its URL, opens a lease pool,
// segment counters and their read-only views, and what sets it apart
// (default lease times, a clock, SQL tables, losing data). The only
// package that imports every store; adding a store is its package plus
// one row here (docs/ARCHITECTURE.md, "Adding a store").
package stores

import (
	"time"

	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
	"github.com/idgen/idgen/internal/lease/etcdstore"
	"github.com/idgen/idgen/internal/lease/mysqlstore"
	"github.com/idgen/idgen/internal/lease/pgstore"
	"github.com/idgen/idgen/internal/lease/redisstore"
	"github.com/idgen/idgen/internal/lease/zkstore"
	"github.com/idgen/idgen/internal/segment"
)

// The lease times of a store reached over a network, and of the host
// directory, renewed locally.
const (
	FleetTTL    = 10 * time.Second
	FleetOutage = 60 * time.Second
	HostTTL     = time.Second
	HostOutage  = time.Second
)

// fleet are the properties the network stores share.
var fleet = Props{DefaultTTL: FleetTTL, DefaultOutage: FleetOutage, Clock: true}

// rows are the stores, in the order messages list them. The host
// directory comes first and has no schemes (worker=lease, lease_dir=).
var rows = []Row{
	{
		Kind: dirstore.Kind, Name: "the host lease directory",
		Props: Props{DefaultTTL: HostTTL, DefaultOutage: HostOutage,
			NoClock: "the host lease directory has no clock of its own to compare with (use a store with one: %s)"},
		Leases:        func(o Options) (lease.Store, error) { return leases(dirstore.Open(o.Dir, o.Explicit)) },
		Counters:      func(o Options) (segment.Store, error) { return counters(dirstore.OpenCounters(o.Dir, o.Explicit)) },
		Lister:        listDir,
		CounterReader: readDir,
	},
	{
		Kind: zkstore.Kind, Name: "ZooKeeper", Schemes: zkstore.Schemes, Parse: zkstore.ParseURL,
		Props:    with(fleet, func(p *Props) { p.MinTTL, p.MinTTLWhy = time.Second, "a ZooKeeper session" }),
		Leases:   func(o Options) (lease.Store, error) { return leases(zkstore.Open(o.URL, o.TTL)) },
		Counters: func(o Options) (segment.Store, error) { return counters(zkstore.OpenCounters(o.URL, o.Timeout)) },
	},
	{
		Kind: pgstore.Kind, Name: "PostgreSQL", Schemes: pgstore.Schemes, Aliases: pgstore.Aliases, Parse: pgstore.ParseURL,
		Props:  with(fleet, func(p *Props) { p.Tables = true }),
		Leases: func(o Options) (lease.Store, error) { return leases(pgstore.Open(o.URL, o.Table, o.TTL)) },
		Counters: func(o Options) (segment.Store, error) {
			return counters(pgstore.OpenCounters(o.URL, o.SegmentTable, o.Timeout))
		},
		Lister: func(o Options) (lease.Store, error) { return leases(pgstore.OpenReadOnly(o.URL, o.Table, o.TTL)) },
		CounterReader: func(o Options) (CounterReader, error) {
			return readers(pgstore.OpenCountersReadOnly(o.URL, o.SegmentTable, o.Timeout))
		},
		PeerCounters: func(o Options) (segment.Store, error) { return counters(pgstore.OpenPeerCounters(o.URL, o.Timeout)) },
	},
	{
		Kind: mysqlstore.Kind, Name: "MySQL", Schemes: mysqlstore.Schemes, Parse: mysqlstore.ParseURL,
		Props:  with(fleet, func(p *Props) { p.Tables = true }),
		Leases: func(o Options) (lease.Store, error) { return leases(mysqlstore.Open(o.URL, o.Table, o.TTL)) },
		Counters: func(o Options) (segment.Store, error) {
			return counters(mysqlstore.OpenCounters(o.URL, o.SegmentTable, o.Timeout))
		},
		Lister: func(o Options) (lease.Store, error) { return leases(mysqlstore.OpenReadOnly(o.URL, o.Table, o.TTL)) },
		CounterReader: func(o Options) (CounterReader, error) {
			return readers(mysqlstore.OpenCountersReadOnly(o.URL, o.SegmentTable, o.Timeout))
		},
		PeerCounters: func(o Options) (segment.Store, error) { return counters(mysqlstore.OpenPeerCounters(o.URL, o.Timeout)) },
	},
	{
		Kind: redisstore.Kind, Name: "Redis", Schemes: redisstore.Schemes, Parse: redisstore.ParseURL,
		Props:    with(fleet, func(p *Props) { p.MayLoseData = true }),
		Leases:   func(o Options) (lease.Store, error) { return leases(redisstore.OpenLeases(o.URL, o.TTL, o.Horizon)) },
		Counters: func(o Options) (segment.Store, error) { return counters(redisstore.OpenCounters(o.URL, o.Timeout)) },
	},
	{
		Kind: etcdstore.Kind, Name: "etcd", Schemes: etcdstore.Schemes, Parse: etcdstore.ParseURL,
		Props: with(fleet, func(p *Props) {
			p.Clock, p.NoClock = false, "etcd has no clock idgen can read (use %s)"
		}),
		Leases:   func(o Options) (lease.Store, error) { return leases(etcdstore.Open(o.URL, o.TTL)) },
		Counters: func(o Options) (segment.Store, error) { return counters(etcdstore.OpenCounters(o.URL, o.Timeout)) },
	},
}

// Forever is the horizon of a counter layout (zxid): a lost record of it
// matters for good.
const Forever = redisstore.Forever
