package storeurl

import (
	"net/url"
	"strings"
)

// Credentials splits a user[:password]@ off the host part of rest (what
// follows scheme://), percent-decoded; ok false when either is not valid
// percent-encoding. at is false when rest has no credentials.
func Credentials(u *StoreURL, rest string) (after string, at, ok bool) {
	i := strings.LastIndexByte(strings.SplitN(rest, "/", 2)[0], '@')
	if i < 0 {
		return rest, false, true
	}
	user, pass, hasPass := strings.Cut(rest[:i], ":")
	var err1, err2 error
	u.User, err1 = url.PathUnescape(user)
	u.Password, err2 = url.PathUnescape(pass)
	u.HasPass = hasPass
	return rest[i+1:], true, err1 == nil && err2 == nil
}

// RedactHosts is scheme://[user@]servers root: the form of a URL of a
// host list and a path (zk://, etcd://), without the password.
func RedactHosts(u *StoreURL) string {
	s, _, _ := strings.Cut(u.Raw, "://")
	s += "://"
	if u.User != "" {
		s += url.PathEscape(u.User) + "@"
	}
	return s + strings.Join(u.Servers, ",") + u.Root
}

// RedactStd is a net/url URL without the password of its user info and
// without the query parameters named in secret.
func RedactStd(u *StoreURL, secret ...string) string {
	p, err := url.Parse(u.Raw)
	if err != nil {
		return Scheme(u.Raw) + "://?"
	}
	if p.User != nil {
		p.User = url.User(p.User.Username())
	}
	if q := p.Query(); p.RawQuery != "" {
		for _, k := range secret {
			q.Del(k)
		}
		p.RawQuery = q.Encode()
	}
	return p.String()
}
