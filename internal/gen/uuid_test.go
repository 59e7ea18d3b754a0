package gen

import (
	"bytes"
	"encoding/hex"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/errs"
)

var canonicalV7 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// uuidBytes is the 16 bytes of a canonical UUID (the order PostgreSQL's
// uuid type sorts by: memcmp).
func uuidBytes(t *testing.T, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, "-", ""))
	require.NoError(t, err)
	require.Len(t, b, 16)
	return b
}

func TestUUIDv7DecodesRFC9562Example(t *testing.T) {
	g := openText(t, "preset=uuidv7", clock.NewManualClock(nowMs))
	// RFC 9562 appendix A.6: Tuesday, February 22, 2022 2:22:22.00 PM GMT-05:00.
	for _, s := range []string{"017F22E2-79B0-7CC3-98C4-DC0C0C07398F", "017f22e2-79b0-7cc3-98c4-dc0c0c07398f"} {
		p, err := g.DecodeText(s)
		require.NoError(t, err, s)
		require.Equal(t, TextParts{ID: -1, UnixMs: 1645557742000, Sequence: -1, PID: -1, LoaderHash: -1}, p)
	}
}

func TestUUIDv7DecodeRefusesOtherForms(t *testing.T) {
	g := openText(t, "preset=uuidv7", clock.NewManualClock(nowMs))
	for s, why := range map[string]string{
		"":                                       "canonical",
		"017f22e279b07cc398c4dc0c0c07398f":       "canonical", // no hyphens
		"{017f22e2-79b0-7cc3-98c4-dc0c0c07398f}": "canonical",
		"urn:uuid:017f22e2-79b0-7cc3-98c4-dc0c0c07398f": "canonical",
		" 017f22e2-79b0-7cc3-98c4-dc0c0c07398f":         "canonical",
		"017f22e2-79b0-7cc3-98c4-dc0c0c07398":           "canonical",
		"017f22e279-b0-7cc3-98c4-dc0c0c07398f":          "canonical",
		"017f22e2-79b0-7cc3-98c4-dc0c0c07398g":          "canonical",
		"017f22e2-79b0-+cc3-98c4-dc0c0c07398f":          "canonical",
		"017f22e2-79b0-4cc3-98c4-dc0c0c07398f":          "version 4", // a UUIDv4
		"017f22e2-79b0-6cc3-98c4-dc0c0c07398f":          "version 6",
		"00000000-0000-0000-0000-000000000000":          "version 0", // the nil UUID
		"ffffffff-ffff-ffff-ffff-ffffffffffff":          "version f", // the max UUID
		"017f22e2-79b0-7cc3-c8c4-dc0c0c07398f":          "variant",   // Microsoft's variant
		"017f22e2-79b0-7cc3-78c4-dc0c0c07398f":          "variant",   // NCS
	} {
		_, err := g.DecodeText(s)
		require.ErrorIs(t, err, errs.ErrInvalid, "%q", s)
		require.Contains(t, err.Error(), why, "%q", s)
	}
}

func TestUUIDv7Form(t *testing.T) {
	clk := clock.NewManualClock(nowMs + 7)
	g := openText(t, "preset=uuidv7", clk)
	require.Equal(t, "preset=uuidv7", g.Config())
	require.Equal(t, 36, g.TextLen())
	s := nextText(t, g)
	require.Regexp(t, canonicalV7, s)
	p, err := g.DecodeText(s)
	require.NoError(t, err)
	require.Equal(t, nowMs+7, p.UnixMs, "the clock's millisecond")
	// A buffer one byte short consumes nothing.
	_, err = NextText(g, make([]byte, 35))
	require.ErrorIs(t, err, errs.ErrRange)
	require.Equal(t, int64(nowMs+7), g.LastValue())
}

// 100,000 ids in one millisecond: the counter never overflows into a
// repeat; ids increase as text and as bytes.
func TestUUIDv7OneMillisecond(t *testing.T) {
	g := openText(t, "preset=uuidv7", clock.NewManualClock(nowMs))
	prev := ""
	for i := range 100000 {
		s := nextText(t, g)
		require.True(t, s > prev, "id %d: %s after %s", i, s, prev)
		require.Equal(t, uuidPrefix(nowMs), s[:13])
		prev = s
	}
}

// uuidPrefix is the text of a UUID's 48-bit time field (and its hyphen).
func uuidPrefix(ms int64) string {
	var b [36]byte
	putUUID(b[:], uint64(ms)<<16, 0)
	return string(b[:13])
}

// A counter at its end waits for the next millisecond, never wraps.
func TestUUIDv7CounterOverflowWaits(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := openText(t, "preset=uuidv7", clk).(*uuidGen)
	before := nextText(t, g)
	g.state.w.Store(uint64(nowMs)<<v7CounterBits | v7CounterMax)
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
		t.Fatalf("an overflowing counter gave %s without waiting", s)
	case <-time.After(50 * time.Millisecond):
	}
	clk.Add(time.Millisecond)
	s := <-got
	require.Equal(t, uuidPrefix(nowMs+1), s[:13])
	require.Greater(t, s, before)
}

