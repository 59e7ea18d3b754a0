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

// TextLen is the length of the longest text a numeric generator writes in
// its text= form.
func (s *shape) TextLen() int {
	if f := s.cfg.Text; f != config.TextDec {
		return layout.FixedWidth(f.Base())
	}
	return 19 // len("9223372036854775807")
}

// formatText writes a numeric id in the text= form; dst holds TextLen()
// bytes.
func (s *shape) formatText(id int64, err error, dst []byte) (int, error) {
	if err != nil {
		return 0, err
	}
	f := s.cfg.Text
	b, err := layout.AppendID(dst[:0], id, f.Base(), f != config.TextDec)
	if err != nil {
		return 0, err
	}
	return len(b), nil
}

// The numeric generators' NextText: the next id in the text= form.
func (g *timeGen) NextText(dst []byte) (int, error) {
	id, err := g.Next()
	return g.formatText(id, err, dst)
}
func (g *cachedGen) NextText(dst []byte) (int, error) {
	id, err := g.Next()
	return g.formatText(id, err, dst)
}
func (g *session) NextText(dst []byte) (int, error) {
	id, err := g.Next()
	return g.formatText(id, err, dst)
}
func (g *zxidGen) NextText(dst []byte) (int, error) {
	id, err := g.Next()
	return g.formatText(id, err, dst)
}

// NextText writes the next id as text into dst, which must hold
// g.TextLen() bytes (ErrRange otherwise, and nothing is consumed); it
// returns the length written.
func NextText(g Generator, dst []byte) (int, error) {
	if need := g.TextLen(); len(dst) < need {
		return 0, errs.New(errs.ErrRange, "a buffer of %d bytes cannot hold the %d characters this generator may write (and, in C, the NUL after them)", len(dst), need)
	}
	return g.NextText(dst)
}

// DecodeText reads text of the numeric generator's text= form.
func (s *shape) DecodeText(text string) (TextParts, error) {
	form := s.cfg.Text
	switch {
	case text == "":
		return TextParts{}, errs.New(errs.ErrInvalid, "empty text; this generator's text form is %s", form)
	case form == config.TextDec && (len(text) > 19 || (len(text) > 1 && text[0] == '0')):
		return TextParts{}, errs.New(errs.ErrInvalid, "%q is not an id in text=dec (1 to 19 digits, no leading zero)", clipText(text))
	case form != config.TextDec && len(text) != layout.FixedWidth(form.Base()):
		return TextParts{}, errs.New(errs.ErrInvalid, "%q is %d characters; text=%s ids are exactly %d", clipText(text), len(text), form, layout.FixedWidth(form.Base()))
	}
	id, err := layout.ParseID(text, form.Base())
	if err != nil {
		return TextParts{}, errs.New(errs.ErrInvalid, "not an id in text=%s: %v", form, err)
	}
	p, err := s.Decode(id)
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
