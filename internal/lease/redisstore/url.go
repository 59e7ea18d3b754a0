package redisstore

// redis:// and rediss://[user:password@]host:port[/db][?wait=N]: this
// store's URL, read and redacted here.

import (
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// Kind is this store's row in the table of stores.
const Kind storeurl.Kind = "redis"

// Schemes are the URL schemes this store reads (rediss:// with TLS).
var Schemes = []string{"redis", "rediss"}

// ParseURL reads a redis:// or rediss:// URL. A malformed one is
// errs.ErrInvalid naming worker; the message never holds the password.
func ParseURL(raw string) (*storeurl.StoreURL, error) {
	u, p, err := storeurl.ParseStd(Kind, raw, "6379")
	if err != nil {
		return nil, err
	}
	u.TLS = p.Scheme == "rediss"
	if len(u.Servers) != 1 {
		return nil, errs.Key("worker", "%s:// takes one host:port, got %d", p.Scheme, len(u.Servers))
	}
	if db := strings.TrimPrefix(p.Path, "/"); db != "" {
		if u.DB, err = strconv.Atoi(db); err != nil || u.DB < 0 || u.DB > 1<<20 {
			return nil, errs.Key("worker", "%s:// path is a database number (/0), got %q", p.Scheme, p.Path)
		}
	}
	q := p.Query()
	if err := storeurl.OnlyParams(p.Scheme, q, "wait"); err != nil {
		return nil, err
	}
	if w := q.Get("wait"); w != "" {
		if u.Wait, err = strconv.Atoi(w); err != nil || u.Wait < 0 || u.Wait > 64 {
			return nil, errs.Key("worker", "%s:// wait wants a number of replicas from 0 to 64, got %q", p.Scheme, w)
		}
	}
	u.Where = "Redis " + strings.Join(u.Servers, ",") + " db " + strconv.Itoa(u.DB)
	u.Redacted = storeurl.RedactStd(u)
	return u, nil
}
