package config

// Values: numbers, units, epochs, durations and their printed forms, and
// the quoting of a printed value that split reads back.

import (
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// ParseLeased reads the leased=D/W form (each number decimal or 0x hex).
func ParseLeased(v string) (dc, worker int64, ok bool) {
	a, b, found := strings.Cut(v, "/")
	if !found {
		return 0, 0, false
	}
	d, err1 := parseWhole(a)
	w, err2 := parseWhole(b)
	if err1 != nil || err2 != nil || d < 0 || w < 0 {
		return 0, 0, false
	}
	return d, w, true
}

// parseWhole reads a whole number written in decimal or as 0x hex, the
// two forms every numeric key takes (loader_hash=0x30946E09).
func parseWhole(v string) (int64, error) {
	if len(v) > 2 && v[0] == '0' && (v[1] == 'x' || v[1] == 'X') {
		h := v[2:]
		if h[0] == '+' || h[0] == '-' {
			return 0, strconv.ErrSyntax
		}
		u, err := strconv.ParseUint(h, 16, 63)
		return int64(u), err
	}
	return strconv.ParseInt(v, 10, 64)
}

func parseInt(key, v string, limit int64) (int64, error) {
	n, err := parseWhole(v)
	if err != nil || n < 0 || n > limit {
		return 0, errs.Key(key, "want a whole number from 0 to %d, got %q", limit, v)
	}
	return n, nil
}

func parseUnit(v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < time.Millisecond || d%time.Millisecond != 0 || d > 24*time.Hour {
		return 0, errs.Key("unit", "want a whole number of milliseconds from 1ms to 24h, like 1ms, 10ms or 1s; got %q", v)
	}
	return d, nil
}

// maxEpochMs keeps epoch arithmetic in nanoseconds inside int64 (2262).
const maxEpochMs = math.MaxInt64 / int64(time.Millisecond)

func parseEpoch(v string) (int64, error) {
	if n, err := parseWhole(v); err == nil {
		if n < 0 || n > maxEpochMs {
			return 0, errs.Key("epoch", "unix milliseconds must be from 0 (1970) to %d (2262), got %q", maxEpochMs, v)
		}
		return n, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return 0, errs.Key("epoch", "want unix milliseconds or an RFC 3339 time like 2016-09-20T00:00:00+08:00, got %q", v)
	}
	ms := t.UnixMilli()
	if ms < 0 || ms > maxEpochMs || t.Nanosecond()%int(time.Millisecond) != 0 {
		return 0, errs.Key("epoch", "%q must be a whole millisecond from 1970 to 2262", v)
	}
	return ms, nil
}

func parseDuration(key, v string) (time.Duration, error) {
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return 0, errs.Key(key, "want a duration like 5ms, 2s or 1h, got %q", v)
	}
	return d, nil
}

func parseSeqStart(v string) (int64, error) {
	if n, err := parseWhole(v); err == nil && n == 0 {
		return 0, nil
	}
	if n, ok := strings.CutPrefix(v, "random:"); ok {
		r, err := parseWhole(n)
		if err == nil && r >= 1 {
			return r, nil
		}
	}
	return 0, errs.Key("seq_start", "want 0 or random:N with N >= 1 (decimal or 0x hex), got %q", v)
}

// FormatUnit prints a unit the way Parse reads it: "1ms", "10ms", "1s".
func FormatUnit(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return strconv.FormatInt(int64(d/time.Millisecond), 10) + "ms"
}

// CeilTicks converts a duration to whole ticks of the unit, rounding up.
func CeilTicks(d, unit time.Duration) int64 {
	if d <= 0 {
		return 0
	}
	return int64((d + unit - 1) / unit)
}

// checkName accepts a name= value: 1 to 64 characters of [A-Za-z0-9_.-],
// not starting with '.', so it is safe as a metrics label, a file name and
// a store key.
func checkName(v string) error {
	ok := v != "" && len(v) <= 64 && v[0] != '.'
	for i := 0; ok && i < len(v); i++ {
		c := v[i]
		ok = c == '_' || c == '.' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	if !ok {
		return errs.Key("name", "want 1 to 64 characters of A-Z a-z 0-9 _ . - (not starting with .), got %q", v)
	}
	return nil
}

// Quote prints a value so that split reads it back.
func Quote(v string) string {
	if v != "" && !strings.ContainsAny(v, " \t\n\r\v\f;'\\") {
		return v
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}
