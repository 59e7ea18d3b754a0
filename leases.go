package idgen

import (
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/gen"
)

// Listing is what a store holds for a configuration, read without taking
// anything (what `idgen leases` prints): the pairs of a lease source's
// pool, or the counter of a segment configuration.
type Listing struct {
	// Pairs are the pairs the store has a record of, for a lease source;
	// nil for a segment configuration.
	Pairs []PairLease
	// Counter is the counter of a segment configuration; nil otherwise.
	// With reset= it is the current period's (<name>@<period>).
	Counter *Counter
	// Periods are, with reset=, the counters of the current period and
	// of the periods before it, newest first (Periods[0] is Counter).
	Periods []Counter
}

// PairLease is one pair of a pool as its store holds it.
type PairLease struct {
	Datacenter  int64  // -1 where the layout has no datacenter field
	Worker      int64  // -1 where the layout has no worker field
	State       string // "held", "free" or "blocked" (no holder, its record ahead of the clock)
	FenceUnixMs int64  // the record's fence, ms since 1970; -1 where none
	Holder      string // "host:pid" of the holder (the last one, for a blocked pair); "" if unknown
}

// Counter is a segment counter as its store holds it.
type Counter struct {
	Name  string
	Store string // where it is kept, never with a password
	Found bool   // false: no value was ever taken (it begins at Start)
	Last  int64  // the last value taken (handed out, in hand or lost)
	Start int64  // where a new counter begins
}

// Leases reads the pool of conf's lease source (worker=lease or a store
// URL), or the counter of a segment configuration, as the store holds
// it, taking, writing and creating nothing. ErrInvalid (naming worker)
// for a configuration that takes no lease; ErrWorker when the store
// cannot be read.
func Leases(conf string) (Listing, error) {
	c, err := config.Parse(conf)
	if err != nil {
		return Listing{}, err
	}
	if c.Scheme == config.SchemeSegment {
		rows, err := gen.ReadCounters(c)
		if err != nil {
			return Listing{}, err
		}
		l := Listing{}
		for _, r := range rows {
			l.Periods = append(l.Periods, Counter(r))
		}
		l.Counter = &l.Periods[0]
		if c.Periods() == nil {
			l.Periods = nil
		}
		return l, nil
	}
	rows, err := gen.ListLeases(c)
	if err != nil {
		return Listing{}, err
	}
	l := Listing{Pairs: make([]PairLease, len(rows))}
	for i, r := range rows {
		l.Pairs[i] = PairLease(r)
	}
	return l, nil
}
