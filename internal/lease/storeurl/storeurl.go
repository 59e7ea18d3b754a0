// Package storeurl is what the store packages share to read and redact
// their own URLs (worker=, store=): the parsed address, the host:port
// list, the standard net/url form with its credentials and parameters,
// and the two redactions. Each store's url.go says what its URL means.
package storeurl

import (
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/errs"
)

// Kind names a store: the key of its row in the table of stores
// (internal/lease/stores).
type Kind string

// StoreURL is a coordinator's address as worker= gives it.
type StoreURL struct {
	Kind     Kind
	Raw      string   // as given, password included: only for connecting
	Servers  []string // host:port, in the order given
	Root     string   // ZooKeeper: the root znode; etcd: the key prefix
	User     string
	Password string
	HasPass  bool
	Database string // PostgreSQL, MySQL
	TLS      bool   // mysql ?tls=true, rediss://, etcds://
	DB       int    // Redis: the database number
	Wait     int    // Redis ?wait=N: replicas each record write waits for
	// Format and Table: a segment store's counters kept in a peer's table
	// (MySQL ?format=leaf|tinyid&table=…): "" for idgen's own.
	Format string
	Table  string

	// Where names the servers and, for PostgreSQL, MySQL and Redis, the
	// database: what a message about reaching the store says.
	Where string
	// Redacted is the URL without its password, for messages and for the
	// configuration string.
	Redacted string

	// Secrets are the query's password parameters (a libpq URL's), which
	// Scrub hides besides Password.
	Secrets []string
}

// Scrub hides every password of the URL in msg (a server's or a driver's
// message): each is *** instead.
func (u *StoreURL) Scrub(msg string) string {
	for _, s := range append([]string{u.Password}, u.Secrets...) {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, "***")
		}
	}
	return msg
}

// Scheme is the scheme of a raw URL (what precedes the first colon).
func Scheme(raw string) string { return strings.SplitN(raw, ":", 2)[0] }

// CheckHostPort accepts host:port with a port from 1 to 65535; what names
// the scheme in the message ("zk://").
func CheckHostPort(what, hp string) error {
	host, port, err := net.SplitHostPort(hp)
	if err != nil || host == "" {
		return errs.Key("worker", "%s server %q is not host:port", what, hp)
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 1 || n > 65535 {
		return errs.Key("worker", "%s server %q: port must be 1..65535", what, hp)
	}
	return nil
}

// Hosts checks the comma-separated host[:port] list of a URL, giving each
// the scheme's default port when it has none.
func Hosts(scheme, hosts, defPort string) ([]string, error) {
	if hosts == "" {
		return nil, errs.Key("worker", "%s:// needs a host (only TCP connections are supported)", scheme)
	}
	var out []string
	for _, hp := range strings.Split(hosts, ",") {
		if !strings.Contains(hp, ":") || strings.HasSuffix(hp, "]") {
			hp = net.JoinHostPort(strings.Trim(hp, "[]"), defPort)
		}
		if err := CheckHostPort(scheme+"://", hp); err != nil {
			return nil, err
		}
		out = append(out, hp)
	}
	return out, nil
}

// ParseStd reads scheme://[user[:password]@]hosts[/path][?query] with
// net/url, keeping the credentials.
func ParseStd(kind Kind, raw, defPort string) (*StoreURL, *url.URL, error) {
	scheme := Scheme(raw)
	p, err := url.Parse(raw)
	if err != nil {
		return nil, nil, errs.Key("worker", "%s:// URL is malformed", scheme)
	}
	u := &StoreURL{Kind: kind, Raw: raw}
	if p.User != nil {
		u.User = p.User.Username()
		u.Password, u.HasPass = p.User.Password()
	}
	if u.Servers, err = Hosts(scheme, p.Host, defPort); err != nil {
		return nil, nil, err
	}
	if _, err := url.ParseQuery(p.RawQuery); err != nil {
		return nil, nil, errs.Key("worker", "%s:// parameters are malformed", scheme)
	}
	return u, p, nil
}

// OnlyParams refuses query parameters other than the ones a store reads.
func OnlyParams(scheme string, q url.Values, known ...string) error {
	for k := range q {
		found := false
		for _, n := range known {
			found = found || k == n
		}
		if !found {
			return errs.Key("worker", "%s:// has no parameter %q (it knows: %s)", scheme, k, strings.Join(known, ", "))
		}
	}
	return nil
}

// BoolParam reads a true/false parameter ("" is false).
func BoolParam(scheme, name, v string) (bool, error) {
	switch v {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	}
	return false, errs.Key("worker", "%s:// parameter %s wants true or false, got %q", scheme, name, v)
}
