package redisstore

// A minimal Redis client: one connection speaking RESP2 (the few RESP3
// types a server may send are read too), with a deadline on every call
// and TLS for rediss://. The store needs AUTH, SELECT, EVALSHA/EVAL, GET,
// TIME and WAIT and nothing else; a full client (go-redis) would add
// megabytes to the library for the same few commands.

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// conn is one connection to a Redis server.
type conn struct {
	nc     net.Conn
	r      *bufio.Reader
	w      *bufio.Writer
	replid string // the server's replication id as a primary ("" if unknown)
}

// redisError is an error reply (-ERR …, -NOSCRIPT …, -WRONGPASS …).
type redisError string

func (e redisError) Error() string { return string(e) }

// prefix is the error's code, its first word.
func (e redisError) prefix() string { return strings.SplitN(string(e), " ", 2)[0] }

// defaultCall bounds a call whose context has no deadline.
const defaultCall = 10 * time.Second

// dial connects to addr (TLS when tlsOn, verifying the server's name
// against the system roots), then authenticates and selects db.
func dial(ctx context.Context, addr string, tlsOn bool, user, pass string, db int) (*conn, error) {
	d := net.Dialer{KeepAlive: 15 * time.Second}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, defaultCall)
		defer cancel()
	}
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	if tlsOn {
		host, _, _ := net.SplitHostPort(addr)
		tc := tls.Client(nc, &tls.Config{ServerName: host, MinVersion: tls.VersionTLS12})
		if err := tc.HandshakeContext(ctx); err != nil {
			nc.Close()
			return nil, fmt.Errorf("TLS handshake: %w", err)
		}
		nc = tc
	}
	c := &conn{nc: nc, r: bufio.NewReader(nc), w: bufio.NewWriter(nc)}
	if pass != "" {
		args := []string{"AUTH", pass}
		if user != "" {
			args = []string{"AUTH", user, pass}
		}
		if _, err := c.do(ctx, args...); err != nil {
			c.close()
			return nil, fmt.Errorf("AUTH: %w", err)
		}
	}
	if db != 0 {
		if _, err := c.do(ctx, "SELECT", strconv.Itoa(db)); err != nil {
			c.close()
			return nil, fmt.Errorf("SELECT %d: %w", db, err)
		}
	}
	// A primary's replication id changes when a replica is promoted or the
	// server restarts without its data; a user may not be allowed INFO.
	info, err := c.do(ctx, "INFO", "replication")
	var re redisError
	if err != nil && !errors.As(err, &re) {
		c.close()
		return nil, fmt.Errorf("INFO: %w", err)
	}
	if text, _ := info.(string); strings.Contains(text, "role:master") {
		for _, line := range strings.Split(text, "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "master_replid:"); ok {
				c.replid = v
			}
		}
	}
	return c, nil
}

func (c *conn) close() { _ = c.nc.Close() }

// do sends one command and reads its reply within ctx's deadline. An error
// reply is a redisError and leaves the connection usable; any other error
// means the connection is broken (the caller closes it).
func (c *conn) do(ctx context.Context, args ...string) (any, error) {
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(defaultCall)
	}
	if err := c.nc.SetDeadline(deadline); err != nil {
		return nil, err
	}
	fmt.Fprintf(c.w, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(c.w, "$%d\r\n%s\r\n", len(a), a)
	}
	if err := c.w.Flush(); err != nil {
		return nil, err
	}
	return c.read()
}

// read reads one reply: string, int64, nil, []any or a redisError.
func (c *conn) read() (any, error) {
	line, err := c.r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	if len(line) < 3 || line[len(line)-2] != '\r' {
		return nil, errors.New("malformed reply from the server")
	}
	kind, body := line[0], line[1:len(line)-2]
	switch kind {
	case '+', ',': // simple string, RESP3 double
		return body, nil
	case '-':
		return nil, redisError(body)
	case ':':
		return strconv.ParseInt(body, 10, 64)
	case '_': // RESP3 null
		return nil, nil
	case '#': // RESP3 boolean
		return body == "t", nil
	case '$', '=', '!': // bulk string, RESP3 verbatim string and bulk error
		n, err := strconv.Atoi(body)
		if err != nil || n < 0 {
			return nil, err // $-1: nil
		}
		b := make([]byte, n+2)
		if _, err := io.ReadFull(c.r, b); err != nil {
			return nil, err
		}
		if kind == '!' {
			return nil, redisError(b[:n])
		}
		return string(b[:n]), nil
	case '*', '~', '>', '%': // array, RESP3 set, push, map (as pairs)
		n, err := strconv.Atoi(body)
		if err != nil || n < 0 {
			return nil, err // *-1: nil
		}
		if kind == '%' {
			n *= 2
		}
		out := make([]any, n)
		for i := range out {
			v, err := c.read()
			var re redisError
			if err != nil && !errors.As(err, &re) {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	return nil, fmt.Errorf("unknown reply type %q from the server", kind)
}

// str is a reply as a string ("" for nil).
func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return ""
}
