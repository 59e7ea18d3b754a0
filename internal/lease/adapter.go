package lease

// Pieces every store adapter needs the same way: the words for a pool
// with no pair free, the keeping of a claim until its first renewal, the
// writes a claim sent unanswered, and pair names in listings.

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// PoolFull is Acquire's error when no pair of req could be taken: "all N
// pairs of pool P are taken …" (with a fixed datacenter, "all N workers of
// datacenter D in pool P (S pairs) are taken …"), the rest, format and
// args, saying where and why.
func PoolFull(req Request, format string, args ...any) error {
	n := req.Count()
	what := fmt.Sprintf("all %d pairs of pool %s", n, req.Pool.Name)
	if req.DC >= 0 {
		what = fmt.Sprintf("all %d workers of datacenter %d in pool %s (%d pairs)", n, req.DC, req.Pool.Name, req.Pool.Size())
	}
	return errs.New(errs.ErrWorker, "%s are taken %s", what, fmt.Sprintf(format, args...))
}

// Keep calls keep every ttl/3 (each call within ttl/3) until held or done
// is closed (a nil done: never), or keep reports the claim gone: a taker
// holds its claim however long it waits for its predecessor's record
// before its first renewal.
func Keep(ttl time.Duration, held, done <-chan struct{}, keep func(ctx context.Context) (gone bool)) {
	every := max(ttl/3, time.Millisecond)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-held:
			return
		case <-done:
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(context.Background(), every)
		// A panic in keep (a bug) ends the keeping, never the host; the
		// claim's renewals, which run the same code under the Keeper's
		// guard, report it.
		gone := true
		errs.Guard("keeping a claim", func() { gone = keep(ctx) }, func(error) {})
		cancel()
		if gone {
			return
		}
	}
}

// Unanswered are the records a claim sent since its last acknowledged
// write whose answer never came (at most a bound, the oldest dropped):
// one of them may have landed, so finding one in the store is no sign of
// another writer.
type Unanswered struct {
	max  int
	sent [][]byte
}

// NewUnanswered remembers up to max writes (the zero value: all).
func NewUnanswered(max int) Unanswered { return Unanswered{max: max} }

// Add notes a write about to be sent.
func (u *Unanswered) Add(data []byte) {
	if u.max > 0 && len(u.sent) >= u.max {
		u.sent = append(u.sent[:0], u.sent[1:]...)
	}
	u.sent = append(u.sent, data)
}

// Answered forgets them all: a write was acknowledged.
func (u *Unanswered) Answered() { u.sent = u.sent[:0] }

// Has reports whether data is one of the writes.
func (u *Unanswered) Has(data []byte) bool {
	return slices.ContainsFunc(u.sent, func(p []byte) bool { return string(p) == string(data) })
}

// ParsePair reads a pair's name in a store, "<dc>.<worker>".
func ParsePair(s string) (Pair, bool) {
	a, b, ok := strings.Cut(s, ".")
	dc, err1 := strconv.ParseInt(a, 10, 64)
	w, err2 := strconv.ParseInt(b, 10, 64)
	if !ok || err1 != nil || err2 != nil || dc < 0 || w < 0 {
		return Pair{}, false
	}
	return Pair{DC: dc, Worker: w}, true
}

// SortEntries puts a listing in pair order, lowest first.
func SortEntries(es []Entry) {
	slices.SortFunc(es, func(a, b Entry) int {
		if a.Pair.DC != b.Pair.DC {
			return int(a.Pair.DC - b.Pair.DC)
		}
		return int(a.Pair.Worker - b.Pair.Worker)
	})
}
