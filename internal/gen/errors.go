// Package gen is idgen's core: layouts, the configuration string, clocks,
// the generators, worker ids and the text codec. It is pure Go and knows
// nothing of C; the capi package maps its sentinel errors to status codes.
package gen

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error returned by this package wraps exactly one of
// them, so callers can classify with errors.Is; the wrapping text says what
// was wrong (the key, the value, the times involved).
var (
	ErrInvalid        = errors.New("invalid argument or configuration")
	ErrClockBackwards = errors.New("clock moved backwards beyond tolerance")
	ErrTimeOverflow   = errors.New("time or epoch range of the layout is used up")
	ErrClosed         = errors.New("generator is closed")
	ErrWorker         = errors.New("no worker id available")
	ErrRange          = errors.New("value does not fit")
)

// Error is the concrete error type of this package: a sentinel kind and a
// message that reads well on its own (it becomes idgen_last_error's text).
type Error struct {
	Kind error
	Msg  string
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

func errorf(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// configError names the key that was wrong.
func configError(key, format string, args ...any) error {
	return &Error{Kind: ErrInvalid, Msg: key + ": " + fmt.Sprintf(format, args...)}
}
