package stores

// Finding a row: by kind, by a URL's scheme, by what opens; and the
// lists of schemes messages name.

import (
	"slices"
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/dirstore"
	"github.com/idgen/idgen/internal/lease/storeurl"
	"github.com/idgen/idgen/internal/segment"
)

// Lookup is the row of a store kind.
func Lookup(kind storeurl.Kind) (Row, bool) {
	for _, r := range rows {
		if r.Kind == kind {
			return r, true
		}
	}
	return Row{}, false
}

// HostDir is the host directory's row.
func HostDir() Row {
	r, _ := Lookup(dirstore.Kind)
	return r
}

// Parse reads a store URL (worker=, store=) with the parser of the store
// its scheme names. A malformed or unknown one is errs.ErrInvalid naming
// worker; the message never holds the password.
func Parse(raw string) (*storeurl.StoreURL, error) {
	scheme, _, _ := strings.Cut(raw, "://")
	for _, r := range rows {
		for _, s := range slices.Concat(r.Schemes, r.Aliases) {
			if s == scheme {
				return r.Parse(raw)
			}
		}
	}
	return nil, errs.Key("worker", "unknown coordinator %q (want %s)", scheme+"://", Names(nil, true, "://"))
}

// Names lists the URL stores whose properties keep accepts (nil: all):
// the first scheme of each (all: every scheme), each followed by suffix,
// as "a://, b:// or c://".
func Names(keep func(Props) bool, all bool, suffix string) string {
	var out []string
	for _, r := range rows {
		if len(r.Schemes) == 0 || keep != nil && !keep(r.Props) {
			continue
		}
		n := r.Schemes[:1]
		if all {
			n = r.Schemes
		}
		for _, s := range n {
			out = append(out, s+suffix)
		}
	}
	if len(out) < 2 {
		return strings.Join(out, "")
	}
	return strings.Join(out[:len(out)-1], ", ") + " or " + out[len(out)-1]
}

// row is the row o opens: its URL's store, or the host directory.
func row(o Options) Row {
	if o.URL == nil {
		return HostDir()
	}
	r, _ := Lookup(o.URL.Kind)
	return r
}

// OpenLeases opens a lease pool's store.
func OpenLeases(o Options) (lease.Store, error) { return row(o).Leases(o) }

// OpenCounters opens a segment counter store: in a peer's table when the
// URL has a format= (only stores with PeerCounters parse one).
func OpenCounters(o Options) (segment.Store, error) {
	r := row(o)
	if peer(o, r) {
		return r.PeerCounters(o)
	}
	return r.Counters(o)
}

// peer says whether o names a peer's table that r can open.
func peer(o Options, r Row) bool {
	return o.URL != nil && o.URL.Format != "" && r.PeerCounters != nil
}

// OpenLister opens a lease store that creates nothing, for listing a pool
// (nil: the default host directory does not exist, so no pool is in it).
func OpenLister(o Options) (lease.Store, error) {
	if r := row(o); r.Lister != nil {
		return r.Lister(o)
	}
	return OpenLeases(o)
}

// OpenCounterReader opens a counter store that creates nothing (nil: the
// default host directory does not exist, so no counter is in it).
func OpenCounterReader(o Options) (CounterReader, error) {
	if r := row(o); peer(o, r) {
		return readers(r.PeerCounters(o))
	} else if r.CounterReader != nil {
		return r.CounterReader(o)
	}
	return readers(OpenCounters(o))
}
