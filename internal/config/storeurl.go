package config

// Reading a store URL (worker=, store=): ZooKeeper and PostgreSQL here,
// the stores of stores.go dispatched from ParseStoreURL.

import (
	"net"
	"net/url"
	"strings"

	"github.com/idgen/idgen/internal/errs"
)

// ParseStoreURL reads a worker=zk://… or worker=postgres://… value. A
// malformed URL is errs.ErrInvalid naming worker; the message never holds
// the password.
func ParseStoreURL(v string) (*StoreURL, error) {
	u, err := parseStoreURL(v)
	if err != nil {
		return nil, err
	}
	u.Where, u.Redacted = u.where(), u.redacted()
	return u, nil
}

func parseStoreURL(v string) (*StoreURL, error) {
	scheme, rest, _ := strings.Cut(v, "://")
	switch scheme {
	case "zk":
		return parseZK(v, rest)
	case "postgres", "postgresql":
		return parsePG(v)
	case "mysql", "mariadb":
		return parseMySQL(v)
	case "redis", "rediss":
		return parseRedis(v)
	case "etcd", "etcds":
		return parseEtcd(v, rest)
	}
	return nil, errs.Key("worker", "unknown coordinator %q (want zk://, postgres://, mysql://, mariadb://, redis://, rediss://, etcd:// or etcds://)", scheme+"://")
}

func parseZK(raw, rest string) (*StoreURL, error) {
	u := &StoreURL{Kind: StoreZK, Raw: raw, Root: DefaultZKRoot}
	if strings.ContainsAny(rest, "?#") {
		return nil, errs.Key("worker", "zk:// takes no parameters")
	}
	if at := strings.LastIndexByte(strings.SplitN(rest, "/", 2)[0], '@'); at >= 0 {
		cred := rest[:at]
		rest = rest[at+1:]
		user, pass, hasPass := strings.Cut(cred, ":")
		if user == "" {
			return nil, errs.Key("worker", "zk:// credentials must be user:password@ (or user@, as a configuration string shows them)")
		}
		var err error
		if u.User, err = url.PathUnescape(user); err != nil {
			return nil, errs.Key("worker", "zk:// user is not valid percent-encoding")
		}
		if u.Password, err = url.PathUnescape(pass); err != nil {
			return nil, errs.Key("worker", "zk:// password is not valid percent-encoding")
		}
		u.HasPass = hasPass
	}
	hosts, root, hasRoot := strings.Cut(rest, "/")
	if hasRoot {
		u.Root = "/" + root
		if err := checkZnodePath(u.Root); err != nil {
			return nil, err
		}
	}
	if hosts == "" {
		return nil, errs.Key("worker", "zk:// needs at least one host:port")
	}
	for _, hp := range strings.Split(hosts, ",") {
		if err := checkHostPort("zk://", hp); err != nil {
			return nil, err
		}
		u.Servers = append(u.Servers, hp)
	}
	return u, nil
}

// checkZnodePath accepts a zk:// root: a znode path idgen may create.
func checkZnodePath(p string) error {
	if p == "/" {
		return errs.Key("worker", "zk:// root must not be / itself (idgen keeps its nodes under a root like /idgen)")
	}
	for _, part := range strings.Split(p[1:], "/") {
		if part == "" || part == "." || part == ".." || part == "zookeeper" && p == "/zookeeper" {
			return errs.Key("worker", "zk:// root %q is not a valid znode path", p)
		}
		for _, r := range part {
			if r < 0x21 || r == 0x7f {
				return errs.Key("worker", "zk:// root %q has a control or space character", p)
			}
		}
	}
	return nil
}

func parsePG(raw string) (*StoreURL, error) {
	p, err := url.Parse(raw)
	if err != nil {
		return nil, errs.Key("worker", "%s:// URL is malformed", strings.SplitN(raw, ":", 2)[0])
	}
	u := &StoreURL{Kind: StorePG, Raw: raw}
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
		if err := checkHostPort(p.Scheme+"://", hp); err != nil {
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
		u.secrets = append(u.secrets, q[k]...)
	}
	return u, nil
}
