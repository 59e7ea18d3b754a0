package numbers

// Reading a number back: the fields of its template, in their widths.

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// Fields are what Read finds in a number: the period's date (0 where the
// template has no such field) and the value.
type Fields struct {
	Year  int
	Month time.Month
	Day   int
	Value int64
}

// Read reads a number the template printed. ErrInvalid for text that is
// not exactly of its form (a literal that differs, a field of the wrong
// width or not digits, a value with leading zeros beyond its width).
func (t *Template) Read(s string) (Fields, error) {
	var f Fields
	in := s
	for i, p := range t.parts {
		n := len(s)
		switch {
		case p.f == literal:
			n = len(p.text)
		case p.f != seq:
			n = widths[p.f]
		case i+1 < len(t.parts): // the value runs to the next literal, which starts with a non-digit
			n = strings.IndexByte(s, t.parts[i+1].text[0])
		}
		if n < 0 || n > len(s) {
			return f, t.notOurs(in, "it is shorter than the template")
		}
		if err := t.readPart(p, s[:n], &f); err != nil {
			return f, t.notOurs(in, err.Error())
		}
		s = s[n:]
	}
	if s != "" {
		return f, t.notOurs(in, "it goes on past the template")
	}
	if f.Month > 12 || f.Day > 31 || t.has[month] && f.Month < 1 || t.has[day] && f.Day < 1 {
		return f, t.notOurs(in, "its date does not exist")
	}
	return f, nil
}

// readPart reads one part of a number into f.
func (t *Template) readPart(p part, s string, f *Fields) error {
	if p.f == literal {
		if s != p.text {
			return fmt.Errorf("%q is not %q", s, p.text)
		}
		return nil
	}
	if s == "" || strings.Trim(s, "0123456789") != "" {
		return fmt.Errorf("%q is not digits", s)
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is out of range", s)
	}
	switch p.f {
	case year4:
		f.Year = int(v)
	case year2:
		f.Year = 2000 + int(v)
	case month:
		f.Month = time.Month(v)
	case day:
		f.Day = int(v)
	case seq:
		if len(s) < p.width {
			return fmt.Errorf("the value %q has fewer than its %d digits", s, p.width)
		}
		if len(s) > max(p.width, 1) && s[0] == '0' {
			return fmt.Errorf("the value %q has a leading zero beyond its width", s)
		}
		f.Value = v
	}
	return nil
}

func (t *Template) notOurs(s, why string) error {
	return errs.New(errs.ErrInvalid, "%q is not a number of format %q: %s", s, t.src, why)
}
