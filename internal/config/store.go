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

	// Where names the servers and, for PostgreSQL, MySQL and Redis, the
	// database: what a message about reaching the store says.
	Where string
	// Redacted is the URL without its password, for messages and for the
	// configuration string.
	Redacted string

	secrets []string // the password and the query's password parameters
}

// secretParams are the query parameters of a libpq URL that carry a
// password: the configuration string leaves them out, messages hide them.
var secretParams = []string{"password", "sslpassword"}

// Scrub hides every password of the URL in msg (a server's or a driver's
// message): each is *** instead.
func (u *StoreURL) Scrub(msg string) string {
	for _, s := range append([]string{u.Password}, u.secrets...) {
		if s != "" {
			msg = strings.ReplaceAll(msg, s, "***")
		}
	}
	return msg
}

// DefaultZKRoot is the root znode of ZooKeeper leases.
const DefaultZKRoot = "/idgen"

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

func (u *StoreURL) redacted() string {
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
	if q := p.Query(); p.RawQuery != "" {
		for _, k := range secretParams {
			q.Del(k)
		}
		p.RawQuery = q.Encode()
	}
	return p.String()
}

func (u *StoreURL) where() string {
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
