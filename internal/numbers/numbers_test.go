package numbers

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

func zone(t *testing.T, name string) *time.Location {
	loc, err := time.LoadLocation(name)
	require.NoError(t, err)
	return loc
}

// Days are the zone's days: 23 hours on the day clocks go forward, 25 on
// the day they go back, and every period tiles time.
func TestCalendarDaysAcrossDST(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	c := Calendar{Reset: Day, TZ: berlin}
	for _, tt := range []struct {
		date  string
		hours time.Duration
	}{{"2026-03-29", 23}, {"2026-10-25", 25}, {"2026-11-28", 24}} {
		d, _ := time.ParseInLocation("2006-01-02 15:04", tt.date+" 12:00", berlin)
		p := c.At(d.UnixMilli())
		require.Equal(t, tt.hours*time.Hour, time.Duration(p.End-p.Start)*time.Millisecond, tt.date)
		start := time.UnixMilli(p.Start).In(berlin)
		require.Equal(t, "00:00", start.Format("15:04"), tt.date)
		require.Equal(t, d.Format("20060102"), p.Label)
		require.Equal(t, p.End, c.At(p.End).Start, "the next day begins where this one ends")
		require.Equal(t, p, c.At(p.End-1), "the last millisecond is still the day")
	}
}

// A zone whose clocks jump over midnight (São Paulo, 2018-11-04: 00:00
// became 01:00) begins that day at the jump; one whose clocks go back
// across midnight (Havana 2026? no: Santiago, 2026-04-05 00:00 back to
// 23:00) begins the next day at the first midnight.
func TestCalendarMidnightSkippedOrTwice(t *testing.T) {
	sp := Calendar{Reset: Day, TZ: zone(t, "America/Sao_Paulo")}
	d := time.Date(2018, 11, 4, 12, 0, 0, 0, sp.TZ)
	p := sp.At(d.UnixMilli())
	require.Equal(t, "20181104", p.Label)
	require.Equal(t, "2018-11-04T01:00:00-02:00", time.UnixMilli(p.Start).In(sp.TZ).Format(time.RFC3339))
	require.Equal(t, 23*time.Hour, time.Duration(p.End-p.Start)*time.Millisecond)
	prev := sp.At(p.Start - 1)
	require.Equal(t, "20181103", prev.Label)
	require.Equal(t, p.Start, prev.End)

	sc := Calendar{Reset: Day, TZ: zone(t, "America/Santiago")}
	for ms := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(); ms < time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(); {
		p := sc.At(ms)
		require.LessOrEqual(t, p.Start, ms)
		require.Greater(t, p.End, ms)
		require.Equal(t, p.End, sc.At(p.End).Start, "days tile the year (%s)", p.Label)
		h := time.Duration(p.End-p.Start) * time.Millisecond
		require.Contains(t, []time.Duration{23 * time.Hour, 24 * time.Hour, 25 * time.Hour}, h, p.Label)
		ms = p.End
	}
}

func TestCalendarMonthsAndYears(t *testing.T) {
	sh := zone(t, "Asia/Shanghai")
	m := Calendar{Reset: Month, TZ: sh}.At(time.Date(2026, 2, 15, 0, 0, 0, 0, sh).UnixMilli())
	require.Equal(t, "202602", m.Label)
	require.Equal(t, time.Date(2026, 2, 1, 0, 0, 0, 0, sh).UnixMilli(), m.Start)
	require.Equal(t, time.Date(2026, 3, 1, 0, 0, 0, 0, sh).UnixMilli(), m.End)
	y := Calendar{Reset: Year, TZ: time.UTC}.At(time.Date(2026, 12, 31, 23, 59, 59, 0, time.UTC).UnixMilli())
	require.Equal(t, "2026", y.Label)
	require.Equal(t, time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC).UnixMilli(), y.End)
	// In UTC+8 the year begins 8 hours before it does in UTC.
	y8 := Calendar{Reset: Year, TZ: sh}.At(time.Date(2026, 12, 31, 16, 0, 0, 0, time.UTC).UnixMilli())
	require.Equal(t, "2027", y8.Label)
}

func TestFixedPeriodsTile(t *testing.T) {
	f := Fixed(3 * time.Second)
	p := f.At(1_000_000_001)
	require.Equal(t, int64(999_999_000), p.Start)
	require.Equal(t, p.End, f.At(p.End).Start)
	require.NotEqual(t, p.Label, f.At(p.End).Label)
}

