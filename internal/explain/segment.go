package explain

import (
	"fmt"
	"math"
	"strings"

	"github.com/idgen/idgen/internal/config"
)

// segmentText describes a segment generator: no bit layout, a counter.
func segmentText(c *config.Spec) string {
	var b strings.Builder
	w := &b
	where := "the host lease directory " + config.DefaultLeaseDir
	switch {
	case c.Store != nil:
		where = c.Store.Where
		switch {
		case c.Store.Format != "":
			where += ", table " + c.Store.Table + " (" + c.Store.Format + "'s, taken with its SQL)"
		case c.StoreKeepsTables():
			where += ", table " + c.SegmentTable()
		}
	case c.LeaseDir != "":
		where = "the lease directory " + c.LeaseDir
	}
	step := fmt.Sprintf("%d values", c.Segment.Step)
	if c.Segment.Auto {
		step = fmt.Sprintf("sized to last about 1 s at the rate of use, %d to %d values", config.MinAutoStep, config.MaxAutoStep)
	}
	values := fmt.Sprintf("%d, %d, … up to %d", c.Segment.Start, c.Segment.Start+1, int64(math.MaxInt64))
	if c.Segment.Start == math.MaxInt64 {
		values = fmt.Sprintf("%d only", c.Segment.Start) // start+1 would wrap
	}
	fmt.Fprintf(w, "preset=segment: the values of counter %q, %s (then IDGEN_EOVERFLOW)\n\n", c.Name, values)
	fmt.Fprintf(w, "  kept in       %s\n", where)
	fmt.Fprintf(w, "  segments of   %s, recorded in the store before any value is handed out\n", step)
	fmt.Fprintf(w, "  prefetch      the next segment when fewer than %d%% of the current one are left\n", c.Padding)
	fmt.Fprintf(w, "  store down    the values in hand go on; then each call waits up to %s, then IDGEN_EWORKER\n", c.MaxWait)
	fmt.Fprintf(w, "  decode        id and sequence are the value; no time, datacenter or worker\n")
	return b.String()
}