// Every UUID carries fresh random bits: the low 56 are distinct and each
// of them is set in about half of the ids.
func TestUUIDv7RandomBits(t *testing.T) {
	g := openText(t, "preset=uuidv7", clock.NewManualClock(nowMs))
	const n = 4000
	seen := map[uint64]bool{}
	var ones [56]int
	for range n {
		b := uuidBytes(t, nextText(t, g))
		var low uint64
		for _, x := range b[9:] {
			low = low<<8 | uint64(x)
		}
		require.False(t, seen[low], "random bits repeat")
		seen[low] = true
		for i := range 56 {
			ones[i] += int(low >> i & 1)
		}
	}
	for i, k := range ones {
		require.InDelta(t, n/2, k, n/8, "bit %d is set in %d of %d ids", i, k, n)
	}
	// The counter is re-seeded at random each millisecond: 64 new
	// milliseconds do not all start at the same value.
	clk := clock.NewManualClock(nowMs)
	g2 := openText(t, "preset=uuidv7", clk)
	starts := map[string]bool{}
	for range 64 {
		clk.Add(time.Millisecond)
		starts[nextText(t, g2)[14:21]] = true
	}
	require.Greater(t, len(starts), 32)
}

// 8 threads × 125,000 ids: all distinct, strictly increasing per thread,
// and the text order of all of them is their byte order.
func TestUUIDv7Threads(t *testing.T) {
	g := openText(t, "preset=uuidv7", nil)
	const threads, per = 8, 125000
	out := make([][]string, threads)
	var wg sync.WaitGroup
	for k := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 36)
			ids := make([]string, per)
			for i := range ids {
				n, err := NextText(g, buf)
				if err != nil {
					t.Error(err)
					return
				}
				ids[i] = string(buf[:n])
			}
			out[k] = ids
		}()
	}
	wg.Wait()
	all := make([]string, 0, threads*per)
	for _, ids := range out {
		require.True(t, sort.StringsAreSorted(ids) && len(ids) == per)
		for i := 1; i < len(ids); i++ {
			require.NotEqual(t, ids[i-1], ids[i])
		}
		all = append(all, ids...)
	}
	sort.Strings(all)
	for i := 1; i < len(all); i++ {
		require.NotEqual(t, all[i-1], all[i], "a repeat")
	}
	for i := 1; i < len(all); i += 997 {
		require.Negative(t, bytes.Compare(uuidBytes(t, all[i-1]), uuidBytes(t, all[i])))
	}
}

func TestTextPresetsRefuseNumericCalls(t *testing.T) {
	for _, p := range []string{"uuidv7", "ulid"} {
		g := openText(t, "preset="+p, clock.NewManualClock(nowMs))
		_, err := g.Next()
		require.ErrorIs(t, err, errs.ErrInvalid)
		require.Contains(t, err.Error(), "text preset "+p+": use idgen_next_text")
		require.ErrorIs(t, g.NextBatch(make([]int64, 2)), errs.ErrInvalid)
		_, err = g.Decode(1)
		require.ErrorIs(t, err, errs.ErrInvalid)
		_, err = g.Compose(Parts{})
		require.ErrorIs(t, err, errs.ErrInvalid)
		require.NoError(t, g.Close())
		require.NoError(t, g.Close())
		_, err = NextText(g, make([]byte, 64))
		require.ErrorIs(t, err, errs.ErrClosed)
		_, err = g.Next()
		require.ErrorIs(t, err, errs.ErrClosed)
	}
}

func TestTextPresetsRefuseKeysAndOldClocks(t *testing.T) {
	for _, p := range []string{"uuidv7", "ulid"} {
		_, err := OpenString("preset=" + p + " worker=3")
		require.ErrorIs(t, err, errs.ErrInvalid)
		require.Contains(t, err.Error(), "worker: does not apply to text preset "+p)
		g := openText(t, "preset="+p, clock.NewManualClock(-5))
		_, err = NextText(g, make([]byte, 64))
		require.ErrorIs(t, err, errs.ErrTimeOverflow, "before 1970")
		g = openText(t, "preset="+p, clock.NewManualClock(1<<46))
		_, err = NextText(g, make([]byte, 64))
		require.ErrorIs(t, err, errs.ErrTimeOverflow, "past 4199")
	}
}

func FuzzUUIDv7Decode(f *testing.F) {
	f.Add("017f22e2-79b0-7cc3-98c4-dc0c0c07398f")
	f.Add("017F22E2-79B0-7CC3-98C4-DC0C0C07398F")
	f.Add("017f22e2-79b0-4cc3-98c4-dc0c0c07398f")
	f.Fuzz(func(t *testing.T, s string) {
		p, err := decodeUUIDv7(s)
		if err != nil {
			require.ErrorIs(t, err, errs.ErrInvalid)
			return
		}
		// What decodes is canonical: written back, it is s in lower case.
		hi, lo, _ := parseUUID(s)
		var b [36]byte
		putUUID(b[:], hi, lo)
		require.Equal(t, strings.ToLower(s), string(b[:]))
		require.Equal(t, int64(hi>>16), p.UnixMs)
		require.Less(t, p.UnixMs, int64(1)<<48)
	})
}
