package gen

// preset=uuidv7: RFC 9562 version-7 UUIDs in the canonical 36-character
// lower-case form.
//
//	bits 127..80  unix_ms   48 bits, idgen's clock (never goes back)
//	bits  79..76  version   0111
//	bits  75..64  counter   the counter's high 12 bits (rand_a)
//	bits  63..62  variant   10
//	bits  61..56  counter   the counter's low 6 bits
//	bits  55..0   random    56 fresh random bits in every UUID
//
// The counter is RFC 9562 §6.2's "fixed bit-length dedicated counter"
// (method 1), 18 bits wide. Why 18: the millisecond and the counter share
// one 64-bit state word (46 bits of ms, enough until the year 4199, and
// 18 of counter), so every id is reserved by one compare-and-swap, lock
// free, from any number of threads. The counter is re-seeded at random
// each millisecond with its top bit clear (RFC 9562's guard against
// early rollover), which leaves at least 2^17 = 131,072 ids per
// millisecond, 131 million a second, before it would overflow — far more
// than one generator issues (measured here: some 30 million a second from
// two threads, docs/BENCHMARKS.md); if it ever does overflow, the generator
// waits for the next millisecond, it never wraps. Wider counters (42 bits
// in uuid-rs and LiosK/uuidv7) would need a lock or a 128-bit state; a
// narrower one (PostgreSQL 18's 12 bits of sub-millisecond time) would
// spend bits on a precision the clock reading does not have. The other
// 56 bits (of the 74 that are not version or variant) are random in every
// UUID, well above the 32 this project promises.
//
// Sequence exhaustion: waits for the next millisecond. Clock regression:
// cannot happen with idgen's clock; an injected clock that steps back
// keeps the last millisecond and counts on. Time overflow: ErrTimeOverflow
// past 4199 (the state word's 46 bits of ms).

import (
	"encoding/binary"
	"sync/atomic"

	"github.com/idgen/idgen/internal/layout"
)

const (
	v7CounterBits = 18
	v7CounterMax  = 1<<v7CounterBits - 1
	v7SeedMask    = 1<<(v7CounterBits-1) - 1 // a seed with the top bit clear
	v7RandMask    = 1<<56 - 1
	uuidLen       = 36
)

// uuidGen makes uuidv7 ids; see the file comment.
type uuidGen struct {
	randText
	state  paddedWord // ms<<v7CounterBits | counter of the last id; 0 before it
	issued tally      // its v is the counter: it moves by one but at a new ms
}

// paddedWord keeps the hot state word on a cache line of its own.
type paddedWord struct {
	_ [56]byte
	w atomic.Uint64
	_ [56]byte
}

func newUUIDv7(sh *shape) *uuidGen {
	g := &uuidGen{}
	g.init(sh)
	return g
}

// TextLen is the length of a UUID's canonical form.
func (g *uuidGen) TextLen() int { return uuidLen }

// reserve takes the next (ms, counter) with one compare-and-swap.
func (g *uuidGen) reserve() (uint64, error) {
	precise := false
	for {
		if g.closed.Load() {
			return 0, errClosed
		}
		now, err := g.nowMs(precise)
		if err != nil {
			return 0, err
		}
		old := g.state.w.Load()
		last := old >> v7CounterBits
		var next uint64
		switch {
		case uint64(now) > last:
			next = uint64(now)<<v7CounterBits | g.rnd()&v7SeedMask
		case old&v7CounterMax < v7CounterMax:
			next = old + 1
		default:
			if err := g.waitPast(int64(last)); err != nil {
				return 0, err
			}
			precise = true
			continue
		}
		if g.issued.swap(&g.state.w, old, next, int64(old&v7CounterMax), int64(next&v7CounterMax), 1) {
			return next, nil
		}
	}
}

// NextText writes the next UUID; dst holds at least 36 bytes.
func (g *uuidGen) NextText(dst []byte) (int, error) {
	st, err := g.reserve()
	if err != nil {
		return 0, err
	}
	hi, lo := g.bits(st)
	putUUID(dst, hi, lo)
	return uuidLen, nil
}