func TestBadTemplatesNameTheProblem(t *testing.T) {
	for _, tt := range []struct {
		tmpl  string
		reset Reset
		want  string
	}{
		{"ORD-{yyyy}{MM}{dd}-{sq}", Day, "unknown field {sq}"},
		{"ORD-{yyyy}{MM}{dd}-{seq", Day, "never closed"},
		{"ORD-{yyyy}{MM}{dd}", Day, "has no {seq}"},
		{"ORD-{yyyy}{MM}{dd}-{seq:0}", Day, "{seq:0}: want a width from 1 to 19"},
		{"ORD-{seq:6}", Day, "does not name the period"},
		{"ORD-{yyyy}{MM}-{seq}", Day, "does not name the period"},
		{"INV-{yyyy}-{MM}-{seq}", Year, "{MM} prints the date of a period"},
		{"{seq}{yyyy}{MM}{dd}", Day, "followed by a digit"},
		{"{yyyy}{MM}{dd}{seq}0", Day, "followed by a digit"},
		{"{seq}-{seq}", None, "twice"},
		{"{yy}{yyyy}-{seq}", Year, "twice"},
		{"", Day, "empty"},
		{"ORD}{seq}", None, "a } with no {"},
		{"{yyyy}-{seq}", None, "reset=none"},
		{"{yyyy}{MM}{dd}-" + "XXXXXXXXXXXXXXXXXXXXXXXXXXXXX" + "{seq}", Day, "at most 56"},
	} {
		_, err := ParseTemplate(tt.tmpl, tt.reset)
		require.ErrorIs(t, err, errs.ErrInvalid, tt.tmpl)
		require.Contains(t, err.Error(), "format", tt.tmpl)
		require.Contains(t, err.Error(), tt.want, tt.tmpl)
	}
}

func TestTemplatePrints(t *testing.T) {
	tm, err := ParseTemplate("ORD-{yyyy}{MM}{dd}-{seq:6}", Day)
	require.NoError(t, err)
	start := time.Date(2026, 11, 28, 0, 0, 0, 0, time.UTC)
	for v, want := range map[int64]string{123: "ORD-20261128-000123", 1234567: "ORD-20261128-1234567"} {
		b, err := tm.Append(nil, start, v)
		require.NoError(t, err)
		require.Equal(t, want, string(b))
	}
	yy, _ := ParseTemplate("INV{yy}/{seq}", Year)
	b, err := yy.Append(nil, start, 7)
	require.NoError(t, err)
	require.Equal(t, "INV26/7", string(b))
	_, err = yy.Append(nil, time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), 7)
	require.ErrorIs(t, err, errs.ErrTimeOverflow, "{yy} never repeats a century")
}

// 100,000 random values of random periods print and read back to
// themselves, through templates of every reset.
func TestTemplatesRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(20261128, 1))
	cases := []struct {
		tmpl  string
		reset Reset
	}{
		{"ORD-{yyyy}{MM}{dd}-{seq:6}", Day}, {"{dd}.{MM}.{yy}/{seq:3}", Day}, {"INV-{yyyy}-{seq}", Year},
		{"{MM}{yyyy}#{seq:19}", Month}, {"N{seq:4}", None}, {"{yyyy}{MM}{dd}{seq:1}x", Day},
	}
	for i := 0; i < 100_000; i++ {
		c := cases[i%len(cases)]
		tm, err := ParseTemplate(c.tmpl, c.reset)
		require.NoError(t, err)
		v := r.Int64()
		switch i % 3 {
		case 0:
			v = r.Int64N(1_000_000)
		case 1:
			v = r.Int64N(100)
		}
		day := time.Date(2000+r.IntN(100), time.Month(1+r.IntN(12)), 1+r.IntN(31), 0, 0, 0, 0, time.UTC)
		start := time.UnixMilli(Calendar{Reset: max(c.reset, Day), TZ: time.UTC}.At(day.UnixMilli()).Start).UTC()
		text, err := tm.Append(nil, start, v)
		require.NoError(t, err)
		f, err := tm.Read(string(text))
		require.NoError(t, err, "%s", text)
		require.Equal(t, v, f.Value, "%s", text)
		if c.reset != None {
			require.Equal(t, start.Year(), f.Year, "%s", text)
		}
		if c.reset == Day {
			require.Equal(t, start.Day(), f.Day, "%s", text)
			require.Equal(t, start.Month(), f.Month, "%s", text)
		}
	}
}

func TestReadRefusesOtherText(t *testing.T) {
	tm, _ := ParseTemplate("ORD-{yyyy}{MM}{dd}-{seq:6}", Day)
	for _, s := range []string{"ORD-20261128-00012", "ORD-2026112-000123", "ord-20261128-000123", "ORD-20261128-000123x",
		"ORD-20261328-000123", "ORD-20261128-0001234", "ORD-20261128--00123", "ORD-20261128-99999999999999999999", ""} {
		_, err := tm.Read(s)
		require.ErrorIs(t, err, errs.ErrInvalid, s)
	}
}
