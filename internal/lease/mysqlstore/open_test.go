package mysqlstore

import (
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

func parse(t *testing.T, raw string) *storeurl.StoreURL {
	t.Helper()
	u, err := ParseURL(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// Nothing listens: refused at once, naming host and port, never the
// password.
func TestOpenRefusedSaysSo(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	start := time.Now()
	_, err = Open(parse(t, "mysql://idgen:pw-s3cret@"+addr+"/idgen"), "", time.Second)
	if !errors.Is(err, errs.ErrWorker) {
		t.Fatalf("want ErrWorker, got %v", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, addr) || !strings.Contains(msg, "connection refused") || strings.Contains(msg, "pw-s3cret") {
		t.Fatalf("message %q", msg)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("refused took %s", took)
	}
}

// A server that accepts and never answers: Open gives up within lease_ttl
// plus a few seconds.
func TestOpenSilentServerIsBounded(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			defer c.Close() // held open, silent
		}
	}()
	start := time.Now()
	_, err = Open(parse(t, "mariadb://idgen:pw-s3cret@"+l.Addr().String()+"/idgen"), "", 500*time.Millisecond)
	took := time.Since(start)
	if !errors.Is(err, errs.ErrWorker) || !strings.Contains(err.Error(), "no answer in time") || strings.Contains(err.Error(), "pw-s3cret") {
		t.Fatalf("got %v", err)
	}
	if took > 5*time.Second {
		t.Fatalf("a silent server held Open for %s", took)
	}
}

// The expiry the server computes is the buckets' specification.
func TestExpirySQLIsTheBucketFormula(t *testing.T) {
	s := &Store{ttl: 2 * time.Second}
	want := "TIMESTAMPADD(MICROSECOND, ((" + nowSQL + " + 2000) DIV 500 + 1) * 500 * 1000, '1970-01-01 00:00:00')"
	if got := s.expirySQL(); got != want {
		t.Fatalf("expirySQL:\n got %s\nwant %s", got, want)
	}
	if Expiry(1_000_100, 2*time.Second) != 1_002_500 {
		t.Fatal("Expiry")
	}
}
