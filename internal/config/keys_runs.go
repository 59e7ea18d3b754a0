package config

// runs=N: Next hands out ids from runs reserved ahead, for every caller
// and host language alike (see gen's runCache).

import (
	"strconv"
	"time"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

// MaxRuns is the longest run runs= may ask for.
const MaxRuns = 1024

func readRuns(d *draft, v string) error {
	n, err := parseInt("runs", v, MaxRuns)
	if err != nil {
		return err
	}
	if n < 1 {
		return errs.Key("runs", "want a whole number from 1 (no runs) to %d, got %q", MaxRuns, v)
	}
	if n == 1 {
		return nil
	}
	if d.Cached {
		return errs.Key("runs", "preset baidu-cached hands out ids from its own ring already; runs=%d would add nothing", n)
	}
	if d.Unit != time.Millisecond {
		return errs.Key("runs", "runs need a 1ms tick (an id of a run is handed out at most 1 ms after the run was reserved, and a run on a longer tick could wait that tick out); unit is %s", FormatUnit(d.Unit))
	}
	seq, _ := d.Layout.Field(layout.FieldSeq)
	if !timeOnTop(&d.Layout) {
		return errs.Key("runs", "runs need the time field on top of layout %s, as in the Snowflake family (ids of later runs must be larger)", &d.Layout)
	}
	if limit := (seq.Max() + 1) >> 2; n > limit {
		return errs.Key("runs", "a run may hold at most a quarter of one tick's sequence, %d with the %d-bit seq of %s; got %d", max(limit, 1), seq.Width, &d.Layout, n)
	}
	d.Runs = int(n)
	return nil
}

// timeOnTop reports whether time is the highest field of l (Fields run
// from the top bit down).
func timeOnTop(l *layout.Layout) bool {
	return len(l.Fields) > 0 && l.Fields[0].Kind == layout.FieldTime
}

func printRuns(c *Spec) (string, bool) { return strconv.Itoa(c.Runs), c.Runs > 1 }
