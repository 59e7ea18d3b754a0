package gen

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/errs"
)

var canonicalULID = regexp.MustCompile(`^[0-7][0-9A-HJKMNP-TV-Z]{25}$`)

func TestULIDDecodesSpecExamples(t *testing.T) {
	g := openText(t, "preset=ulid", clock.NewManualClock(nowMs))
	for s, ms := range map[string]int64{
		"01ARZ3NDEKTSV4RRFFQ69G5FAV": 1469922850259, // the spec's README
		"01arz3ndektsv4rrffq69g5fav": 1469922850259, // either case
		"01BX5ZZKBKACTAV9WEVGEMMVRZ": 1508808576371, // oklog/ulid's README
		"00000000000000000000000000": 0,
		"7ZZZZZZZZZZZZZZZZZZZZZZZZZ": 1<<48 - 1, // the largest ULID
	} {
		p, err := g.DecodeText(s)
		require.NoError(t, err, s)
		require.Equal(t, TextParts{ID: -1, UnixMs: ms, Sequence: -1, PID: -1, LoaderHash: -1}, p, s)
	}
}

func TestULIDDecodeRefusesOtherForms(t *testing.T) {
	g := openText(t, "preset=ulid", clock.NewManualClock(nowMs))
	for s, why := range map[string]string{
		"":                            "26 characters",
		"01ARZ3NDEKTSV4RRFFQ69G5FA":   "26 characters",
		"01ARZ3NDEKTSV4RRFFQ69G5FAVV": "26 characters",
		"8ZZZZZZZZZZZZZZZZZZZZZZZZZ":  "at most 7ZZZ",
		"ZZZZZZZZZZZZZZZZZZZZZZZZZZ":  "at most 7ZZZ",
		"01ARZ3NDEKTSV4RRFFQ69G5FAI":  "without I, L, O, U",
		"01ARZ3NDEKTSV4RRFFQ69G5FAL":  "without I, L, O, U",
		"01ARZ3NDEKTSV4RRFFQ69G5FAO":  "without I, L, O, U",
		"01ARZ3NDEKTSV4RRFFQ69G5FAu":  "without I, L, O, U",
		"01ARZ3NDEKTSV4RRFFQ69G5FA-":  "without I, L, O, U",
		" 1ARZ3NDEKTSV4RRFFQ69G5FAV":  "without I, L, O, U",
	} {
		_, err := g.DecodeText(s)
		require.ErrorIs(t, err, errs.ErrInvalid, "%q", s)
		require.Contains(t, err.Error(), why, "%q", s)
	}
}

// parseULID and putULID are inverses on every 128-bit value.
func TestULIDCodecRoundTrips(t *testing.T) {
	for _, v := range [][2]uint64{{0, 0}, {1, 0}, {0, 1}, {^uint64(0), ^uint64(0)}, {0x0123456789abcdef, 0xfedcba9876543210}} {
		var b [26]byte
		putULID(b[:], v[0], v[1])
		require.Regexp(t, canonicalULID, string(b[:]))
		hi, lo, why := parseULID(string(b[:]))
		require.Empty(t, why)
		require.Equal(t, v, [2]uint64{hi, lo})
	}
}

// Random at the first id of a millisecond, +1 after; a new millisecond
// draws new random bits.
func TestULIDMonotonicWithinMillisecond(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := openText(t, "preset=ulid", clk).(*ulidGen)
	require.Equal(t, "preset=ulid", g.Config())
	prev := ""
	var hi0, lo0 uint64
	for i := range 100000 {
		s := nextText(t, g)
		require.Regexp(t, canonicalULID, s)
		require.Greater(t, s, prev)
		hi, lo, why := parseULID(s)
		require.Empty(t, why)
		require.Equal(t, uint64(nowMs), hi>>16)
		if i == 0 {
			hi0, lo0 = hi, lo
		}
		require.Equal(t, lo0+uint64(i), lo, "id %d is the first one + %d", i, i) // lo0 < 2^64-1e5 but for 1 in 10^14
		require.Equal(t, hi0, hi)
		prev = s
	}
	clk.Add(time.Millisecond)
	s := nextText(t, g)
	hi, lo, _ := parseULID(s)
	require.Equal(t, uint64(nowMs+1), hi>>16)
	require.NotEqual(t, lo0+100000, lo, "a new millisecond starts at a new random value")
}

// The +1 carries from the low 64 bits into the high 16; all 80 bits set
// wait for the next millisecond.
func TestULIDCarryAndOverflow(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := openText(t, "preset=ulid", clk).(*ulidGen)
	nextText(t, g)
	g.mu.Lock()
	g.hi, g.lo = 5, ^uint64(0)
	g.mu.Unlock()
	hi, lo, _ := parseULID(nextText(t, g))
	require.Equal(t, [2]uint64{uint64(nowMs)<<16 | 6, 0}, [2]uint64{hi, lo})

	g.mu.Lock()
	g.hi, g.lo = rand16, ^uint64(0)
	g.mu.Unlock()
	var full [26]byte // the id the state stands at
	putULID(full[:], uint64(nowMs)<<16|rand16, ^uint64(0))
	got := make(chan string)
	go func() { // no require off the test goroutine: an error is sent as text
		buf := make([]byte, 64)
		n, err := NextText(g, buf)
		if err != nil {
			got <- err.Error()
			return
		}
		got <- string(buf[:n])
	}()
	select {
	case s := <-got:
		t.Fatalf("an overflowing ULID gave %s without waiting", s)
	case <-time.After(50 * time.Millisecond):
	}
	clk.Add(time.Millisecond)
	s := <-got
	hi, _, _ = parseULID(s)
	require.Equal(t, uint64(nowMs+1), hi>>16)
	require.Greater(t, s, string(full[:]))
}

func FuzzULIDDecode(f *testing.F) {
	f.Add("01ARZ3NDEKTSV4RRFFQ69G5FAV")
	f.Add("7zzzzzzzzzzzzzzzzzzzzzzzzz")
	f.Add("8ZZZZZZZZZZZZZZZZZZZZZZZZZ")
	f.Fuzz(func(t *testing.T, s string) {
		hi, lo, why := parseULID(s)
		if why != "" {
			return
		}
		// What decodes is canonical: written back, it is s in upper case.
		var b [26]byte
		putULID(b[:], hi, lo)
		require.Equal(t, strings.ToUpper(s), string(b[:]))
	})
}
