package config

// Text ids: the keys of the text presets (rocketmq, rocketmq-v1; uuidv7
// and ulid take none) and the text= form of the numeric ones.

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

// textKeys lists, per text preset, the keys it takes besides preset.
var textKeys = map[Scheme][]string{
	SchemeRocketMQ: {"ip", "pid", "loader_hash", "tz"},
	SchemeRocketV1: {"mac", "pid"},
	SchemeUUIDv7:   {},
	SchemeULID:     {},
}

// IsText reports whether the scheme makes text ids only.
func (s Scheme) IsText() bool { return s >= SchemeRocketMQ && s <= SchemeULID }

// parseTextPreset reads the keys of a text preset and refuses every other.
func (c *Spec) parseTextPreset(kv map[string]string) error {
	own := textKeys[c.Scheme]
	for k := range kv {
		if k == "preset" || k == "name" {
			continue
		}
		ok := false
		for _, o := range own {
			ok = ok || o == k
		}
		if !ok {
			keys := "its keys: " + strings.Join(own, ", ")
			if len(own) == 0 {
				keys = "it takes no key but preset"
			}
			return errs.Key(k, "does not apply to text preset %s (%s); it takes no worker id or lease: its ids are told apart by %s", c.Preset, keys, map[Scheme]string{SchemeRocketMQ: "IP, pid and class-loader hash", SchemeRocketV1: "MAC and pid", SchemeUUIDv7: "their random bits", SchemeULID: "their random bits"}[c.Scheme])
		}
	}
	t := TextKeys{PID: -1, LoaderHash: -1}
	if v, ok := kv["ip"]; ok && v != "auto" {
		ip := net.ParseIP(v)
		if ip == nil || strings.Contains(v, "%") {
			return errs.Key("ip", "want auto or an IPv4 or IPv6 address, got %q", v)
		}
		if ip4 := ip.To4(); ip4 != nil && !strings.Contains(v, ":") {
			ip = ip4
		}
		t.IP = ip
	}
	if v, ok := kv["mac"]; ok && v != "auto" {
		hw, err := net.ParseMAC(v)
		if err != nil || len(hw) != 6 {
			return errs.Key("mac", "want auto or six bytes like 02:fc:00:00:00:01, got %q", v)
		}
		t.MAC = hw
	}
	if v, ok := kv["pid"]; ok && v != "auto" {
		n, err := parseWhole(v)
		if err != nil || n < 0 || n > 1<<22 {
			return errs.Key("pid", "want auto or a process id from 0 to 4194304, got %q", v)
		}
		t.PID = n
	}
	if v, ok := kv["loader_hash"]; ok && v != "random" {
		n, err := parseWhole(v)
		if err != nil || n < -(1<<31) || n >= 1<<32 {
			return errs.Key("loader_hash", "want random or a 32-bit number (Java's int, -2147483648..2147483647, or 0..4294967295), got %q", v)
		}
		t.LoaderHash = n & 0xffffffff
	}
	if v, ok := kv["tz"]; ok && v != "local" {
		loc, err := ParseTZ(v)
		if err != nil {
			return err
		}
		t.TZ = loc
	}
	c.TextKeys = t
	return nil
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

// textString is String for a text preset.
func (c *Spec) textString() string {
	t := &c.TextKeys
	parts := []string{"preset=" + c.Preset}
	for _, k := range textKeys[c.Scheme] {
		v := "auto"
		switch k {
		case "ip":
			if t.IP != nil {
				v = t.IP.String()
				if len(t.IP) == net.IPv6len && t.IP.To4() != nil {
					v = "::ffff:" + v // IPv4-mapped: 16 bytes in the id, as given
				}
			}
		case "mac":
			if t.MAC != nil {
				v = net.HardwareAddr(t.MAC).String()
			}
		case "pid":
			if t.PID >= 0 {
				v = strconv.FormatInt(t.PID, 10)
			}
		case "loader_hash":
			v = "random"
			if t.LoaderHash >= 0 {
				v = strconv.FormatInt(t.LoaderHash, 10)
			}
		case "tz":
			v = "local"
			if t.TZ != nil {
				v = t.TZ.String()
			}
		}
		parts = append(parts, k+"="+v)
	}
	if c.Name != "" {
		parts = append(parts, "name="+c.Name)
	}
	return strings.Join(parts, " ")
}
