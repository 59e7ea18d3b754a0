package peers

// The uuidv7 and ulid presets against the Go peers: github.com/google/uuid
// and github.com/oklog/ulid/v2 read idgen's ids, and idgen reads theirs
// (each to the peer's own time); both accept and refuse the same text.

import (
	"crypto/rand"
	mrand "math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/idgen/idgen"
	"github.com/oklog/ulid/v2"
)

func nextText(t *testing.T, g *idgen.Generator) string {
	t.Helper()
	s, err := g.NextText()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func decodedMs(t *testing.T, g *idgen.Generator, s string) int64 {
	t.Helper()
	p, err := g.DecodeText(s)
	if err != nil {
		t.Fatalf("idgen cannot decode %s: %v", s, err)
	}
	return p.UnixMs
}

func TestUUIDv7WithGoogleUUID(t *testing.T) {
	g := mustOpen(t, "preset=uuidv7")
	var prev uuid.UUID
	for i := range 20000 {
		s := nextText(t, g)
		u, err := uuid.Parse(s)
		if err != nil || u.Version() != 7 || u.Variant() != uuid.RFC4122 || u.String() != s {
			t.Fatalf("google/uuid reads %s as %v version %d variant %v (%v)", s, u, u.Version(), u.Variant(), err)
		}
		sec, nsec := u.Time().UnixTime()
		if ms := sec*1000 + nsec/1e6; ms != decodedMs(t, g, s) {
			t.Fatalf("%s: google/uuid's time %d ms, idgen's %d", s, ms, decodedMs(t, g, s))
		}
		if i > 0 && strings.Compare(prev.String(), s) >= 0 {
			t.Fatalf("%s does not follow %s", s, prev)
		}
		prev = u
	}
	// google/uuid's own version-7 UUIDs decode in idgen, in either case.
	for range 1000 {
		u := uuid.Must(uuid.NewV7())
		sec, nsec := u.Time().UnixTime()
		for _, s := range []string{u.String(), strings.ToUpper(u.String())} {
			if ms := decodedMs(t, g, s); ms != sec*1000+nsec/1e6 {
				t.Fatalf("%s: idgen reads %d ms, google/uuid %d", s, ms, sec*1000+nsec/1e6)
			}
		}
	}
	// Other versions are refused.
	for _, u := range []uuid.UUID{uuid.New(), uuid.Must(uuid.NewV6()), uuid.Must(uuid.NewUUID()), uuid.Nil, uuid.Max} {
		if _, err := g.DecodeText(u.String()); err == nil {
			t.Fatalf("idgen decoded version %d UUID %s as a UUIDv7", u.Version(), u)
		}
	}
}

func TestULIDWithOklog(t *testing.T) {
	g := mustOpen(t, "preset=ulid")
	prev := ulid.ULID{}
	for range 20000 {
		s := nextText(t, g)
		u, err := ulid.ParseStrict(s)
		if err != nil || u.String() != s {
			t.Fatalf("oklog/ulid reads %s as %v (%v)", s, u, err)
		}
		if int64(u.Time()) != decodedMs(t, g, s) {
			t.Fatalf("%s: oklog's time %d ms, idgen's %d", s, u.Time(), decodedMs(t, g, s))
		}
		if u.Compare(prev) <= 0 {
			t.Fatalf("%s does not follow %s", u, prev)
		}
		prev = u
	}
	// oklog's own monotonic ULIDs decode in idgen to oklog's time.
	entropy := ulid.Monotonic(rand.Reader, 0)
	for i := range 1000 {
		at := time.Now().Add(time.Duration(i) * time.Hour)
		u := ulid.MustNew(ulid.Timestamp(at), entropy)
		for _, s := range []string{u.String(), strings.ToLower(u.String())} {
			if ms := decodedMs(t, g, s); ms != int64(u.Time()) {
				t.Fatalf("%s: idgen reads %d ms, oklog %d", s, ms, u.Time())
			}
		}
	}
}

// idgen accepts exactly the text oklog's ParseStrict accepts: random
// mutations of a real ULID (a letter changed, I/L/O/U, a first digit
// past 7, a length off by one).
func TestULIDSameRefusalsAsOklog(t *testing.T) {
	g := mustOpen(t, "preset=ulid")
	r := mrand.New(mrand.NewPCG(1, 2))
	alphabet := "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz-_ "
	good := nextText(t, g)
	for range 50000 {
		b := []byte(good)
		b[r.IntN(len(b))] = alphabet[r.IntN(len(alphabet))]
		s := string(b)
		switch r.IntN(10) {
		case 0:
			s = s[:25]
		case 1:
			s += "0"
		}
		_, theirs := ulid.ParseStrict(s)
		_, ours := g.DecodeText(s)
		if (theirs == nil) != (ours == nil) {
			t.Fatalf("%q: oklog says %v, idgen says %v", s, theirs, ours)
		}
	}
	// The largest ULID and one past it.
	if decodedMs(t, g, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ") != 1<<48-1 {
		t.Fatal("7ZZZZZZZZZZZZZZZZZZZZZZZZZ is the largest ULID")
	}
	if _, err := g.DecodeText("80000000000000000000000000"); err == nil {
		t.Fatal("80000000000000000000000000 is past 128 bits")
	}
}

// UUIDv7 and ULID as text beside the peers making the same (make bench).
func benchText(b *testing.B, config string) {
	g, err := idgen.Open(config)
	if err != nil {
		b.Fatal(err)
	}
	defer g.Close()
	buf := make([]byte, 0, g.TextLen())
	b.ReportAllocs()
	for b.Loop() {
		if _, err := g.AppendText(buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkIdgenUUIDv7Text(b *testing.B) { benchText(b, "preset=uuidv7") }

func BenchmarkGoogleUUIDv7Text(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = uuid.Must(uuid.NewV7()).String()
	}
}

func BenchmarkIdgenULIDText(b *testing.B) { benchText(b, "preset=ulid") }

func BenchmarkOklogULIDText(b *testing.B) {
	entropy := ulid.Monotonic(rand.Reader, 0)
	b.ReportAllocs()
	for b.Loop() {
		_ = ulid.MustNew(ulid.Now(), entropy).String()
	}
}