// NextUUIDs fills out, a multiple of 16 bytes, with the next UUIDs in
// RFC 9562's byte order (big-endian), each its own reservation: the ones
// NextText would give, strictly increasing (UUIDMaker).
func (g *uuidGen) NextUUIDs(out []byte) error {
	for i := 0; i+16 <= len(out); i += 16 {
		st, err := g.reserve()
		if err != nil {
			return err
		}
		hi, lo := g.bits(st)
		binary.BigEndian.PutUint64(out[i:], hi)
		binary.BigEndian.PutUint64(out[i+8:], lo)
	}
	return nil
}

// bits is the UUID of reservation st, its high and low 64 bits.
func (g *uuidGen) bits(st uint64) (hi, lo uint64) {
	ms, ctr := st>>v7CounterBits, st&v7CounterMax
	return ms<<16 | 7<<12 | ctr>>6, 2<<62 | (ctr&63)<<56 | g.rnd()&v7RandMask
}

// LastValue is the unix ms of the last id.
func (g *uuidGen) LastValue() int64 { return int64(g.state.w.Load() >> v7CounterBits) }

const lowerHex = "0123456789abcdef"

// lowerHex8 is x as 8 lower-case hex digits, the first in the top byte: each
// nibble spread into a byte of its own, then turned into ASCII ('0'+n, or
// 'a'+n-10 where n >= 10) in all eight bytes at once.
func lowerHex8(x uint32) uint64 {
	v := uint64(x)
	v = (v | v<<16) & 0x0000ffff0000ffff
	v = (v | v<<8) & 0x00ff00ff00ff00ff
	v = (v | v<<4) & 0x0f0f0f0f0f0f0f0f
	letters := (v + 0x0606060606060606) >> 4 & 0x0101010101010101
	return v + 0x3030303030303030 + letters*('a'-'0'-10)
}

// putUUID writes hi:lo as 8-4-4-4-12 lower-case hex into dst[:36].
func putUUID(dst []byte, hi, lo uint64) {
	d := dst[:uuidLen]
	be := binary.BigEndian
	be.PutUint64(d[0:], lowerHex8(uint32(hi>>32)))
	h := lowerHex8(uint32(hi))
	be.PutUint32(d[9:], uint32(h>>32))
	be.PutUint32(d[14:], uint32(h))
	h = lowerHex8(uint32(lo >> 32))
	be.PutUint32(d[19:], uint32(h>>32))
	be.PutUint32(d[24:], uint32(h))
	be.PutUint64(d[28:], lowerHex8(uint32(lo)))
	d[8], d[13], d[18], d[23] = '-', '-', '-', '-'
}

// parseUUID reads the canonical 36-character form, hex in either case.
func parseUUID(s string) (hi, lo uint64, ok bool) {
	if len(s) != uuidLen || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return 0, 0, false
	}
	n := 0
	for i := range uuidLen {
		if i == 8 || i == 13 || i == 18 || i == 23 {
			continue
		}
		d, ok := layout.HexDigit(s[i])
		if !ok {
			return 0, 0, false
		}
		if n < 16 {
			hi = hi<<4 | uint64(d)
		} else {
			lo = lo<<4 | uint64(d)
		}
		n++
	}
	return hi, lo, true
}

// DecodeText reads any version-7 UUID of the RFC variant: its unix ms.
func (g *uuidGen) DecodeText(s string) (TextParts, error) {
	return decodeUUIDv7(s)
}

func decodeUUIDv7(s string) (TextParts, error) {
	hi, lo, ok := parseUUID(s)
	switch {
	case !ok:
		return TextParts{}, badText("uuidv7", s, "the canonical form: 36 characters, 8-4-4-4-12 hex digits and hyphens")
	case hi>>12&15 != 7:
		return TextParts{}, badText("uuidv7", s, "version 7 (the 13th hex digit); this is version "+string(lowerHex[hi>>12&15]))
	case lo>>62 != 2:
		return TextParts{}, badText("uuidv7", s, "the RFC 9562 variant (the 17th hex digit 8, 9, a or b)")
	}
	return TextParts{ID: -1, UnixMs: int64(hi >> 16), Sequence: -1, PID: -1, LoaderHash: -1}, nil
}

func (g *uuidGen) stats(s *Stats) {
	s.Issued = g.issued.total(&g.state.w, func(st uint64) int64 { return int64(st & v7CounterMax) })
}
