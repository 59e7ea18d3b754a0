// Package errs holds idgen's sentinel errors and its one error type. Every
// error the internal packages return wraps exactly one sentinel, so the C
// boundary maps it to exactly one status code with errors.Is; the message
// reads well on its own (it becomes idgen_last_error's text).
package errs

import (
	"errors"
	"fmt"
)

// The sentinels, one per status code.
var (
	ErrInvalid        = errors.New("invalid argument or configuration")
	ErrClockBackwards = errors.New("clock moved backwards beyond tolerance")
	ErrTimeOverflow   = errors.New("time or epoch range of the layout is used up")
	ErrClosed         = errors.New("generator is closed")
	ErrWorker         = errors.New("no worker id available")
	ErrRange          = errors.New("value does not fit")
	// ErrForked is what the C shim answers in a forked child, without
	// entering Go; Go code never returns it.
	ErrForked = errors.New("called in a process forked from one that had loaded idgen")
	// ErrInternal is a bug in idgen (a recovered panic).
	ErrInternal = errors.New("internal error in idgen")
)

// Error is a sentinel kind and a message.
type Error struct {
	Kind error
	Msg  string
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Kind }

// New is an error of kind with a formatted message.
func New(kind error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...)}
}

// Key is an ErrInvalid that names the configuration key that was wrong.
func Key(key, format string, args ...any) error {
	return &Error{Kind: ErrInvalid, Msg: key + ": " + fmt.Sprintf(format, args...)}
}

// Wrap prefixes err's message and keeps its kind.
func Wrap(err error, format string, args ...any) error {
	return &Error{Kind: KindOf(err), Msg: fmt.Sprintf(format, args...) + ": " + err.Error()}
}

// KindOf is the sentinel err wraps, or nil for an error from outside
// this project (an internal failure).
func KindOf(err error) error {
	for _, k := range []error{ErrInvalid, ErrClockBackwards, ErrTimeOverflow, ErrClosed, ErrWorker, ErrRange} {
		if errors.Is(err, k) {
			return k
		}
	}
	return nil
}
