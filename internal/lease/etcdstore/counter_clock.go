package etcdstore

import (
	"context"
	"net/http"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// OpenCounters connects within timeout (the cluster must answer a
// linearizable read).
func OpenCounters(u *storeurl.StoreURL, timeout time.Duration) (*Counters, error) {
	s, err := Open(u, timeout)
	if err != nil {
		return nil, err
	}
	readDates(s) // StoreClock reads the Date of answers
	return &Counters{s: s, known: map[string]counterAt{}}, nil
}

// StoreClock is the cluster's clock (segment.Clock): etcd's API has no
// time, so it is the Date header of the answering member's gateway to a
// read, in whole seconds: the member's clock lay in [Date, Date + 1 s)
// when it answered.
func (c *Counters) StoreClock(ctx context.Context) (int64, int64, error) {
	var date string
	ctx = context.WithValue(ctx, dateKey{}, &date)
	var r rangeResp
	if err := c.s.c.call(ctx, "/v3/kv/range", obj{"key": []byte(c.s.url.Root + "/.clock")}, &r); err != nil {
		return 0, 0, c.s.fail("read the clock", err)
	}
	t, err := http.ParseTime(date)
	if err != nil {
		return 0, 0, errs.New(errs.ErrWorker, "%s: its answer carries no Date header (%q) to read a clock from", c.Where(), date)
	}
	ms := t.UnixMilli()
	return ms, ms + int64(time.Second/time.Millisecond), nil
}

// dateKey marks a request whose answer's Date header StoreClock wants
// (the value: where to put it).
type dateKey struct{}

// dated is a transport that keeps the Date header of the answers to
// requests marked with dateKey.
type dated struct{ http.RoundTripper }

func (d dated) RoundTrip(req *http.Request) (*http.Response, error) {
	r, err := d.RoundTripper.RoundTrip(req)
	if p, ok := req.Context().Value(dateKey{}).(*string); ok && err == nil {
		*p = r.Header.Get("Date")
	}
	return r, err
}

// CloseIdleConnections forwards to the transport (client.close).
func (d dated) CloseIdleConnections() {
	if c, ok := d.RoundTripper.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// readDates makes s's client keep answers' Date headers (StoreClock).
func readDates(s *Store) { s.c.hc.Transport = dated{s.c.hc.Transport} }
