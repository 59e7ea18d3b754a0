package sqlclaim

// What the SQL stores' counters in a peer's table (format=leaf, tinyid)
// share: the checks of a segment before it is taken, and the row a
// missing counter needs.

import (
	"fmt"
	"math"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
	"github.com/idgen/idgen/internal/segment"
)

// PeerCheck refuses a segment of n after prev (the last value handed out
// before it) that would go below 0, repeat values at or below mark, or
// pass INT64_MAX; where names the table.
func PeerCheck(where, name string, prev, mark, n int64) error {
	switch {
	case prev < -1:
		return errs.New(errs.ErrWorker, "%s: %s stands at %d: idgen never hands out a negative value", where, name, prev+1)
	case mark > 0 && prev < mark:
		return segment.WentBack(where, name, mark, prev, true, "")
	case prev > math.MaxInt64-n:
		_, err := segment.Advance(math.MaxInt64, 1)
		return err
	}
	return nil
}

// PeerMissing is the error of a take that found no row for name in
// table (format: the peer's): neither peer makes one, and idgen adds
// none; the message gives the INSERT (name quoted by quote).
func PeerMissing(where, format, table, name string, quote func(string) string) error {
	add := fmt.Sprintf("INSERT INTO %s (biz_tag, max_id, step, description) VALUES (%s, 1, 1000, '')", table, quote(name))
	if format == storeurl.FormatTinyid {
		add = fmt.Sprintf("INSERT INTO %s (biz_type, begin_id, max_id, step, delta, remainder, create_time, update_time, version) VALUES (%s, 1, 0, 1000, 1, 0, now(), now(), 1)", table, quote(name))
	}
	return errs.New(errs.ErrWorker, "%s: no row for %s; idgen adds none to a %s table: add it as the %s server would be given it, e.g. %s",
		where, name, format, format, add)
}

// PeerTries is how often a tinyid take retries a lost compare-and-set
// (tinyid's own Constants.RETRY).
const PeerTries = 3
