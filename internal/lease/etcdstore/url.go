package etcdstore

// etcd:// and etcds://[user:password@]h1:p1[,h2:p2…][/prefix]: this
// store's URL, read and redacted here.

import (
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// Kind is this store's row in the table of stores.
const Kind storeurl.Kind = "etcd"

// Schemes are the URL schemes this store reads (etcds:// with TLS).
var Schemes = []string{"etcd", "etcds"}

// DefaultPrefix is the key prefix of etcd leases.
const DefaultPrefix = "/idgen"

// ParseURL reads an etcd:// or etcds:// URL. A malformed one is
// errs.ErrInvalid naming worker; the message never holds the password.
func ParseURL(raw string) (*storeurl.StoreURL, error) {
	scheme, rest, _ := strings.Cut(raw, "://")
	u := &storeurl.StoreURL{Kind: Kind, Raw: raw, Root: DefaultPrefix, TLS: scheme == "etcds"}
	if strings.ContainsAny(rest, "?#") {
		return nil, errs.Key("worker", "%s:// takes no parameters", scheme)
	}
	rest, at, ok := storeurl.Credentials(u, rest)
	if at && (u.User == "" || !ok) {
		return nil, errs.Key("worker", "%s:// credentials must be user:password@ in percent-encoding", scheme)
	}
	hosts, prefix, hasPrefix := strings.Cut(rest, "/")
	if hasPrefix {
		u.Root = "/" + prefix
		if prefix == "" || strings.ContainsAny(prefix, "\x00 ") || strings.Contains(u.Root, "//") || strings.HasSuffix(u.Root, "/") {
			return nil, errs.Key("worker", "%s:// prefix %q is not a key path like /idgen", scheme, u.Root)
		}
	}
	var err error
	if u.Servers, err = storeurl.Hosts(scheme, hosts, "2379"); err != nil {
		return nil, err
	}
	u.Where = "etcd cluster " + strings.Join(u.Servers, ",")
	u.Redacted = storeurl.RedactHosts(u)
	return u, nil
}
