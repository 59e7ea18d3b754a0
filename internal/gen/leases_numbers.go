package gen

// idgen leases on business numbers: the counter of the current period
// and of the few before it, as the store holds them.

import (
	"context"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/segment"
)

// ListedPeriods is how many periods idgen leases lists: the current one
// and the ones before it.
const ListedPeriods = 4

// ReadCounters reads the counters of a segment configuration as its store
// holds them, taking, writing and creating nothing: the counter, or with
// reset= the counter of the current period (by the store's clock where
// the store can tell it without writing, else this host's) and of the
// ListedPeriods-1 periods before it, newest first.
func ReadCounters(c *config.Spec) ([]CounterRow, error) {
	periods := c.Periods()
	if periods == nil {
		r, err := ReadCounter(c)
		return []CounterRow{r}, err
	}
	st, err := openCounterReader(c)
	if err != nil {
		return nil, err
	}
	where := "lease_dir " + config.DefaultLeaseDir
	if st != nil {
		defer st.Close()
		where = st.Where()
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeOpenTimeout)
	defer cancel()
	now := time.Now().UnixMilli()
	if clk, ok := segment.ClockOf(st); ok && st != nil {
		if lo, _, err := clk.StoreClock(ctx); err == nil {
			now = lo
		}
	}
	var rows []CounterRow
	for p := periods.At(now); len(rows) < ListedPeriods; p = periods.At(p.Start - 1) {
		row := CounterRow{Name: c.Name + "@" + p.Label, Store: where, Start: c.Segment.Start}
		if st != nil {
			if row.Last, row.Found, err = st.Read(ctx, row.Name); err != nil {
				return nil, err
			}
		}
		rows = append(rows, row)
	}
	return rows, nil
}
