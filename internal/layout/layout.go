// Package layout describes the bit fields of an id (which field, how wide,
// where) and the text codecs of ids (base 2..62).
package layout

import (
	"math"

	"github.com/idgen/idgen/internal/errs"

	"strconv"
	"strings"
)

// FieldKind names one field of an id.
type FieldKind int

// The field kinds. Time-based layouts use time, datacenter, worker and seq,
// and may hold a backwards (clock-rollback) counter; the zxid layout uses
// epoch and counter.
const (
	FieldTime FieldKind = iota
	FieldDatacenter
	FieldWorker
	FieldSeq
	FieldEpoch
	FieldCounter
	FieldBackwards
	numFieldKinds
)

var fieldNames = [numFieldKinds]string{"time", "datacenter", "worker", "seq", "epoch", "counter", "backwards"}

func (k FieldKind) String() string { return fieldNames[k] }

// FieldNames are the names a layout= field may have, in FieldKind order
// ("sequence" is also read as seq).
func FieldNames() []string { return append([]string(nil), fieldNames[:]...) }

// Field is one bit field of an id; Shift is its distance from bit 0.
type Field struct {
	Kind  FieldKind
	Width uint
	Shift uint
}

// Max is the largest value the field holds.
// A field that reaches bit 63 is capped so that the id stays non-negative
// (zk-session's 8-bit worker holds 0..127).
func (f Field) Max() int64 {
	m := uint64(1)<<f.Width - 1
	if lim := uint64(math.MaxInt64) >> f.Shift; lim < m {
		m = lim
	}
	return int64(m)
}

// Layout is an ordered list of fields, most significant first. Bit 63 is
// never part of a field, so every id is a non-negative int64.
type Layout struct {
	Fields []Field
	index  [numFieldKinds]int // position in Fields, or -1
}

// Parse reads "time:41,datacenter:5,worker:5,seq:12". It checks names,
// widths (1..63 each) and duplicates. The total is checked by the scheme:
// at most 63 bits, except that ZooKeeper's two layouts span 64 bits with the
// top field capped so that bit 63 stays 0.
func Parse(s string) (Layout, error) {
	var l Layout
	for i := range l.index {
		l.index[i] = -1
	}
	if strings.TrimSpace(s) == "" {
		return l, errs.Key("layout", "empty layout")
	}
	total := uint(0)
	for _, part := range strings.Split(s, ",") {
		name, width, ok := strings.Cut(strings.TrimSpace(part), ":")
		if !ok {
			return l, errs.Key("layout", "field %q is not name:width", part)
		}
		kind := FieldKind(-1)
		for k, n := range fieldNames {
			if n == name || (name == "sequence" && k == int(FieldSeq)) {
				kind = FieldKind(k)
			}
		}
		if kind < 0 {
			return l, errs.Key("layout", "unknown field %q (want time, datacenter, worker, seq, backwards, epoch or counter)", name)
		}
		if l.index[kind] >= 0 {
			return l, errs.Key("layout", "field %q appears twice", name)
		}
		w, err := strconv.ParseUint(width, 10, 8)
		if err != nil || w < 1 || w > 63 {
			return l, errs.Key("layout", "width of %q must be a number from 1 to 63, got %q", name, width)
		}
		total += uint(w)
		l.index[kind] = len(l.Fields)
		l.Fields = append(l.Fields, Field{Kind: kind, Width: uint(w)})
	}
	if total > 64 {
		return l, errs.Key("layout", "fields add up to %d bits; at most 63 are allowed (bit 63 stays 0)", total)
	}
	shift := total
	for i := range l.Fields {
		shift -= l.Fields[i].Width
		l.Fields[i].Shift = shift
	}
	return l, nil
}

// Must is Parse for constants known to be right.
func Must(s string) Layout {
	l, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return l
}

// Has reports whether the layout has a field of that kind (the zero
// Layout, of the schemes without one, has none).
func (l *Layout) Has(k FieldKind) bool {
	i := l.index[k]
	return i >= 0 && int(i) < len(l.Fields)
}

// Field returns the field of that kind; ok is false if there is none.
func (l *Layout) Field(k FieldKind) (Field, bool) {
	if !l.Has(k) {
		return Field{}, false
	}
	return l.Fields[l.index[k]], true
}

// Order reports whether field a is more significant than field b.
func (l *Layout) Order(a, b FieldKind) bool { return l.index[a] < l.index[b] }

// Bits is the number of bits the layout uses.
func (l *Layout) Bits() uint {
	n := uint(0)
	for _, f := range l.Fields {
		n += f.Width
	}
	return n
}

func (l Layout) String() string {
	var b strings.Builder
	for i, f := range l.Fields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f.Kind.String())
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(int(f.Width)))
	}
	return b.String()
}

// Get extracts field k of id, or -1 if the layout lacks it.
func (l *Layout) Get(id int64, k FieldKind) int64 {
	f, ok := l.Field(k)
	if !ok {
		return -1
	}
	return id >> f.Shift & f.Max()
}

// Put places v in field k; v must already be range-checked.
func (l *Layout) Put(k FieldKind, v int64) int64 {
	f, ok := l.Field(k)
	if !ok {
		return 0
	}
	return v << f.Shift
}
