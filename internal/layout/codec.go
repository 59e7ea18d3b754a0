package layout

import (
	"math"

	"github.com/idgen/idgen/internal/errs"
)

const (
	alphaLower = "0123456789abcdefghijklmnopqrstuvwxyz"
	alphaMixed = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
)

// alphabet is 0-9a-z for bases up to 36 and 0-9A-Za-z above: both in ASCII
// order, so equal-width strings sort like the numbers.
func alphabet(base int) string {
	if base <= 36 {
		return alphaLower[:base]
	}
	return alphaMixed[:base]
}

// decodeTable maps a byte to its digit value per alphabet, 0xff for none.
var decodeLower, decodeMixed [256]byte

func init() {
	for i := range decodeLower {
		decodeLower[i], decodeMixed[i] = 0xff, 0xff
	}
	for i := 0; i < len(alphaLower); i++ {
		decodeLower[alphaLower[i]] = byte(i)
	}
	for i := 0; i < len(alphaMixed); i++ {
		decodeMixed[alphaMixed[i]] = byte(i)
	}
}

func checkBase(base int) error {
	if base < 2 || base > 62 {
		return errs.New(errs.ErrInvalid, "base %d: want 2 to 62", base)
	}
	return nil
}

// FixedWidth is the length of math.MaxInt64 in base: the width of a
// fixed_width text form (13 for base 36, 11 for base 62).
func FixedWidth(base int) int {
	if base < 2 || base > 62 {
		return 0
	}
	return fixedWidths[base]
}

var fixedWidths = func() (w [63]int) {
	for base := 2; base <= 62; base++ {
		for v := uint64(math.MaxInt64); v > 0; v /= uint64(base) {
			w[base]++
		}
	}
	return w
}()

// AppendID appends id in base to dst; with fixed it pads with '0' to
// FixedWidth(base). It never allocates when dst has room.
func AppendID(dst []byte, id int64, base int, fixed bool) ([]byte, error) {
	if err := checkBase(base); err != nil {
		return dst, err
	}
	if id < 0 {
		return dst, errs.New(errs.ErrInvalid, "id %d is negative; only ids >= 0 have a text form", id)
	}
	var buf [64]byte
	i := len(buf)
	a := alphabet(base)
	v := uint64(id)
	// The usual bases divide by a constant (a multiplication); the rest
	// by a variable.
	switch base {
	case 10:
		i = putDigits(&buf, v, 10, a)
	case 36:
		i = putDigits(&buf, v, 36, a)
	case 62:
		i = putDigits(&buf, v, 62, a)
	default:
		for {
			i--
			buf[i] = a[v%uint64(base)]
			if v /= uint64(base); v == 0 {
				break
			}
		}
	}
	if fixed {
		for w := fixedWidths[base]; len(buf)-i < w; {
			i--
			buf[i] = '0'
		}
	}
	return append(dst, buf[i:]...), nil
}

// putDigits writes v's digits at the end of buf and returns where they
// start; inlined with a constant base, its divisions become multiplications.
func putDigits(buf *[64]byte, v uint64, base uint64, a string) int {
	i := len(buf)
	for {
		i--
		buf[i] = a[v%base]
		if v /= base; v == 0 {
			return i
		}
	}
}

// FormatID is AppendID into a new string.
func FormatID(id int64, base int, fixed bool) (string, error) {
	b, err := AppendID(nil, id, base, fixed)
	return string(b), err
}

// ParseID reads text in base; the text must be non-empty and use only the
// base's alphabet (lower case up to base 36: the canonical form), leading
// zeros allowed. A value above math.MaxInt64 is ErrRange.
func ParseID(text string, base int) (int64, error) {
	if err := checkBase(base); err != nil {
		return 0, err
	}
	if text == "" {
		return 0, errs.New(errs.ErrInvalid, "empty text")
	}
	table := &decodeMixed
	if base <= 36 {
		table = &decodeLower
	}
	var v uint64
	for i := 0; i < len(text); i++ {
		d := table[text[i]]
		if d >= byte(base) {
			return 0, errs.New(errs.ErrInvalid, "%q: character %q at %d is not a base-%d digit (alphabet %s)", clip(text), text[i], i, base, alphabet(base))
		}
		if v > (math.MaxInt64-uint64(d))/uint64(base) {
			return 0, errs.New(errs.ErrRange, "%q is larger than the largest id in base %d", clip(text), base)
		}
		v = v*uint64(base) + uint64(d)
	}
	return int64(v), nil
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
