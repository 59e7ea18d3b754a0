package config

import (
	"strconv"
	"strings"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

// split cuts a config string into key/value pairs. Pairs are separated by
// white space or ';'; a value may be single-quoted ('a b', with \' and \\)
// to hold either.
func split(s string) ([][2]string, error) {
	var out [][2]string
	i := 0
	isSep := func(c byte) bool {
		return c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
	}
	for {
		for i < len(s) && isSep(s[i]) {
			i++
		}
		if i >= len(s) {
			return out, nil
		}
		start := i
		for i < len(s) && !isSep(s[i]) && s[i] != '=' {
			i++
		}
		key := s[start:i]
		if i >= len(s) || s[i] != '=' {
			return nil, errs.Key(key, "expected key=value")
		}
		if key == "" {
			return nil, errs.Key("config", "a value without a key near %q", s[start:min(len(s), start+20)])
		}
		i++ // '='
		var val strings.Builder
		if i < len(s) && s[i] == '\'' {
			i++
			closed := false
			for i < len(s) {
				c := s[i]
				i++
				if c == '\\' && i < len(s) {
					val.WriteByte(s[i])
					i++
					continue
				}
				if c == '\'' {
					closed = true
					break
				}
				val.WriteByte(c)
			}
			if !closed {
				return nil, errs.Key(key, "unterminated quoted value")
			}
			if i < len(s) && !isSep(s[i]) {
				return nil, errs.Key(key, "text after a quoted value")
			}
		} else {
			for i < len(s) && !isSep(s[i]) {
				val.WriteByte(s[i])
				i++
			}
		}
		if val.Len() == 0 {
			return nil, errs.Key(key, "missing value")
		}
		out = append(out, [2]string{key, val.String()})
	}
}

// Quote prints a value so that split reads it back.
func Quote(v string) string {
	if v != "" && !strings.ContainsAny(v, " \t\n\r\v\f;'\\") {
		return v
	}
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(v) + "'"
}

// String prints the configuration in canonical form; Parse of the result
// gives the same configuration. Sources print as their names
// (worker=lease, worker=zk://…, the password left out); a leased pair is
// shown as leased=D/W, which opening ignores.
func (c *Spec) String() string {
	if c.Scheme.IsText() {
		return c.textString()
	}
	if c.Scheme == SchemeSegment {
		return c.segmentString()
	}
	var parts []string
	add := func(k, v string) { parts = append(parts, k+"="+v) }
	add("preset", c.Preset)
	add("layout", c.Layout.String())
	src := func(s Source, v int64) string {
		switch s {
		case SourcePID:
			return "pid"
		case SourceMAC:
			return "mac"
		case SourceLease:
			return "lease"
		case SourceOrdinal:
			return "ordinal"
		case SourceZK, SourcePG, SourceMySQL, SourceRedis, SourceEtcd:
			return Quote(c.Store.Redacted())
		}
		return strconv.FormatInt(v, 10)
	}
	if c.Scheme == SchemeZxid {
		add("zxid_epoch", strconv.FormatInt(c.ZxidEpoch, 10))
	} else {
		add("unit", FormatUnit(c.Unit))
		add("epoch", strconv.FormatInt(c.EpochMs, 10))
	}
	if c.Layout.Has(layout.FieldDatacenter) && c.DCSrc != SourceUnset {
		add("datacenter", src(c.DCSrc, c.DC))
	}
	if c.WorkerSrc.Leasing() || c.Layout.Has(layout.FieldWorker) || c.Layout.Has(layout.FieldDatacenter) {
		add("worker", src(c.WorkerSrc, c.Worker))
	} else {
		add("worker", "0")
	}
	if c.Scheme != SchemeZxid {
		if c.WallClock {
			add("clock", "wall")
		} else {
			add("clock", "mono")
		}
	}
	if c.Scheme == SchemeTime {
		if c.WallClock || c.WorkerSrc.Leasing() {
			add("on_clock_back", c.OnClockBack.String())
		}
		if c.Cached {
			add("boost", strconv.Itoa(c.Boost))
			add("padding", strconv.Itoa(c.Padding))
		}
		if c.Borrow {
			add("on_exhausted", "borrow")
			add("max_drift", c.MaxDrift.String())
		} else {
			add("on_exhausted", "wait")
		}
		if c.SeqRandom > 0 {
			add("seq_start", "random:"+strconv.FormatInt(c.SeqRandom, 10))
		} else {
			add("seq_start", "0")
		}
	}
	if c.Text != TextDec {
		add("text", c.Text.String())
	}
	if c.Name != "" {
		add("name", c.Name)
	}
	if c.WorkerSrc.Leasing() {
		if c.LeaseDir != "" {
			add("lease_dir", Quote(c.LeaseDir))
		}
		if c.LeaseTable != "" {
			add("lease_table", c.LeaseTable)
		}
		add("lease_ttl", c.LeaseTTL.String())
		add("max_outage", c.MaxOutage.String())
		add("max_wait", c.MaxWait.String())
		if c.MaxSkew > 0 {
			add("max_skew", c.MaxSkew.String())
		}
		if c.Leased != "" {
			add("leased", c.Leased)
		}
		if c.Switched != "" {
			add("switched", c.Switched)
		}
	}
	return strings.Join(parts, " ")
}
