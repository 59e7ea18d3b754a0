package etcdstore

// A counter's key read strictly (tests/fleet/segment_*_test.go run the
// counters against a real cluster).

import (
	"testing"

	"github.com/idgen/idgen/internal/errs"
)

func TestCounterKeyReadStrictly(t *testing.T) {
	u, err := ParseURL("etcd://root:pw-secret@127.0.0.1:1/app")
	if err != nil {
		t.Fatal(err)
	}
	c := &Counters{s: &Store{url: u}, known: map[string]counterAt{}}
	key := CounterKey(u.Root, "orders")
	if key != "/app/segment/orders" {
		t.Fatalf("key %q", key)
	}
	if at, err := c.decode(key, nil); err != nil || at != (counterAt{}) {
		t.Fatalf("a missing key: %v, %v", at, err)
	}
	at, err := c.decode(key, &kv{Value: []byte("idgen-segment 1 9223372036854775807"), ModRevision: 7})
	if err != nil || at != (counterAt{last: 1<<63 - 1, rev: 7}) {
		t.Fatalf("got %v, %v", at, err)
	}
	for _, bad := range []string{"", "idgen-segment 1 ", "idgen-segment 1 -1", "idgen-segment 1 007", "idgen-segment 2 5", "idgen-segment 1 5 ", "idgen-lease 1 5 0", "idgen-segment 1 9223372036854775808"} {
		_, err := c.decode(key, &kv{Value: []byte(bad), ModRevision: 3})
		if errs.KindOf(err) != errs.ErrWorker {
			t.Errorf("%q accepted: %v", bad, err)
		}
	}
}
