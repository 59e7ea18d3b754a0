package config

// worker= and store= URLs: each store package reads and redacts its own,
// through the table of stores (internal/lease/stores), which config asks
// for a store's properties too. Only what is not a store's is here.

import (
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/stores"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// StoreURL is a store's address as worker= or store= gives it.
type StoreURL = storeurl.StoreURL

// StoreKind names a store: its row in the table of stores.
type StoreKind = storeurl.Kind

// ParseStoreURL reads a worker=zk://… (postgres://, mysql://, …) value with
// the parser of the store its scheme names. A malformed URL is
// errs.ErrInvalid naming worker; the message never holds the password.
func ParseStoreURL(v string) (*StoreURL, error) { return stores.Parse(v) }

// leaseProps are the properties of the store worker= names: the host
// directory's for every source that names no store.
func (d *draft) leaseProps() stores.Props {
	if d.WorkerSrc == SourceStore {
		if r, ok := stores.Lookup(d.Store.Kind); ok {
			return r.Props
		}
	}
	return stores.HostDir().Props
}

// redactAny drops a user:password@ part and the parameters (a libpq URL
// may carry ?password=) from something URL-like.
func redactAny(v string) string {
	scheme, rest, ok := strings.Cut(v, "://")
	if !ok {
		return v
	}
	rest, _, _ = strings.Cut(rest, "?")
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	return scheme + "://" + rest
}

// checkIdentifier accepts a PostgreSQL table name idgen may create: letters,
// digits and underscores, not starting with a digit, at most 63 bytes. It
// is still quoted wherever it is used.
func checkIdentifier(v string) error {
	ok := v != "" && len(v) <= 63 && !(v[0] >= '0' && v[0] <= '9')
	for i := 0; ok && i < len(v); i++ {
		c := v[i]
		ok = c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	if !ok {
		return errs.Key("lease_table", "want a plain identifier (letters, digits, _; at most 63 bytes; no quotes, dots or ;), got %q", v)
	}
	return nil
}

// storeRow is the table's row of a store URL (false: none).
func storeRow(u *StoreURL) (stores.Row, bool) {
	if u == nil {
		return stores.Row{}, false
	}
	return stores.Lookup(u.Kind)
}

func hasTables(p stores.Props) bool { return p.Tables }

func hasClock(p stores.Props) bool { return p.Clock }

// StoreKeepsTables reports whether the store c names keeps SQL tables
// (lease_table=, the counters' table): the table of stores' Tables.
func (c *Spec) StoreKeepsTables() bool {
	r, ok := storeRow(c.Store)
	return ok && r.Tables
}
