package config

// Text: the text= form of the numeric presets, and the values of the text
// presets' keys.

import (
	"net"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // tz= names work on hosts without a zoneinfo database

	"github.com/idgen/idgen/internal/errs"
)

// TextForm is how a numeric preset writes its id as text.
type TextForm int

const (
	TextDec    TextForm = iota // decimal, as long as it needs (at most 19 digits)
	TextBase36                 // 13 chars of 0-9a-z, zero-padded
	TextBase62                 // 11 chars of 0-9A-Za-z, zero-padded
)

func (f TextForm) String() string { return [...]string{"dec", "base36", "base62"}[f] }

// Base is the form's number base.
func (f TextForm) Base() int { return [...]int{10, 36, 62}[f] }

// TextKeys are the keys of the text presets; unset values are resolved
// when a generator opens.
type TextKeys struct {
	IP         net.IP         // rocketmq: nil means auto (RocketMQ's UtilAll.getIP choice)
	MAC        []byte         // rocketmq-v1: nil means auto (the first interface with an address and a MAC)
	PID        int64          // -1 means auto (the process id)
	LoaderHash int64          // rocketmq: -1 means random per generator
	TZ         *time.Location // rocketmq: nil means the local zone
}

// ParseTZ reads a zone: an IANA name (Asia/Shanghai), UTC, or a fixed
// offset (+08:00, -05:30).
func ParseTZ(v string) (*time.Location, error) {
	if v != "" && (v[0] == '+' || v[0] == '-') {
		// Only ±hh:mm, digits only (Atoi alone reads "+-1:-5" as -1 and -5).
		digits := func(x string) bool { return len(x) == 2 && x[0] >= '0' && x[0] <= '9' && x[1] >= '0' && x[1] <= '9' }
		h, m := 99, 99
		if len(v) == 6 && v[3] == ':' && digits(v[1:3]) && digits(v[4:6]) {
			h, _ = strconv.Atoi(v[1:3])
			m, _ = strconv.Atoi(v[4:6])
		}
		if h > 18 || m > 59 {
			return nil, errs.Key("tz", "want an offset of two digits, a colon and two digits, from -18:00 to +18:00 (like +08:00 or -05:30); got %q", v)
		}
		off := (h*60 + m) * 60
		if v[0] == '-' {
			off = -off
		}
		return time.FixedZone(v, off), nil
	}
	if v == "" || strings.ContainsAny(v, " \\") || strings.HasPrefix(v, "/") || strings.Contains(v, "..") || strings.EqualFold(v, "Local") {
		return nil, errs.Key("tz", "want local, UTC, an IANA zone name like Asia/Shanghai, or an offset like +08:00; got %q", v)
	}
	loc, err := time.LoadLocation(v)
	if err != nil {
		return nil, errs.Key("tz", "unknown zone %q (want local, UTC, an IANA zone name like Asia/Shanghai, or an offset like +08:00)", v)
	}
	return loc, nil
}

// parseTextForm reads text= of a numeric preset.
func parseTextForm(v string) (TextForm, error) {
	for f := TextDec; f <= TextBase62; f++ {
		if v == f.String() {
			return f, nil
		}
	}
	return 0, errs.Key("text", "want dec, base36 or base62, got %q", v)
}
