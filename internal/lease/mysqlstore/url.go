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
	if err := storeurl.PeerTable(u, p.Scheme, q.Get("format"), q.Get("table")); err != nil {
		return nil, err
	}
	if u.TLS, err = storeurl.BoolParam(p.Scheme, "tls", q.Get("tls")); err != nil {
		return nil, err
	}
	u.Where = "MySQL " + strings.Join(u.Servers, ",") + " database " + strconv.Quote(u.Database)
	u.Redacted = storeurl.RedactStd(u)
	return u, nil
}
