package etcdstore

// A minimal client of etcd's JSON gateway (/v3/…): JSON over HTTP/1.1,
// keys and values base64, int64s as strings. Every call is bounded by its
// context; a member that refuses, resets or does not answer in time is
// left for the next, so a call survives a killed leader.

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// client speaks to the members of one cluster.
type client struct {
	u      *storeurl.StoreURL
	hc     *http.Client
	scheme string

	mu      sync.Mutex
	at      int           // the member tried first: the last one that answered
	token   string        // the simple or JWT token of an authenticated user
	authOff bool          // the cluster has authentication off
	authing chan struct{} // closed when the authentication under way ends
	authErr error         // how the last one ended
}

func newClient(u *storeurl.StoreURL) *client {
	tr := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 2 * time.Second, KeepAlive: 15 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 4,
		IdleConnTimeout:     30 * time.Second,
		TLSHandshakeTimeout: 3 * time.Second,
	}
	c := &client{u: u, hc: &http.Client{Transport: tr}, scheme: "http"}
	if u.TLS {
		c.scheme = "https"
		tr.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
	}
	return c
}

func (c *client) close() { c.hc.CloseIdleConnections() }

// rpcError is an error etcd answered with (gRPC code and message).
type rpcError struct {
	Code int    `json:"code"`
	Msg  string `json:"message"`
	Err  string `json:"error"`
}

func (e *rpcError) Error() string {
	if e.Msg != "" {
		return e.Msg
	}
	return e.Err
}

// gRPC codes the gateway reports.
const (
	codeInvalidArgument  = 3
	codeNotFound         = 5
	codePermissionDenied = 7
	codeUnauthenticated  = 16
)

// transient reports an answer another member may not give: no leader,
// a leader change, a request that timed out inside the cluster.
func (e *rpcError) transient() bool {
	switch e.Code {
	case 1, 4, 8, 10, 14: // canceled, deadline, resource exhausted, aborted, unavailable
		return true
	}
	return strings.Contains(e.Error(), "leader")
}

// call posts req to path and decodes the answer into resp, trying each
// member once, starting with the last that answered. A member gets two
// thirds of the time left while others remain (one that is down refuses
// at once; one that hangs must leave time for the next).
func (c *client) call(ctx context.Context, path string, req, resp any) (err error) {
	defer errs.Catch(&err, path)
	body, err := json.Marshal(req)
	if err != nil {
		return err
	}
	c.mu.Lock()
	first := c.at
	c.mu.Unlock()
	n := len(c.u.Servers)
	var fails []string
	for i := 0; i < n; i++ {
		idx := (first + i) % n
		err := c.callOne(ctx, idx, i == n-1, path, body, resp)
		var re *rpcError
		switch {
		case err == nil:
			c.mu.Lock()
			c.at = idx
			c.mu.Unlock()
			return nil
		case errors.As(err, &re) && !re.transient(), errors.As(err, new(*authError)):
			return fmt.Errorf("%s: %w", c.u.Servers[idx], err)
		}
		fails = append(fails, c.u.Servers[idx]+": "+reason(err))
		c.mu.Lock()
		if c.at == idx {
			c.at = (idx + 1) % n
		}
		c.mu.Unlock()
		if ctx.Err() != nil {
			break
		}
	}
	return errors.New(strings.Join(fails, "; "))
}

// callOne tries one member, authenticating first when the user has no
// token yet and once more when the token expired.
func (c *client) callOne(ctx context.Context, idx int, last bool, path string, body []byte, resp any) error {
	if dl, ok := ctx.Deadline(); ok && !last {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Until(dl)*2/3)
		defer cancel()
	}
	for try := 0; ; try++ {
		tok, err := c.authToken(ctx, idx)
		if err != nil {
			return err
		}
		err = c.post(ctx, idx, path, tok, body, resp)
		var re *rpcError
		if try == 0 && c.u.User != "" && errors.As(err, &re) && re.Code == codeUnauthenticated {
			c.mu.Lock()
			if c.token == tok {
				c.token = "" // expired: authenticate again
			}
			c.mu.Unlock()
			continue
		}
		return err
	}
}

