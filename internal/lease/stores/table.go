package stores

import (
	"context"
	"os"
	"time"

	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
	"github.com/idgen/idgen/internal/lease/storeurl"
	"github.com/idgen/idgen/internal/segment"
)

// Options is what every opener of the table takes; each store reads the
// fields it needs.
type Options struct {
	URL          *storeurl.StoreURL // the store's URL (nil: the host directory)
	Dir          string             // the host directory
	Explicit     bool               // the host directory was given (lease_dir=), not the default
	Table        string             // SQL stores: lease_table ("" the store's default)
	SegmentTable string             // SQL stores: the counter table
	TTL          time.Duration      // lease_ttl
	Horizon      time.Duration      // how long a lost fence may matter (Forever: a counter layout)
	Timeout      time.Duration      // bounds connecting, for counters
}

// Props is what sets a store apart, for the configuration's defaults and
// checks.
type Props struct {
	DefaultTTL    time.Duration // lease_ttl without one
	DefaultOutage time.Duration // max_outage's floor without one
	MinTTL        time.Duration // the shortest lease_ttl it takes (0: the key's own bound)
	MinTTLWhy     string        // what needs MinTTL ("a ZooKeeper session")
	Tables        bool          // keeps SQL tables: lease_table= applies
	Clock         bool          // has a clock idgen reads (max_skew=)
	NoClock       string        // without one: why, %s the stores that have one
	MayLoseData   bool          // may lose acknowledged writes by configuration (DESIGN's table)
}

// Row is one store: its schemes, its URL parser, its openers and its
// properties. Lister and CounterReader are the read-only openers of
// idgen leases; nil means the plain opener creates nothing either.
type Row struct {
	Kind          storeurl.Kind
	Name          string
	Schemes       []string // the URL schemes it reads, as messages name them
	Aliases       []string // schemes it reads too, unnamed in messages
	Parse         func(raw string) (*storeurl.StoreURL, error)
	Leases        func(Options) (lease.Store, error)
	Counters      func(Options) (segment.Store, error)
	Lister        func(Options) (lease.Store, error)
	CounterReader func(Options) (CounterReader, error)
	// PeerCounters opens a segment store in a peer's table (the URL's
	// format=, e.g. Leaf's leaf_alloc): for taking and, as opening it
	// writes nothing, for reading. nil: the store has no such tables.
	PeerCounters func(Options) (segment.Store, error)
	Props
}

// CounterReader reads a segment counter without moving it (idgen leases).
type CounterReader interface {
	Where() string
	Read(ctx context.Context, name string) (last int64, found bool, err error)
	Close() error
}

// listDir opens the host directory for listing, the default one only
// when it exists.
func listDir(o Options) (lease.Store, error) {
	if missingDefault(o) {
		return nil, nil
	}
	return leases(dirstore.Open(o.Dir, true))
}

func readDir(o Options) (CounterReader, error) {
	if missingDefault(o) {
		return nil, nil
	}
	return readers(dirstore.OpenCounters(o.Dir, true))
}

func missingDefault(o Options) bool {
	if o.Explicit {
		return false
	}
	_, err := os.Stat(o.Dir)
	return os.IsNotExist(err)
}

// with is p changed by f: a row's properties from the shared ones.
func with(p Props, f func(*Props)) Props {
	f(&p)
	return p
}

// leases, counters and readers make an opener's result an interface
// value that is nil when the opener failed.
func leases[S lease.Store](s S, err error) (lease.Store, error) {
	if err != nil {
		return nil, err
	}
	return s, nil
}

func counters[S segment.Store](s S, err error) (segment.Store, error) {
	if err != nil {
		return nil, err
	}
	return s, nil
}

func readers[S CounterReader](s S, err error) (CounterReader, error) {
	if err != nil {
		return nil, err
	}
	return s, nil
}
