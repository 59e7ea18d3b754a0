package zkstore

// zk://[user:password@]host:port[,host:port...][/root]: this store's URL,
// read and redacted here.

import (
	"net/url"
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// Kind is this store's row in the table of stores.
const Kind storeurl.Kind = "zk"

// Schemes are the URL schemes this store reads.
var Schemes = []string{"zk"}

// DefaultRoot is the root znode of ZooKeeper leases.
const DefaultRoot = "/idgen"

// ParseURL reads a zk:// URL. A malformed one is errs.ErrInvalid naming
// worker; the message never holds the password.
func ParseURL(raw string) (*storeurl.StoreURL, error) {
	_, rest, _ := strings.Cut(raw, "://")
	u := &storeurl.StoreURL{Kind: Kind, Raw: raw, Root: DefaultRoot}
	if strings.ContainsAny(rest, "?#") {
		return nil, errs.Key("worker", "zk:// takes no parameters")
	}
	rest, err := zkCredentials(u, rest)
	if err != nil {
		return nil, err
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
		if err := storeurl.CheckHostPort("zk://", hp); err != nil {
			return nil, err
		}
		u.Servers = append(u.Servers, hp)
	}
	u.Where = "ZooKeeper ensemble " + strings.Join(u.Servers, ",")
	u.Redacted = storeurl.RedactHosts(u)
	return u, nil
}

func zkCredentials(u *storeurl.StoreURL, rest string) (string, error) {
	at := strings.LastIndexByte(strings.SplitN(rest, "/", 2)[0], '@')
	if at < 0 {
		return rest, nil
	}
	user, pass, hasPass := strings.Cut(rest[:at], ":")
	if user == "" {
		return "", errs.Key("worker", "zk:// credentials must be user:password@ (or user@, as a configuration string shows them)")
	}
	var err error
	if u.User, err = url.PathUnescape(user); err != nil {
		return "", errs.Key("worker", "zk:// user is not valid percent-encoding")
	}
	if u.Password, err = url.PathUnescape(pass); err != nil {
		return "", errs.Key("worker", "zk:// password is not valid percent-encoding")
	}
	u.HasPass = hasPass
	return rest[at+1:], nil
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
