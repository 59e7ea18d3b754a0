package numbers

// format=: the text of a business number. {yyyy} {yy} {MM} {dd} print the
// period's date (its first day, in the counter's zone), {seq} and {seq:N}
// the value (zero-padded to N digits; a wider value is printed whole);
// every other character is printed as it is.

import (
	"strconv"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// field is what one part of a template prints.
type field int

const (
	literal field = iota
	year4         // {yyyy}
	year2         // {yy}: 2000 to 2099
	month         // {MM}
	day           // {dd}
	seq           // {seq} or {seq:N}
)

var fieldNames = map[string]field{"yyyy": year4, "yy": year2, "MM": month, "dd": day, "seq": seq}

// widths of the date fields.
var widths = [...]int{year4: 4, year2: 2, month: 2, day: 2}

type part struct {
	f     field
	text  string // a literal's text
	width int    // {seq:N}: N (0 for {seq})
}

// Template is a parsed format=.
type Template struct {
	src   string
	parts []part
	has   [seq + 1]bool
}

// MaxText is the longest text a template may print: IDGEN_TEXT_MAX (57)
// holds it and its NUL.
const MaxText = 56

// maxDigits is the longest value: INT64_MAX has 19 digits.
const maxDigits = 19

// ParseTemplate reads format= for a counter that restarts as r. A
// template needs {seq} once and the date fields that name r's period
// ({yyyy} or {yy}; {MM} for month and day; {dd} for day), and no finer
// one; a value followed by a digit could not be read back, nor a brace
// in a literal. Errors are errs.Key("format", …) naming the problem.
func ParseTemplate(src string, r Reset) (*Template, error) {
	t := &Template{src: src}
	if err := t.split(); err != nil {
		return nil, err
	}
	if err := t.check(r); err != nil {
		return nil, err
	}
	if n := t.MaxLen(); n > MaxText {
		return nil, errs.Key("format", "%q prints up to %d characters (a value has up to 19 digits); at most %d fit IDGEN_TEXT_MAX", src, n, MaxText)
	}
	return t, nil
}

// split cuts src into literals and fields.
func (t *Template) split() error {
	s := t.src
	if s == "" {
		return errs.Key("format", "the template is empty; want text with {seq}, like ORD-{yyyy}{MM}{dd}-{seq:6}")
	}
	for s != "" {
		i := strings.IndexAny(s, "{}")
		if i < 0 {
			i = len(s)
		}
		if i > 0 {
			if err := t.addLiteral(s[:i]); err != nil {
				return err
			}
			s = s[i:]
			continue
		}
		if s[0] == '}' {
			return errs.Key("format", "%q: a } with no { before it (braces only enclose fields)", t.src)
		}
		end := strings.IndexByte(s, '}')
		if end < 0 {
			return errs.Key("format", "%q: the brace of %q is never closed", t.src, s)
		}
		if err := t.addField(s[1:end]); err != nil {
			return err
		}
		s = s[end+1:]
	}
	return nil
}

func (t *Template) addLiteral(s string) error {
	for _, c := range []byte(s) {
		if c < 0x20 || c > 0x7e {
			return errs.Key("format", "%q: literal text must be printable ASCII, got byte %#02x", t.src, c)
		}
	}
	t.parts = append(t.parts, part{f: literal, text: s})
	return nil
}

// addField adds the field named in braces.
func (t *Template) addField(name string) error {
	width := 0
	if w, ok := strings.CutPrefix(name, "seq:"); ok {
		n, err := strconv.Atoi(w)
		if err != nil || n < 1 || n > maxDigits || strings.TrimLeft(w, "0123456789") != "" {
			return errs.Key("format", "%q: {seq:%s}: want a width from 1 to %d digits", t.src, w, maxDigits)
		}
		name, width = "seq", n
	}
	f, ok := fieldNames[name]
	if !ok {
		return errs.Key("format", "%q: unknown field {%s}; the fields are {yyyy} {yy} {MM} {dd} {seq} {seq:N}", t.src, name)
	}
	if t.has[f] || f == year2 && t.has[year4] || f == year4 && t.has[year2] {
		return errs.Key("format", "%q: {%s} is there twice (a field may appear once, and one year)", t.src, name)
	}
	t.has[f] = true
	t.parts = append(t.parts, part{f: f, width: width})
	return nil
}

// check holds the template to what r needs and to what can be read back.
func (t *Template) check(r Reset) error {
	if !t.has[seq] {
		return errs.Key("format", "%q has no {seq}: every number needs its value", t.src)
	}
	year := t.has[year4] || t.has[year2]
	need := map[Reset][]bool{None: {}, Year: {year}, Month: {year, t.has[month]}, Day: {year, t.has[month], t.has[day]}}[r]
	for _, ok := range need {
		if !ok {
			return errs.Key("format", "%q does not name the period: with reset=%s the numbers of different %ss would repeat; want %s and {seq}", t.src, r, r, periodFields(r))
		}
	}
	finer := map[Reset][]field{None: {year4, year2, month, day}, Year: {month, day}, Month: {day}}[r]
	for _, f := range finer {
		if t.has[f] {
			return errs.Key("format", "%q: %s prints the date of a period, and with reset=%s it would never change within one (want reset=%s, or a template without it)", t.src, fieldText(f), r, coarsest(f))
		}
	}
	for i, p := range t.parts {
		if p.f == seq && i+1 < len(t.parts) && startsWithDigit(t.parts[i+1]) {
			return errs.Key("format", "%q: {seq} is followed by a digit, so a number could not be read back (its value may be wider); put a non-digit between them", t.src)
		}
	}
	return nil
}

func periodFields(r Reset) string {
	return map[Reset]string{Year: "{yyyy} (or {yy})", Month: "{yyyy} (or {yy}), {MM}", Day: "{yyyy} (or {yy}), {MM}, {dd}"}[r]
}

func fieldText(f field) string {
	for n, g := range fieldNames {
		if g == f {
			return "{" + n + "}"
		}
	}
	return ""
}

// coarsest is the reset a date field belongs to.
func coarsest(f field) Reset {
	return map[field]Reset{year4: Year, year2: Year, month: Month, day: Day}[f]
}

func startsWithDigit(p part) bool {
	return p.f != literal || p.text[0] >= '0' && p.text[0] <= '9'
}

// String is the template as given.
func (t *Template) String() string { return t.src }

// HasPeriod reports whether the template prints a date.
func (t *Template) HasPeriod() bool { return t.has[year4] || t.has[year2] }

// MaxLen is the length of the longest text the template prints.
func (t *Template) MaxLen() int {
	n := 0
	for _, p := range t.parts {
		switch p.f {
		case literal:
			n += len(p.text)
		case seq:
			n += max(p.width, maxDigits)
		default:
			n += widths[p.f]
		}
	}
	return n
}

// Append prints value v of the period that starts at start (a time in
// the counter's zone). ErrTimeOverflow when {yy} cannot print its year
// (outside 2000 to 2099: it would repeat a century's numbers), or a
// year has more than 4 digits.
func (t *Template) Append(dst []byte, start time.Time, v int64) ([]byte, error) {
	y, m, d := start.Date()
	for _, p := range t.parts {
		switch p.f {
		case literal:
			dst = append(dst, p.text...)
		case year4:
			if y < 0 || y > 9999 {
				return dst, errs.New(errs.ErrTimeOverflow, "format %q: {yyyy} cannot print the year %d", t.src, y)
			}
			dst = pad(dst, int64(y), 4)
		case year2:
			if y < 2000 || y > 2099 {
				return dst, errs.New(errs.ErrTimeOverflow, "format %q: {yy} prints the years 2000 to 2099 only, and this period is in %d (its numbers would repeat those of %d); use {yyyy}", t.src, y, 2000+y%100)
			}
			dst = pad(dst, int64(y%100), 2)
		case month:
			dst = pad(dst, int64(m), 2)
		case day:
			dst = pad(dst, int64(d), 2)
		case seq:
			dst = pad(dst, v, p.width)
		}
	}
	return dst, nil
}

// pad appends v in decimal, zero-padded to width digits.
func pad(dst []byte, v int64, width int) []byte {
	var b [20]byte
	s := strconv.AppendInt(b[:0], v, 10)
	for i := len(s); i < width; i++ {
		dst = append(dst, '0')
	}
	return append(dst, s...)
}
