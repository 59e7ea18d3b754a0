package gen

import (
	"context"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
	"github.com/idgen/idgen/internal/lease"
)

// LeaseRow is one pair of a pool as idgen leases prints it.
type LeaseRow struct {
	Datacenter, Worker int64  // -1 where the layout has no such field
	State              string // held, free or blocked (no holder, record ahead of the clock)
	FenceUnixMs        int64  // the record's fence; -1 where none (no record, a layout without time)
	Holder             string // "host:pid" of the holder (the last one, for a blocked pair); "" if unknown
}

// ListLeases reads the pool of a lease source as its store holds it,
// taking, writing and creating nothing.
func ListLeases(c *config.Spec) ([]LeaseRow, error) {
	if c.Scheme == config.SchemeSegment {
		return nil, errs.Key("preset", "a segment configuration names a counter, not a pool: see ReadCounter")
	}
	if !c.WorkerSrc.Leasing() {
		return nil, errs.Key("worker", "this configuration takes no lease, so there is no pool to list (use worker=lease or a store URL)")
	}
	st, err := openListStore(c)
	if err != nil || st == nil {
		return nil, err
	}
	defer st.Close()
	l, ok := st.(lease.Lister)
	if !ok {
		return nil, errs.Key("worker", "this store cannot list its pool")
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.LeaseTTL+10*time.Second)
	defer cancel()
	entries, err := l.List(ctx, poolOf(c))
	if err != nil {
		return nil, err
	}
	now := time.Now().UnixMilli()
	rows := make([]LeaseRow, 0, len(entries))
	for _, e := range entries {
		r := LeaseRow{Datacenter: e.Pair.DC, Worker: e.Pair.Worker, State: "free", FenceUnixMs: recordMs(c, e.Record.IssuedUpTo), Holder: e.Holder}
		if !c.Layout.Has(layout.FieldDatacenter) {
			r.Datacenter = -1
		}
		if !c.Layout.Has(layout.FieldWorker) {
			r.Worker = -1
		}
		switch {
		case e.Held:
			r.State = "held"
		case r.FenceUnixMs > now:
			r.State = "blocked"
		default:
			r.Holder = "" // nobody holds it
		}
		rows = append(rows, r)
	}
	return rows, nil
}

// recordMs is the time of a time generator's record value v in ms since
// 1970; -1 for no record or a layout without time.
func recordMs(c *config.Spec, v int64) int64 {
	if v <= 0 || c.Scheme != config.SchemeTime {
		return -1
	}
	ums := int64(c.Unit / time.Millisecond)
	if ums <= 0 || v > (1<<62-c.EpochMs)/ums {
		return -1
	}
	return c.EpochMs + v*ums
}

// CounterRow is a segment counter as idgen leases prints it.
type CounterRow struct {
	Name  string
	Store string // where it is kept, never with a password
	Found bool   // false: no value was ever taken (it begins at Start)
	Last  int64  // the last value taken (handed out, in hand or lost)
	Start int64  // where a new counter begins
}

// ReadCounter reads the counter of a segment configuration as its store
// holds it, taking, writing and creating nothing (a missing table or host
// directory holds no counter).
func ReadCounter(c *config.Spec) (CounterRow, error) {
	if c.Scheme != config.SchemeSegment {
		return CounterRow{}, errs.Key("preset", "not a segment configuration")
	}
	st, err := openCounterReader(c)
	if err != nil {
		return CounterRow{}, err
	}
	if st == nil {
		return CounterRow{Name: c.Name, Store: "lease_dir " + config.DefaultLeaseDir, Start: c.Segment.Start}, nil
	}
	defer st.Close()
	ctx, cancel := context.WithTimeout(context.Background(), storeOpenTimeout)
	defer cancel()
	row := CounterRow{Name: c.Name, Store: st.Where(), Start: c.Segment.Start}
	row.Last, row.Found, err = st.Read(ctx, c.Name)
	return row, err
}
