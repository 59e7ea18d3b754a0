package serve

// What every endpoint shares: finding the generator a request names (its
// token checked first), taking ids from it, and an error as one line.

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/idgen/idgen"
)

// MaxBatch is the most ids one request may ask for.
const MaxBatch = 100_000

// fail answers an error: the status and a one-line reason.
func fail(w http.ResponseWriter, status int, reason string) {
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	w.Write([]byte(strings.ReplaceAll(reason, "\n", " ") + "\n"))
}

// bearer is the token of an Authorization: Bearer header ("" for none).
func bearer(r *http.Request) string {
	a := r.Header.Get("Authorization")
	if len(a) > 7 && strings.EqualFold(a[:7], "Bearer ") {
		return strings.TrimSpace(a[7:])
	}
	return ""
}

// count reads a batch size (empty: 1), 1 to MaxBatch.
func count(s, param string) (int, string) {
	if s == "" {
		return 1, ""
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > MaxBatch {
		return 0, param + " must be a whole number from 1 to " + strconv.Itoa(MaxBatch) + ", got " + strconv.Quote(s)
	}
	return n, ""
}

// status is the HTTP status of a generator's error: 503 for what passes
// (no lease, the store away, the clock, the range used up), 500 for a bug.
func status(err error) int {
	switch {
	case errors.Is(err, idgen.ErrInternal):
		return http.StatusInternalServerError
	case errors.Is(err, idgen.ErrInvalid), errors.Is(err, idgen.ErrRange):
		return http.StatusBadRequest
	}
	return http.StatusServiceUnavailable
}
