package gen

// Numeric ids as text: every numeric generator writes its ids in its
// text= form (decimal, or a fixed-width base 36 or 62) and reads them back.

import (
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

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

// parseText reads an id in the text= form.
func (s *shape) parseText(text string) (int64, error) {
	form := s.cfg.Text
	switch {
	case text == "":
		return 0, errs.New(errs.ErrInvalid, "empty text; this generator's text form is %s", form)
	case form == config.TextDec && (len(text) > 19 || (len(text) > 1 && text[0] == '0')):
		return 0, errs.New(errs.ErrInvalid, "%q is not an id in text=dec (1 to 19 digits, no leading zero)", clipText(text))
	case form != config.TextDec && len(text) != layout.FixedWidth(form.Base()):
		return 0, errs.New(errs.ErrInvalid, "%q is %d characters; text=%s ids are exactly %d", clipText(text), len(text), form, layout.FixedWidth(form.Base()))
	}
	id, err := layout.ParseID(text, form.Base())
	if err != nil {
		return 0, errs.New(errs.ErrInvalid, "not an id in text=%s: %v", form, err)
	}
	return id, nil
}

// DecodeText reads text of the numeric generator's text= form.
func (s *shape) DecodeText(text string) (TextParts, error) {
	id, err := s.parseText(text)
	if err != nil {
		return TextParts{}, err
	}
	p, err := s.Decode(id)
	if err != nil {
		return TextParts{}, err
	}
	return TextParts{ID: id, UnixMs: p.UnixMs, Sequence: p.Sequence, PID: -1, LoaderHash: -1}, nil
}
