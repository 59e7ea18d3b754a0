package mysqlstore

// mysql:// and mariadb://user:password@host:port/database[?tls=true]: this
// store's URL, read and redacted here; a segment store may add
// &format=leaf|tinyid[&table=NAME] to keep its counters in a peer's table.

import (
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// Kind is this store's row in the table of stores.
const Kind storeurl.Kind = "mysql"

// Schemes are the URL schemes this store reads.
var Schemes = []string{"mysql", "mariadb"}

// ParseURL reads a mysql:// or mariadb:// URL. A malformed one is
// errs.ErrInvalid naming worker; the message never holds the password.
func ParseURL(raw string) (*storeurl.StoreURL, error) {
	u, p, err := storeurl.ParseStd(Kind, raw, "3306")
	if err != nil {
		return nil, err
	}
	if len(u.Servers) != 1 {
		return nil, errs.Key("worker", "%s:// takes one host:port, got %d", p.Scheme, len(u.Servers))
	}
	if u.User == "" {
		return nil, errs.Key("worker", "%s:// needs a user (user:password@host)", p.Scheme)
	}
	u.Database = strings.TrimPrefix(p.Path, "/")
	if u.Database == "" || strings.ContainsAny(u.Database, "/`'\"\\") {
		return nil, errs.Key("worker", "%s:// needs a database name as its path (/idgen), got %q", p.Scheme, u.Database)
	}
	q := p.Query()
	if err := storeurl.OnlyParams(p.Scheme, q, "tls", "format", "table"); err != nil {
		return nil, err
	}
	if err := peerTable(u, p.Scheme, q.Get("format"), q.Get("table")); err != nil {
		return nil, err
	}
	if u.TLS, err = storeurl.BoolParam(p.Scheme, "tls", q.Get("tls")); err != nil {
		return nil, err
	}
	u.Where = "MySQL " + strings.Join(u.Servers, ",") + " database " + strconv.Quote(u.Database)
	u.Redacted = storeurl.RedactStd(u)
	return u, nil
}

// The peers' tables a segment store may continue (format=).
const (
	FormatLeaf   = "leaf"   // Meituan Leaf's leaf_alloc
	FormatTinyid = "tinyid" // Didi tinyid's tiny_id_info
)

// peerTable reads format= and table=: a peer's table, by default its
// usual name; table= alone is refused (idgen's own table is named by
// lease_table=).
func peerTable(u *storeurl.StoreURL, scheme, format, table string) error {
	switch format {
	case "":
		if table != "" {
			return errs.Key("worker", "%s://…?table= applies with format=leaf or format=tinyid (idgen's own counter table is named by lease_table=)", scheme)
		}
		return nil
	case FormatLeaf:
		u.Table = "leaf_alloc"
	case FormatTinyid:
		u.Table = "tiny_id_info"
	default:
		return errs.Key("worker", "%s://…?format=%q: want leaf (Leaf's leaf_alloc) or tinyid (tinyid's tiny_id_info)", scheme, format)
	}
	u.Format = format
	if table != "" {
		if !plainIdent(table) {
			return errs.Key("worker", "%s://…?table=%q: want a plain table name (letters, digits, _)", scheme, table)
		}
		u.Table = table
	}
	return nil
}

// plainIdent: letters, digits and _, not starting with a digit, at most 64.
func plainIdent(s string) bool {
	if s == "" || len(s) > 64 || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for _, c := range s {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
