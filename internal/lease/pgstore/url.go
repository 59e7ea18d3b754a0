package pgstore

// postgres:// and postgresql:// (a libpq URL): this store's URL, read and
// redacted here.

import (
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// Kind is this store's row in the table of stores.
const Kind storeurl.Kind = "postgres"

// Schemes are the URL schemes this store reads and messages name;
// Aliases it reads too (libpq's postgresql://), unnamed.
var (
	Schemes = []string{"postgres"}
	Aliases = []string{"postgresql"}
)

// secretParams are the query parameters of a libpq URL that carry a
// password: the configuration string leaves them out, messages hide them.
var secretParams = []string{"password", "sslpassword"}

// ParseURL reads a libpq URL. A malformed one is errs.ErrInvalid naming
// worker; the message never holds the password.
func ParseURL(raw string) (*storeurl.StoreURL, error) {
	p, err := url.Parse(raw)
	if err != nil {
		return nil, errs.Key("worker", "%s:// URL is malformed", storeurl.Scheme(raw))
	}
	u := &storeurl.StoreURL{Kind: Kind, Raw: raw}
	if p.User != nil {
		u.User = p.User.Username()
		u.Password, u.HasPass = p.User.Password()
	}
	if p.Host == "" {
		return nil, errs.Key("worker", "%s:// needs a host (only TCP connections are supported)", p.Scheme)
	}
	for _, hp := range strings.Split(p.Host, ",") {
		if !strings.Contains(hp, ":") || strings.HasSuffix(hp, "]") {
			hp = net.JoinHostPort(strings.Trim(hp, "[]"), "5432")
		}
		if err := storeurl.CheckHostPort(p.Scheme+"://", hp); err != nil {
			return nil, err
		}
		u.Servers = append(u.Servers, hp)
	}
	u.Database = strings.TrimPrefix(p.Path, "/")
	if u.Database == "" {
		u.Database = u.User
	}
	q, err := url.ParseQuery(p.RawQuery)
	if err != nil {
		return nil, errs.Key("worker", "%s:// parameters are malformed", p.Scheme)
	}
	for _, k := range secretParams {
		u.Secrets = append(u.Secrets, q[k]...)
	}
	if err := storeurl.PeerTable(u, p.Scheme, q.Get("format"), q.Get("table")); err != nil {
		return nil, err
	}

	u.Where = "PostgreSQL " + strings.Join(u.Servers, ",") + " database " + strconv.Quote(u.Database)
	u.Redacted = storeurl.RedactStd(u, secretParams...)
	if q.Has("format") || q.Has("table") {
		// idgen's own parameters, kept in Redacted (the configuration
		// string) but not sent: the server would take them for settings.
		q.Del("format")
		q.Del("table")
		p.RawQuery = q.Encode()
		u.Raw = p.String()
	}
	return u, nil
}
