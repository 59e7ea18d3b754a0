package gen

// Text ids: every generator writes its ids as text (numeric presets in
// their text= form), and the text presets (rocketmq, rocketmq-v1) make only
// text.

import (
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

// TextParts are the fields of a text id; absent numbers are -1.
type TextParts struct {
	ID         int64 // a numeric preset's id; -1 for text-only forms
	UnixMs     int64
	Sequence   int64
	PID        int64
	LoaderHash int64
	Addr       []byte // IP (4 or 16 bytes), MAC (6) or nil
}

// textual is what the text presets implement.
type textual interface {
	textLen() int
	nextText(dst []byte) (int, error)
	decodeText(s string) (TextParts, error)
}

// specOf is the configuration of a numeric generator (they all embed shape).
func specOf(g Generator) *config.Spec {
	if s, ok := g.(interface{ spec() *config.Spec }); ok {
		return s.spec()
	}
	return nil
}

func (s *shape) spec() *config.Spec { return s.cfg }

// TextLen is the length of the longest text g writes (without a NUL).
func TextLen(g Generator) int {
	if t, ok := g.(textual); ok {
		return t.textLen()
	}
	if c := specOf(g); c != nil && c.Text != config.TextDec {
		return layout.FixedWidth(c.Text.Base())
	}
	return 19 // len("9223372036854775807")
}

// NextText writes the next id as text into dst, which must hold TextLen(g)
// bytes (ErrRange otherwise, and nothing is consumed); it returns the
// length written.
func NextText(g Generator, dst []byte) (int, error) {
	if need := TextLen(g); len(dst) < need {
		return 0, errs.New(errs.ErrRange, "a buffer of %d bytes cannot hold the %d characters this generator may write (and, in C, the NUL after them)", len(dst), need)
	}
	if t, ok := g.(textual); ok {
		return t.nextText(dst)
	}
	id, err := g.Next()
	if err != nil {
		return 0, err
	}
	return formatNumeric(g, id, dst)
}

func formatNumeric(g Generator, id int64, dst []byte) (int, error) {
	form := config.TextDec
	if c := specOf(g); c != nil {
		form = c.Text
	}
	b, err := layout.AppendID(dst[:0], id, form.Base(), form != config.TextDec)
	if err != nil {
		return 0, err
	}
	return len(b), nil
}

// DecodeText reads text of g's form.
func DecodeText(g Generator, s string) (TextParts, error) {
	if t, ok := g.(textual); ok {
		return t.decodeText(s)
	}
	c := specOf(g)
	if c == nil {
		return TextParts{}, errs.New(errs.ErrInvalid, "this generator has no text form")
	}
	form := c.Text
	var id int64
	var err error
	switch {
	case s == "":
		return TextParts{}, errs.New(errs.ErrInvalid, "empty text; this generator's text form is %s", form)
	case form == config.TextDec && (len(s) > 19 || (len(s) > 1 && s[0] == '0')):
		return TextParts{}, errs.New(errs.ErrInvalid, "%q is not an id in text=dec (1 to 19 digits, no leading zero)", clipText(s))
	case form != config.TextDec && len(s) != layout.FixedWidth(form.Base()):
		return TextParts{}, errs.New(errs.ErrInvalid, "%q is %d characters; text=%s ids are exactly %d", clipText(s), len(s), form, layout.FixedWidth(form.Base()))
	}
	if id, err = layout.ParseID(s, form.Base()); err != nil {
		return TextParts{}, errs.New(errs.ErrInvalid, "not an id in text=%s: %v", form, err)
	}
	p, err := g.Decode(id)
	if err != nil {
		return TextParts{}, err
	}
	return TextParts{ID: id, UnixMs: p.UnixMs, Sequence: p.Sequence, PID: -1, LoaderHash: -1}, nil
}

func clipText(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}

// hexDecode reads upper- or lower-case hex of exactly len(dst)*2 chars.
func hexDecode(dst []byte, s string) bool {
	if len(s) != 2*len(dst) {
		return false
	}
	for i := range dst {
		hi, ok1 := unhex(s[2*i])
		lo, ok2 := unhex(s[2*i+1])
		if !ok1 || !ok2 {
			return false
		}
		dst[i] = hi<<4 | lo
	}
	return true
}

func unhex(c byte) (byte, bool) {
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

const upperHex = "0123456789ABCDEF"

// putHex writes v's low 2*n hex digits, upper case, at dst[0:2n].
func putHex(dst []byte, v uint64, n int) {
	for i := 2*n - 1; i >= 0; i-- {
		dst[i] = upperHex[v&0xf]
		v >>= 4
	}
}

func appendUpperHex(dst, b []byte) []byte {
	for _, x := range b {
		dst = append(dst, upperHex[x>>4], upperHex[x&0xf])
	}
	return dst
}

func badText(preset, s, want string) error {
	return errs.New(errs.ErrInvalid, "%q is not a %s id: want %s", clipText(s), preset, want)
}
