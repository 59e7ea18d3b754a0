package main

// What several words share: reading ids, and printing fields as
// key=value pairs or JSON.

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// rfc3339 prints unix ms as RFC 3339, or says it lies beyond year 9999.
func rfc3339(ms int64) string {
	if ms < 0 || ms > 253402300799999 {
		return fmt.Sprintf("%d ms since 1970 (beyond year 9999)", ms)
	}
	return time.UnixMilli(ms).UTC().Format(time.RFC3339Nano)
}

// parseID reads an id in decimal or 0x hex.
func parseID(s string) (int64, error) {
	t := strings.TrimSpace(s)
	var v int64
	var err error
	if h, ok := strings.CutPrefix(strings.ToLower(t), "0x"); ok {
		var u uint64
		u, err = strconv.ParseUint(h, 16, 64)
		v = int64(u)
		if err == nil && u > 1<<63-1 {
			err = errors.New("too large")
		}
	} else {
		v, err = strconv.ParseInt(t, 10, 64)
	}
	if err != nil || t == "" {
		return 0, fmt.Errorf("%q is not an id (decimal or 0x hex)", s)
	}
	return v, nil
}

// fields are the parts of a decoded id, in order, printed as key=value
// pairs or as a JSON object; a number below 0 (a field the id lacks) is
// left out.
type fields struct {
	keys, values []string
	quoted       []bool
}

func (f *fields) add(k, v string, quoted bool) {
	f.keys, f.values, f.quoted = append(f.keys, k), append(f.values, v), append(f.quoted, quoted)
}

func (f *fields) num(k string, v int64) {
	if v >= 0 {
		f.add(k, strconv.FormatInt(v, 10), false)
	}
}

// when adds unix_ms and its RFC 3339 form.
func (f *fields) when(ms int64) {
	f.num("unix_ms", ms)
	if ms >= 0 {
		f.add("time", rfc3339(ms), true)
	}
}

func (f *fields) line(asJSON bool) string {
	var b strings.Builder
	if asJSON {
		b.WriteByte('{')
	}
	for i, k := range f.keys {
		switch {
		case asJSON && i > 0:
			b.WriteString(", ")
		case i > 0:
			b.WriteByte(' ')
		}
		if !asJSON {
			b.WriteString(k + "=" + f.values[i])
			continue
		}
		b.WriteString(strconv.Quote(k) + ": ")
		if f.quoted[i] {
			b.WriteString(strconv.Quote(f.values[i]))
		} else {
			b.WriteString(f.values[i])
		}
	}
	if asJSON {
		b.WriteByte('}')
	}
	return b.String()
}
