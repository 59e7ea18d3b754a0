package main

// idgen leases: the pool of a lease source, or a segment counter, as its
// store holds it.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/idgen/idgen"
)

// leaseJSON is one pair in --json output (fence and holder null where none).
type leaseJSON struct {
	Datacenter *int64  `json:"datacenter"`
	Worker     *int64  `json:"worker"`
	State      string  `json:"state"`
	Fence      *string `json:"fence"`
	Holder     *string `json:"holder"`
}

func cmdLeases(o *opts, w *bufio.Writer) error {
	conf, err := o.conf()
	if err != nil {
		return err
	}
	l, err := idgen.Leases(conf)
	if err != nil {
		return err
	}
	if len(l.Periods) > 0 {
		return periodLines(l.Periods, o.json, w)
	}
	if l.Counter != nil {
		return counterLine(*l.Counter, o.json, w)
	}
	rows := l.Pairs
	if o.json {
		return leasesJSON(rows, w)
	}
	var held, blocked int
	for _, r := range rows {
		fmt.Fprintf(w, "datacenter=%s worker=%s state=%s fence=%s holder=%s\n",
			part(r.Datacenter), part(r.Worker), r.State, orNone(fenceText(r.FenceUnixMs)), orNone(r.Holder))
		held += b2i(r.State == "held")
		blocked += b2i(r.State == "blocked")
	}
	fmt.Fprintf(w, "pairs=%d held=%d blocked=%d free=%d\n", len(rows), held, blocked, len(rows)-held-blocked)
	return nil
}

func leasesJSON(rows []idgen.PairLease, w *bufio.Writer) error {
	out := make([]leaseJSON, len(rows))
	for i, r := range rows {
		out[i] = leaseJSON{State: r.State}
		if r.Datacenter >= 0 {
			out[i].Datacenter = &rows[i].Datacenter
		}
		if r.Worker >= 0 {
			out[i].Worker = &rows[i].Worker
		}
		if f := fenceText(r.FenceUnixMs); f != "" {
			out[i].Fence = &f
		}
		if r.Holder != "" {
			out[i].Holder = &rows[i].Holder
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, _ = w.Write(append(b, '\n'))
	return nil
}

// counterLine prints a segment configuration's counter: the last value
// taken and where the next segment begins (values of live generators'
// segments in hand are below it).
func counterLine(r idgen.Counter, asJSON bool, w *bufio.Writer) error {
	var last *int64
	next := &r.Start
	if r.Found {
		last, next = &r.Last, nextAfter(r.Last)
	}
	if asJSON {
		b, err := json.Marshal(counterObject(r, last, next))
		if err != nil {
			return err
		}
		_, _ = w.Write(append(b, '\n'))
		return nil
	}
	fmt.Fprintf(w, "counter=%s store=%q last=%s next=%s\n", r.Name, r.Store, orDash(last), orDash(next))
	return nil
}

type counterJSON struct {
	Counter string `json:"counter"`
	Store   string `json:"store"`
	Last    *int64 `json:"last"`
	Next    *int64 `json:"next"`
}

func counterObject(r idgen.Counter, last, next *int64) counterJSON {
	return counterJSON{r.Name, r.Store, last, next}
}

// periodLines prints the counters of business numbers, the current
// period's first, one line each (with --json, one array).
func periodLines(rs []idgen.Counter, asJSON bool, w *bufio.Writer) error {
	if !asJSON {
		for _, r := range rs {
			if err := counterLine(r, false, w); err != nil {
				return err
			}
		}
		return nil
	}
	out := make([]counterJSON, len(rs))
	for i, r := range rs {
		var last *int64
		next := &rs[i].Start
		if r.Found {
			last, next = &rs[i].Last, nextAfter(r.Last)
		}
		out[i] = counterObject(r, last, next)
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, _ = w.Write(append(b, '\n'))
	return nil
}

// nextAfter is the value after last; nil when last is INT64_MAX (the
// counter is used up: no next value, never a wrapped one).
func nextAfter(last int64) *int64 {
	if last == math.MaxInt64 {
		return nil
	}
	n := last + 1
	return &n
}

// orDash prints a value, "-" for none.
func orDash(v *int64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatInt(*v, 10)
}

// fenceText is a fence as RFC 3339 (UTC, milliseconds); "" for none.
func fenceText(ms int64) string {
	if ms < 0 {
		return ""
	}
	return time.UnixMilli(ms).UTC().Format("2006-01-02T15:04:05.000Z07:00")
}

func part(v int64) string {
	if v < 0 {
		return "-"
	}
	return fmt.Sprint(v)
}

func orNone(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
