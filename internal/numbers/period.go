// Package numbers is what business numbers (preset=segment with reset=
// and format=) add to a counter: the periods a counter restarts in
// (reset=day|month|year in tz=) and the templates their text is printed
// and read back with (format=). Pure functions of a time and a value: it
// knows no store and no generator. The store's clock decides which period
// a time is in; internal/segment asks it at each take.
package numbers

import (
	"strconv"
	"time"

	"github.com/idgen/idgen/internal/errs"
)

// Reset is how often a counter restarts: never, each day, month or year.
type Reset int

// The resets of reset=.
const (
	None Reset = iota
	Day
	Month
	Year
)

var resetNames = [...]string{None: "none", Day: "day", Month: "month", Year: "year"}

func (r Reset) String() string { return resetNames[r] }

// ParseReset reads reset=.
func ParseReset(v string) (Reset, error) {
	for r, n := range resetNames {
		if v == n {
			return Reset(r), nil
		}
	}
	return None, errs.Key("reset", "want day, month, year or none, got %q", v)
}

// Period is one period of a counter, as the store's clock measures it:
// [Start, End) in unix milliseconds. Label names its counter in the store
// (<name>@<Label>) and is unique among the periods of one Periods.
type Period struct {
	Label      string
	Start, End int64
}

// Periods places a time (unix ms, the store's clock) in its period. At
// is a pure function; the periods it gives tile time: the next period of
// p is At(p.End), and At(t).Start <= t < At(t).End.
type Periods interface {
	At(ms int64) Period
}

// LabelLen is the longest label a Periods makes (a day: yyyyMMdd).
const LabelLen = 8

// Calendar is the periods of reset=day|month|year in a time zone: a day
// is 23, 24 or 25 hours long as the zone's clocks change.
type Calendar struct {
	Reset Reset
	TZ    *time.Location
}

// At is the day, month or year of ms in c's zone.
func (c Calendar) At(ms int64) Period {
	t := time.UnixMilli(ms).In(c.TZ)
	y, m, d := t.Date()
	start := c.Start(y, m, d)
	var next time.Time
	switch c.Reset {
	case Day:
		next = c.Start(y, m, d+1)
	case Month:
		next = c.Start(y, m+1, 1)
	default:
		next = c.Start(y+1, 1, 1)
	}
	return Period{Label: c.label(start), Start: start.UnixMilli(), End: next.UnixMilli()}
}

// Start is the first instant of the period that holds the date y-m-d
// (normalised as time.Date does): the first instant whose date in the
// zone is that day (the 1st of the month, January 1st). A zone whose
// clocks jump over midnight starts that day at the jump; one whose
// clocks go back across midnight starts it at the first midnight.
func (c Calendar) Start(y int, m time.Month, d int) time.Time {
	switch c.Reset {
	case Month:
		d = 1
	case Year:
		m, d = 1, 1
	}
	want := time.Date(y, m, d, 12, 0, 0, 0, time.UTC) // the calendar day, normalised
	y, m, d = want.Date()
	t := time.Date(y, m, d, 0, 0, 0, 0, c.TZ)
	if dateBefore(t, y, m, d) { // midnight was skipped: the day begins as the clocks jump
		if _, end := t.ZoneBounds(); !end.IsZero() {
			t = end
		}
	}
	if prev := t.Add(-time.Nanosecond); !dateBefore(prev, y, m, d) { // midnight came twice: the first one
		_, before := prev.Zone()
		_, after := t.Zone()
		t = t.Add(time.Duration(after-before) * time.Second)
	}
	return t
}

// dateBefore reports whether t's date in its zone is before y-m-d.
func dateBefore(t time.Time, y int, m time.Month, d int) bool {
	ty, tm, td := t.Date()
	return ty < y || ty == y && (tm < m || tm == m && td < d)
}

// label is a period's name: yyyyMMdd, yyyyMM or yyyy.
func (c Calendar) label(start time.Time) string {
	switch c.Reset {
	case Day:
		return start.Format("20060102")
	case Month:
		return start.Format("200601")
	}
	return start.Format("2006")
}

// Fixed is periods of a fixed length from 1970 (unix time), for tests
// only: the generator's Options put it in place of a Calendar, so that a
// period ends every few seconds. Nothing in a configuration string can
// name it.
type Fixed time.Duration

// At is the period of length f that holds ms.
func (f Fixed) At(ms int64) Period {
	n := time.Duration(f).Milliseconds()
	start := ms - ((ms%n)+n)%n
	return Period{Label: "t" + strconv.FormatInt(start/n, 36), Start: start, End: start + n}
}
