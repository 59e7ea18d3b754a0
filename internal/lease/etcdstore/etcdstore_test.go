package etcdstore

// What needs no cluster: the record's text, lease_ttl in etcd's seconds,
// and how a call that reaches no member fails (tests/fleet/etcd*_test.go
// run the store against a real 3-member cluster).

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

func TestRecordRoundTripAndStrictParse(t *testing.T) {
	for _, r := range []lease.Record{{}, {IssuedUpTo: 1, Backwards: 2}, {IssuedUpTo: 1<<63 - 1}} {
		got, ok := parse(format(r))
		if !ok || got != r {
			t.Fatalf("parse(format(%v)) = %v, %v", r, got, ok)
		}
	}
	for _, bad := range []string{"", "idgen-lease 1 5", "idgen-lease 2 5 0", "idgen-lease 1 -5 0", "idgen-lease 1 05 0", "idgen-lease 1 5 0 ", "x 1 5 0"} {
		if _, ok := parse([]byte(bad)); ok {
			t.Errorf("parse(%q) accepted", bad)
		}
	}
}

func TestSecondsRoundUp(t *testing.T) {
	for _, c := range []struct {
		ttl  time.Duration
		want int64
	}{{time.Millisecond, 1}, {time.Second, 1}, {1500 * time.Millisecond, 2}, {10 * time.Second, 10}} {
		if got := seconds(c.ttl); got != c.want {
			t.Errorf("seconds(%s) = %d, want %d", c.ttl, got, c.want)
		}
	}
}

func TestNoMemberAnswersNamesEachAndNeverThePassword(t *testing.T) {
	u, err := ParseURL("etcd://root:pw-secret@127.0.0.1:1,127.0.0.1:2/x")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err = Open(u, time.Second)
	if err == nil {
		t.Fatal("opened with no member listening")
	}
	msg := err.Error()
	for _, want := range []string{"etcd cluster 127.0.0.1:1,127.0.0.1:2", "127.0.0.1:1: connection refused", "127.0.0.1:2: connection refused"} {
		if !strings.Contains(msg, want) {
			t.Errorf("%q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, "pw-secret") || errs.KindOf(err) != errs.ErrWorker {
		t.Errorf("%q: want ErrWorker without the password", msg)
	}
	if took := time.Since(start); took > 4*time.Second {
		t.Errorf("took %s", took)
	}
}

func TestTransientAnswersAreTriedElsewhere(t *testing.T) {
	for _, c := range []struct {
		e    rpcError
		want bool
	}{
		{rpcError{Code: 14, Msg: "etcdserver: request timed out"}, true},
		{rpcError{Code: 2, Msg: "etcdserver: leader changed"}, true},
		{rpcError{Code: 7, Msg: "etcdserver: permission denied"}, false},
		{rpcError{Code: 5, Msg: "etcdserver: requested lease not found"}, false},
	} {
		if got := c.e.transient(); got != c.want {
			t.Errorf("%q transient = %v", c.e.Msg, got)
		}
	}
	// A context already over: the call fails at once, naming the member.
	u, _ := ParseURL("etcd://127.0.0.1:1/x")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := newClient(u).read(ctx, "/x/"); err == nil || !strings.Contains(err.Error(), "127.0.0.1:1") {
		t.Errorf("err = %v", err)
	}
}
