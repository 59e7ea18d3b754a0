package gen

// preset=ulid: ULIDs (github.com/ulid/spec), 26 Crockford base32
// characters, upper case: 48 bits of unix ms from idgen's clock, then 80
// bits, random at the first id of a millisecond and +1 for each further
// id in it (the spec's monotonic mode).
//
// Sequence exhaustion: when the 80 bits would pass 2^80-1 inside one
// millisecond (the spec's overflow error), the generator waits for the
// next millisecond instead. Clock regression: cannot happen with idgen's
// clock; an injected clock that steps back keeps the last millisecond and
// counts on. Time overflow: ErrTimeOverflow past the year 4199 (the ms
// range the text presets share; the ULID form itself lasts to 10889).
//
// The 128-bit state (ms and the 80 bits) sits behind a mutex: it does not
// fit one compare-and-swap (see docs/BENCHMARKS.md for what it costs).

import (
	"sync"
)

const (
	ulidLen   = 26
	crockford = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
	rand16    = 1<<16 - 1
)

// ulidGen makes ulid ids; see the file comment.
type ulidGen struct {
	randText
	mu     sync.Mutex
	last   int64  // unix ms of the last id; -1 before it
	hi, lo uint64 // its 80 bits: hi holds the top 16
	issued int64  // ids made (stats)
}

func newULID(sh *shape) *ulidGen {
	g := &ulidGen{last: -1}
	g.init(sh)
	return g
}

// TextLen is the length of a ULID.
func (g *ulidGen) TextLen() int { return ulidLen }

// LastValue is the unix ms of the last id.
func (g *ulidGen) LastValue() int64 { g.mu.Lock(); defer g.mu.Unlock(); return g.last }

// NextText writes the next ULID; dst holds at least 26 bytes.
func (g *ulidGen) NextText(dst []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if err := g.advance(); err != nil {
		return 0, err
	}
	putULID(dst, uint64(g.last)<<16|g.hi, g.lo)
	g.issued++
	return ulidLen, nil
}

// advance moves the state to the next id (holding mu): a new random value
// in a new millisecond, else +1, else (all 80 bits set) the next ms.
func (g *ulidGen) advance() error {
	precise := false
	for {
		if g.closed.Load() {
			return errClosed
		}
		now, err := g.nowMs(precise)
		if err != nil {
			return err
		}
		switch {
		case now > g.last:
			g.last, g.hi, g.lo = now, g.rnd()&rand16, g.rnd()
			return nil
		case g.lo != ^uint64(0):
			g.lo++
			return nil
		case g.hi != rand16:
			g.hi, g.lo = g.hi+1, 0
			return nil
		}
		if err := g.waitPast(g.last); err != nil {
			return err
		}
		precise = true
	}
}

// putULID writes the 128 bits hi:lo as 26 base32 digits into dst[:26]:
// the first digit holds the top 3 bits, each other one 5.
func putULID(dst []byte, hi, lo uint64) {
	_ = dst[25]
	for i := 25; i >= 0; i-- {
		dst[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
}

// crockDigit maps a byte to its base32 value, either case; 0xff for
// everything else, the letters I, L, O and U included.
var crockDigit = func() (t [256]byte) {
	for i := range t {
		t[i] = 0xff
	}
	for i := range len(crockford) {
		c := crockford[i]
		t[c] = byte(i)
		if c >= 'A' {
			t[c+'a'-'A'] = byte(i)
		}
	}
	return t
}()

// parseULID reads 26 base32 digits, at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ.
func parseULID(s string) (hi, lo uint64, why string) {
	if len(s) != ulidLen {
		return 0, 0, "26 characters"
	}
	for i := range ulidLen {
		d := crockDigit[s[i]]
		if d == 0xff {
			return 0, 0, "Crockford base32 digits only (0-9 and A-Z without I, L, O, U; either case)"
		}
		if i == 0 && d > 7 {
			return 0, 0, "at most 7ZZZZZZZZZZZZZZZZZZZZZZZZZ (128 bits)"
		}
		hi = hi<<5 | lo>>59
		lo = lo<<5 | uint64(d)
	}
	return hi, lo, ""
}

// DecodeText reads a ULID: its unix ms.
func (g *ulidGen) DecodeText(s string) (TextParts, error) {
	hi, _, why := parseULID(s)
	if why != "" {
		return TextParts{}, badText("ulid", s, why)
	}
	return TextParts{ID: -1, UnixMs: int64(hi >> 16), Sequence: -1, PID: -1, LoaderHash: -1}, nil
}

func (g *ulidGen) stats(s *Stats) {
	g.mu.Lock()
	s.Issued = g.issued
	g.mu.Unlock()
}
