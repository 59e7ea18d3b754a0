package layout

// Hex, as the text presets write it (RocketMQ's ids: upper case) and read
// it (either case).

const upperHex = "0123456789ABCDEF"

// DecodeHex reads upper- or lower-case hex of exactly len(dst)*2
// characters into dst; false if s is anything else.
func DecodeHex(dst []byte, s string) bool {
	if len(s) != 2*len(dst) {
		return false
	}
	for i := range dst {
		hi, ok1 := HexDigit(s[2*i])
		lo, ok2 := HexDigit(s[2*i+1])
		if !ok1 || !ok2 {
			return false
		}
		dst[i] = hi<<4 | lo
	}
	return true
}

// HexDigit is the value of one hex digit, either case.
func HexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

// PutHex writes v's low 2*n hex digits, upper case, at dst[0:2n].
func PutHex(dst []byte, v uint64, n int) {
	for i := 2*n - 1; i >= 0; i-- {
		dst[i] = upperHex[v&0xf]
		v >>= 4
	}
}

// AppendHex appends b as upper-case hex to dst.
func AppendHex(dst, b []byte) []byte {
	for _, x := range b {
		dst = append(dst, upperHex[x>>4], upperHex[x&0xf])
	}
	return dst
}
