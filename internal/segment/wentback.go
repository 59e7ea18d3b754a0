package segment

// The refusal of a counter that went back under a generator holding its
// values (Store, Take's mark).

import (
	"strconv"

	"github.com/idgen/idgen/internal/errs"
)

// WentBack is the errs.ErrWorker of a take refused because counter name
// on where is missing (found false) or stands at now, below mark, the
// highest value the taker may have handed out. restore says how to set
// it on this store ("" for nothing more).
func WentBack(where, name string, mark, now int64, found bool, restore string) error {
	what := "is missing (deleted, or lost by the store)"
	if found {
		what = "went back to " + strconv.FormatInt(now, 10) + " (a restore from an older copy, a store that lost acknowledged writes, a hand edit)"
	}
	if restore != "" {
		restore = " (" + restore + ")"
	}
	return errs.New(errs.ErrWorker, "%s: counter %s %s while this generator had handed out values up to %d: refused, never begun again below values already handed out; restore the counter to at least %d%s and the takes go on",
		where, name, what, mark, mark, restore)
}
