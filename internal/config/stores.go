package config

import (
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/errs"
)

// DefaultEtcdPrefix is the key prefix of etcd leases.
const DefaultEtcdPrefix = "/idgen"

// urlHosts checks the comma-separated host[:port] list of a URL, giving
// each the scheme's default port when it has none.
func urlHosts(scheme, hosts, defPort string) ([]string, error) {
	if hosts == "" {
		return nil, errs.Key("worker", "%s:// needs a host (only TCP connections are supported)", scheme)
	}
	var out []string
	for _, hp := range strings.Split(hosts, ",") {
		if !strings.Contains(hp, ":") || strings.HasSuffix(hp, "]") {
			hp = net.JoinHostPort(strings.Trim(hp, "[]"), defPort)
		}
		if err := checkHostPort(scheme+"://", hp); err != nil {
			return nil, err
		}
		out = append(out, hp)
	}
	return out, nil
}

// parseStdURL reads scheme://[user[:password]@]hosts[/path][?query] with
// net/url, keeping the credentials.
func parseStdURL(kind StoreKind, raw, defPort string) (*StoreURL, *url.URL, error) {
	scheme := strings.SplitN(raw, ":", 2)[0]
	p, err := url.Parse(raw)
	if err != nil {
		return nil, nil, errs.Key("worker", "%s:// URL is malformed", scheme)
	}
	u := &StoreURL{Kind: kind, Raw: raw}
	if p.User != nil {
		u.User = p.User.Username()
		u.Password, u.HasPass = p.User.Password()
	}
	if u.Servers, err = urlHosts(scheme, p.Host, defPort); err != nil {
		return nil, nil, err
	}
	if _, err := url.ParseQuery(p.RawQuery); err != nil {
		return nil, nil, errs.Key("worker", "%s:// parameters are malformed", scheme)
	}
	return u, p, nil
}

// onlyParams refuses query parameters other than the ones a store reads.
func onlyParams(scheme string, q url.Values, known ...string) error {
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

func parseBoolParam(scheme, name, v string) (bool, error) {
	switch v {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	}
	return false, errs.Key("worker", "%s:// parameter %s wants true or false, got %q", scheme, name, v)
}

// parseMySQL reads mysql://user:password@host:port/database[?tls=true]
// (mariadb:// alike).
func parseMySQL(raw string) (*StoreURL, error) {
	u, p, err := parseStdURL(StoreMySQL, raw, "3306")
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
	if err := onlyParams(p.Scheme, q, "tls"); err != nil {
		return nil, err
	}
	u.TLS, err = parseBoolParam(p.Scheme, "tls", q.Get("tls"))
	return u, err
}

// parseRedis reads redis://[user:password@]host:port[/db][?wait=N]
// (rediss:// with TLS).
func parseRedis(raw string) (*StoreURL, error) {
	u, p, err := parseStdURL(StoreRedis, raw, "6379")
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
	if err := onlyParams(p.Scheme, q, "wait"); err != nil {
		return nil, err
	}
	if w := q.Get("wait"); w != "" {
		if u.Wait, err = strconv.Atoi(w); err != nil || u.Wait < 0 || u.Wait > 64 {
			return nil, errs.Key("worker", "%s:// wait wants a number of replicas from 0 to 64, got %q", p.Scheme, w)
		}
	}
	return u, nil
}

// parseEtcd reads etcd://[user:password@]h1:p1[,h2:p2…][/prefix] (etcds://
// with TLS).
func parseEtcd(raw, rest string) (*StoreURL, error) {
	scheme := strings.SplitN(raw, ":", 2)[0]
	u := &StoreURL{Kind: StoreEtcd, Raw: raw, Root: DefaultEtcdPrefix, TLS: scheme == "etcds"}
	if strings.ContainsAny(rest, "?#") {
		return nil, errs.Key("worker", "%s:// takes no parameters", scheme)
	}
	if at := strings.LastIndexByte(strings.SplitN(rest, "/", 2)[0], '@'); at >= 0 {
		user, pass, hasPass := strings.Cut(rest[:at], ":")
		rest = rest[at+1:]
		var err1, err2 error
		u.User, err1 = url.PathUnescape(user)
		u.Password, err2 = url.PathUnescape(pass)
		if user == "" || err1 != nil || err2 != nil {
			return nil, errs.Key("worker", "%s:// credentials must be user:password@ in percent-encoding", scheme)
		}
		u.HasPass = hasPass
	}
	hosts, prefix, hasPrefix := strings.Cut(rest, "/")
	if hasPrefix {
		u.Root = "/" + prefix
		if prefix == "" || strings.ContainsAny(prefix, "\x00 ") || strings.Contains(u.Root, "//") || strings.HasSuffix(u.Root, "/") {
			return nil, errs.Key("worker", "%s:// prefix %q is not a key path like /idgen", scheme, u.Root)
		}
	}
	var err error
	u.Servers, err = urlHosts(scheme, hosts, "2379")
	return u, err
}
