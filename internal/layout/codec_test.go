package layout

import (
	"math"
	"sort"
	"strconv"
	"testing"

	"github.com/idgen/idgen/internal/errs"

	"github.com/stretchr/testify/require"
)

func TestFormatParseTable(t *testing.T) {
	tests := []struct {
		id    int64
		base  int
		fixed bool
		text  string
	}{
		{0, 10, false, "0"},
		{0, 62, true, "00000000000"},
		{0, 36, true, "0000000000000"},
		{35, 36, false, "z"},
		{61, 62, false, "z"},
		{36, 62, false, "a"},
		{10, 62, false, "A"},
		{math.MaxInt64, 62, false, "AzL8n0Y58m7"},
		{math.MaxInt64, 36, false, "1y2p0ij32e8e7"},
		{math.MaxInt64, 2, false, "111111111111111111111111111111111111111111111111111111111111111"},
		{910499571847892992, 10, false, "910499571847892992"},
		{255, 16, true, "00000000000000ff"},
	}
	for _, tt := range tests {
		got, err := FormatID(tt.id, tt.base, tt.fixed)
		require.NoError(t, err)
		require.Equal(t, tt.text, got)
		back, err := ParseID(tt.text, tt.base)
		require.NoError(t, err)
		require.Equal(t, tt.id, back)
	}
	require.Equal(t, 11, FixedWidth(62))
	require.Equal(t, 13, FixedWidth(36))
}

func TestFormatMatchesStrconvUpToBase36(t *testing.T) {
	for base := 2; base <= 36; base++ {
		for _, v := range []int64{0, 1, 7, 1 << 40, 910499571847892992, math.MaxInt64} {
			s, err := FormatID(v, base, false)
			require.NoError(t, err)
			require.Equal(t, strconv.FormatInt(v, base), s)
		}
	}
}

func TestFixedWidthStringsSortLikeNumbers(t *testing.T) {
	for _, base := range []int{36, 62} {
		ids := []int64{5, 61, 62, 3843, 1 << 33, 910499571847892992, math.MaxInt64, 0, 1 << 62}
		texts := make([]string, len(ids))
		for i, id := range ids {
			texts[i], _ = FormatID(id, base, true)
			require.Len(t, texts[i], FixedWidth(base))
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		sort.Strings(texts)
		for i := range ids {
			back, err := ParseID(texts[i], base)
			require.NoError(t, err)
			require.Equal(t, ids[i], back)
		}
	}
}

func TestCodecErrors(t *testing.T) {
	for _, tt := range []struct {
		text string
		base int
		want error
	}{
		{"", 62, errs.ErrInvalid},
		{"abc", 1, errs.ErrInvalid},
		{"abc", 63, errs.ErrInvalid},
		{"-1", 10, errs.ErrInvalid},
		{"+1", 10, errs.ErrInvalid},
		{"12 ", 10, errs.ErrInvalid},
		{"1A", 36, errs.ErrInvalid}, // upper case is not canonical base 36
		{"19", 8, errs.ErrInvalid},
		{"é", 62, errs.ErrInvalid},
		{"9223372036854775808", 10, errs.ErrRange},
		{"AzL8n0Y58m8", 62, errs.ErrRange},
		{"zzzzzzzzzzzzzzzzzzzzzzzz", 62, errs.ErrRange},
	} {
		_, err := ParseID(tt.text, tt.base)
		require.ErrorIs(t, err, tt.want, "%q base %d", tt.text, tt.base)
	}
	_, err := FormatID(-5, 62, false)
	require.ErrorIs(t, err, errs.ErrInvalid)
	_, err = FormatID(5, 0, false)
	require.ErrorIs(t, err, errs.ErrInvalid)
	v, err := ParseID("0000000000000000000000000000001", 10)
	require.NoError(t, err, "leading zeros are fine")
	require.Equal(t, int64(1), v)
}

func TestAppendIDDoesNotAllocate(t *testing.T) {
	buf := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(100, func() { _, _ = AppendID(buf[:0], 910499571847892992, 62, true) })
	require.Zero(t, allocs)
}

func FuzzCodec(f *testing.F) {
	f.Add(int64(0), 62, true, "0")
	f.Add(int64(math.MaxInt64), 36, false, "1y2p0ij32e8e7")
	f.Add(int64(910499571847892992), 2, true, "zz")
	f.Fuzz(func(t *testing.T, id int64, base int, fixed bool, text string) {
		s, err := FormatID(id, base, fixed)
		if err == nil {
			back, err := ParseID(s, base)
			require.NoError(t, err)
			require.Equal(t, id, back)
		} else {
			require.True(t, id < 0 || base < 2 || base > 62)
		}
		if v, err := ParseID(text, base); err == nil {
			require.GreaterOrEqual(t, v, int64(0))
			s, err := FormatID(v, base, false)
			require.NoError(t, err)
			// The canonical text is the input without its leading zeros.
			trimmed := text
			for len(trimmed) > 1 && trimmed[0] == '0' {
				trimmed = trimmed[1:]
			}
			require.Equal(t, trimmed, s)
		}
	})
}
