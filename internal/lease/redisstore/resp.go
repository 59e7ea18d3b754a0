package redisstore

// A minimal Redis client: one connection speaking RESP2 (the few RESP3
// types a server may send are read too), with a deadline on every call
// and TLS for rediss://. The store needs AUTH, SELECT, EVALSHA/EVAL, GET,
// TIME and WAIT and nothing else; a full client (go-redis) would add
// megabytes to the library for the same few commands.

import (
	"bufio"
	"bytes"
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
	nc    net.Conn
	r     *bufio.Reader
	w     *bufio.Writer
	facts facts // what the server said about itself when it was connected
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
	if c.facts, err = readFacts(ctx, c); err != nil {
		c.close()
		return nil, fmt.Errorf("INFO: %w", err)
	}
	return c, nil
}

// readFacts sends INFO all (every section, commandstats included). A
// user not allowed INFO is noted, not failed: only taking a lease needs it.
func readFacts(ctx context.Context, c *conn) (facts, error) {
	info, err := c.do(ctx, "INFO", "all")
	var re redisError
	if errors.As(err, &re) {
		return facts{denied: string(re)}, nil
	}
	if err != nil {
		return facts{}, err
	}
	text, _ := info.(string)
	return parseFacts(text), nil
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

// Bounds on what a reply may announce: the store's replies are small (a
// script's few fields, an INFO section, a SCAN page), and a server that
// announces more (a bulk of 2^40 bytes, an array of 2^40 elements, arrays
// nested a million deep) is answered with an error, never with an
// allocation of what it announced.
const (
	maxBulk  = 16 << 20
	maxArray = 1 << 20
	maxDepth = 8
	maxLine  = 64 << 10
)

// read reads one reply: string, int64, nil, []any or a redisError.
func (c *conn) read() (any, error) { return c.readAt(0) }

// line reads one line of at most maxLine bytes.
func (c *conn) line() (string, error) {
	var b []byte
	for {
		part, err := c.r.ReadSlice('\n')
		b = append(b, part...)
		if len(b) > maxLine {
			return "", fmt.Errorf("the server sent a line longer than %d bytes", maxLine)
		}
		if err != bufio.ErrBufferFull {
			return string(b), err
		}
	}
}

// size reads a bulk or array length, at most limit ("-1": nil).
func size(body string, limit int, what string) (int, bool, error) {
	n, err := strconv.ParseInt(body, 10, 64)
	switch {
	case err != nil:
		return 0, false, fmt.Errorf("malformed %s length %q from the server", what, body)
	case n < 0:
		return 0, false, nil
	case n > int64(limit):
		return 0, false, fmt.Errorf("the server announced a %s of %d, more than idgen reads (%d): not a Redis reply to this command", what, n, limit)
	}
	return int(n), true, nil
}

// readAt reads one reply nested depth arrays deep.
func (c *conn) readAt(depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("the server sent arrays nested more than %d deep", maxDepth)
	}
	line, err := c.line()
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
		n, ok, err := size(body, maxBulk, "bulk string")
		if !ok {
			return nil, err // $-1: nil
		}
		var buf bytes.Buffer // grows with what arrives, not with what was announced
		if _, err := io.CopyN(&buf, c.r, int64(n)+2); err != nil {
			return nil, err
		}
		b := buf.Bytes()
		if kind == '!' {
			return nil, redisError(b[:n])
		}
		return string(b[:n]), nil
	case '*', '~', '>', '%': // array, RESP3 set, push, map (as pairs)
		n, ok, err := size(body, maxArray, "array")
		if !ok {
			return nil, err // *-1: nil
		}
		if kind == '%' {
			n *= 2
		}
		out := make([]any, 0, min(n, 1024)) // grown as elements arrive
		for range n {
			v, err := c.readAt(depth + 1)
			var re redisError
			if err != nil && !errors.As(err, &re) {
				return nil, err
			}
			out = append(out, v)
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
