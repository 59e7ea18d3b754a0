package config

import (
	"net"
	"net/url"
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/errs"
)

// StoreKind names a coordinator.
type StoreKind int

const (
	StoreZK    StoreKind = iota // zk://[user:password@]host:port[,host:port...][/root]
	StorePG                     // postgres:// or postgresql:// (a libpq URL)
	StoreMySQL                  // mysql:// or mariadb://user:password@host:port/database[?tls=true]
	StoreRedis                  // redis:// or rediss://[user:password@]host:port[/db][?wait=N]
	StoreEtcd                   // etcd:// or etcds://[user:password@]h1:p1[,h2:p2...][/prefix]
)

// Source is the worker source a store kind serves.
func (k StoreKind) Source() Source {
	return [...]Source{SourceZK, SourcePG, SourceMySQL, SourceRedis, SourceEtcd}[k]
}

// StoreURL is a coordinator's address as worker= gives it.
type StoreURL struct {
	Kind     StoreKind
	Raw      string   // as given, password included: only for connecting
	Servers  []string // host:port, in the order given
	Root     string   // ZooKeeper: the root znode, default /idgen
	User     string
	Password string
	HasPass  bool
	Database string // PostgreSQL, MySQL
	TLS      bool   // mysql ?tls=true, rediss://, etcds://
	DB       int    // Redis: the database number
	Wait     int    // Redis ?wait=N: replicas each record write waits for
}

// DefaultZKRoot is the root znode of ZooKeeper leases.
const DefaultZKRoot = "/idgen"

// ParseStoreURL reads a worker=zk://… or worker=postgres://… value. A
// malformed URL is errs.ErrInvalid naming worker; the message never holds
// the password.
func ParseStoreURL(v string) (*StoreURL, error) {
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

func checkHostPort(what, hp string) error {
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
	if _, err := url.ParseQuery(p.RawQuery); err != nil {
		return nil, errs.Key("worker", "%s:// parameters are malformed", p.Scheme)
	}
	return u, nil
}

// Redacted is the URL without its password, for messages and for the
// configuration string.
func (u *StoreURL) Redacted() string {
	if u.Kind == StoreZK || u.Kind == StoreEtcd {
		s, _, _ := strings.Cut(u.Raw, "://")
		s += "://"
		if u.User != "" {
			s += url.PathEscape(u.User) + "@"
		}
		return s + strings.Join(u.Servers, ",") + u.Root
	}
	p, err := url.Parse(u.Raw)
	if err != nil {
		return strings.SplitN(u.Raw, ":", 2)[0] + "://?"
	}
	if p.User != nil {
		p.User = url.User(p.User.Username())
	}
	return p.String()
}

// Where names the servers and, for PostgreSQL, the database: what a
// message about reaching the store says.
func (u *StoreURL) Where() string {
	servers := strings.Join(u.Servers, ",")
	switch u.Kind {
	case StoreZK:
		return "ZooKeeper ensemble " + servers
	case StoreMySQL:
		return "MySQL " + servers + " database " + strconv.Quote(u.Database)
	case StoreRedis:
		return "Redis " + servers + " db " + strconv.Itoa(u.DB)
	case StoreEtcd:
		return "etcd cluster " + servers
	}
	return "PostgreSQL " + servers + " database " + strconv.Quote(u.Database)
}

// redactAny drops a user:password@ part from something URL-like.
func redactAny(v string) string {
	scheme, rest, ok := strings.Cut(v, "://")
	if !ok {
		return v
	}
	if at := strings.IndexByte(rest, '@'); at >= 0 {
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
