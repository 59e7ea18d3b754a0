package gen

import "github.com/idgen/idgen/internal/errs"

// errClosed is every call's answer once a generator is closed.
var errClosed = &errs.Error{Kind: errs.ErrClosed, Msg: "the generator is closed"}

// textOnlyErr is the answer of the numeric calls (idgen_next, batch,
// decode, compose) on a text preset.
func textOnlyErr(preset string, closed bool) error {
	if closed {
		return errClosed
	}
	return errs.New(errs.ErrInvalid, "text preset %s: use idgen_next_text (and idgen_decode_text); its ids are not numbers", preset)
}

// badText refuses text that is not an id of a text preset's form.
func badText(preset, s, want string) error {
	return errs.New(errs.ErrInvalid, "%q is not a %s id: want %s", clipText(s), preset, want)
}

// clipText shortens text for a message.
func clipText(s string) string {
	if len(s) > 64 {
		return s[:64] + "..."
	}
	return s
}