// authToken is the token to send ("" without a user, or when the cluster
// has authentication off). Without one, it authenticates at member idx,
// in the background (bcrypt on a busy member may take longer than a
// renewal may wait): a caller whose context ends first fails, and a later
// call finds the token.
func (c *client) authToken(ctx context.Context, idx int) (string, error) {
	if c.u.User == "" {
		return "", nil
	}
	c.mu.Lock()
	if c.token != "" || c.authOff {
		defer c.mu.Unlock()
		return c.token, nil
	}
	ch := c.authing
	if ch == nil {
		ch = make(chan struct{})
		c.authing = ch
		go c.authenticate(idx, ch)
	}
	c.mu.Unlock()
	select {
	case <-ch:
	case <-ctx.Done():
		return "", fmt.Errorf("authentication: %w", ctx.Err())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.token, c.authErr
}

// authTimeout bounds one authentication.
const authTimeout = 5 * time.Second

func (c *client) authenticate(idx int, done chan struct{}) {
	var r struct {
		Token string `json:"token"`
	}
	off, err := false, error(nil)
	defer func() { // after caught: a panic ends the authentication as an error
		c.mu.Lock()
		c.token, c.authOff, c.authErr, c.authing = r.Token, off, err, nil
		c.mu.Unlock()
		close(done)
	}()
	defer errs.Catch(&err, "authenticate")
	ctx, cancel := context.WithTimeout(context.Background(), authTimeout)
	defer cancel()
	body, _ := json.Marshal(map[string]string{"name": c.u.User, "password": c.u.Password})
	err = c.post(ctx, idx, "/v3/auth/authenticate", "", body, &r)
	var re *rpcError
	switch {
	case errors.As(err, &re) && strings.Contains(re.Error(), "authentication is not enabled"):
		off, err = true, nil // as etcd's own client: credentials a cluster does not ask for are not used
	case errors.As(err, &re) && (re.Code == codeInvalidArgument || re.Code == codeUnauthenticated):
		err = &authError{user: c.u.User, msg: re.Error()}
	}
}

// authError is a refused authentication: no other member would accept it.
type authError struct{ user, msg string }

func (e *authError) Error() string {
	return fmt.Sprintf("authentication failed for user %q (%s)", e.user, strings.TrimPrefix(e.msg, "etcdserver: "))
}

// post sends one request to member idx. A non-200 answer, or a stream's
// error object, is an *rpcError.
func (c *client) post(ctx context.Context, idx int, path, tok string, body []byte, resp any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.scheme+"://"+c.u.Servers[idx]+path, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if tok != "" {
		req.Header.Set("Authorization", tok)
	}
	r, err := c.hc.Do(req)
	if err != nil {
		return err
	}
	defer r.Body.Close()
	data, err := io.ReadAll(io.LimitReader(r.Body, 8<<20))
	if err != nil {
		return err
	}
	if r.StatusCode != http.StatusOK {
		re := &rpcError{}
		if json.Unmarshal(data, re) != nil || re.Error() == "" {
			re = &rpcError{Code: 14, Msg: fmt.Sprintf("HTTP %d: %s", r.StatusCode, clip(data))}
			if r.StatusCode < 500 {
				re.Code = 2
			}
		}
		return re
	}
	if bytes.HasPrefix(data, []byte(`{"error":{`)) { // a stream's error
		var se struct {
			Error struct {
				Code int    `json:"grpc_code"`
				Msg  string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(data, &se) == nil {
			return &rpcError{Code: se.Error.Code, Msg: se.Error.Msg}
		}
	}
	if err := json.Unmarshal(data, resp); err != nil {
		return fmt.Errorf("not an etcd answer (%v): %s", err, clip(data))
	}
	return nil
}

// reason says in a few words why a member failed.
func reason(err error) string {
	var re *rpcError
	var ne net.Error
	switch {
	case errors.As(err, &re):
		return strings.TrimPrefix(re.Error(), "etcdserver: ")
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed"
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return "no answer in time"
	case errors.Is(err, context.Canceled):
		return "canceled"
	}
	var ue interface{ Unwrap() error }
	if errors.As(err, &ue) && ue.Unwrap() != nil {
		return ue.Unwrap().Error() // drop the URL net/http puts first
	}
	return err.Error()
}

func clip(b []byte) string {
	s := strings.TrimSpace(string(b))
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}
