package idgen

import (
	"errors"

	"github.com/idgen/idgen/internal/errs"
)

// The sentinel errors, one per status code of include/idgen.h. Every error
// this package returns wraps exactly one of them: match it with
// errors.Is; its message says what went wrong and reads well on its own.
var (
	ErrInvalid  = errs.ErrInvalid        // IDGEN_EINVAL: bad argument or configuration (the message names the key)
	ErrClock    = errs.ErrClockBackwards // IDGEN_ECLOCK: the clock went back beyond tolerance, or a predecessor's record was not passed within max_wait
	ErrOverflow = errs.ErrTimeOverflow   // IDGEN_EOVERFLOW: the layout's time or epoch range is used up
	ErrClosed   = errs.ErrClosed         // IDGEN_ECLOSED: the generator is closed
	ErrWorker   = errs.ErrWorker         // IDGEN_EWORKER: no worker id could be had, or its lease was lost
	ErrRange    = errs.ErrRange          // IDGEN_ERANGE: a value or a buffer does not fit
	ErrForked   = errs.ErrForked         // IDGEN_EFORKED: only the C library returns it (a forked child)
	ErrInternal = errs.ErrInternal       // IDGEN_EINTERNAL: a bug in idgen
)

// The status codes of include/idgen.h, in the order of the sentinels.
var codes = [...]struct {
	err  error
	code int
}{
	{ErrInvalid, -1}, {ErrClock, -2}, {ErrOverflow, -3}, {ErrClosed, -4},
	{ErrWorker, -5}, {ErrRange, -6}, {ErrForked, -7}, {ErrInternal, -99},
}

// Code is the C status code of err: 0 (IDGEN_OK) for nil, the code of the
// sentinel err wraps, and -99 (IDGEN_EINTERNAL) for an error that wraps
// none.
func Code(err error) int {
	if err == nil {
		return 0
	}
	for _, c := range codes {
		if errors.Is(err, c.err) {
			return c.code
		}
	}
	return -99
}
