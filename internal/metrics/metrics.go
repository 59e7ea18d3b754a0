// Package metrics writes the stats of the process's open generators in
// the Prometheus text exposition format (version 0.0.4): the families
// DESIGN.md fixes, every series labelled name (the name= key) and
// generator (the generator's number). It reads the stats each generator
// publishes (atomics and the Keeper's snapshot): a scrape never waits for
// a store and never slows the generators down.
package metrics

import (
	"math"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/gen"
	"github.com/idgen/idgen/internal/lease"
)

// series is one generator's labels and stats for one scrape.
type series struct {
	t  gen.Tracked
	st gen.Stats
}

// family is one metric family: its name, type, help, and the value of a
// generator's series (ok false: the generator has none).
type family struct {
	name, typ, help string
	value           func(s *series, nowMs int64) (float64, bool)
}

func always(f func(s *series) int64) func(*series, int64) (float64, bool) {
	return func(s *series, _ int64) (float64, bool) { return float64(f(s)), true }
}

func seconds(ms int64) float64 { return float64(ms) / 1000 }

var families = []family{
	{"idgen_ids_issued_total", "counter", "Ids (numbers or text) the generator handed out.",
		always(func(s *series) int64 { return s.st.Issued })},
	{"idgen_tick_waits_total", "counter", "Calls that waited for the next tick because a tick's sequence was used up.",
		always(func(s *series) int64 { return s.st.TickWaits })},
	{"idgen_clock_backs_total", "counter", "Steps back of the clock handled (waited out, tolerated, counted or switched).",
		always(func(s *series) int64 { return s.st.ClockBacks })},
	{"idgen_lease_renewals_total", "counter", "Lease renewals the store acknowledged.",
		always(func(s *series) int64 { return s.st.Renewals })},
	{"idgen_lease_renewal_failures_total", "counter", "Lease renewals that failed (store unreachable, lease taken away).",
		always(func(s *series) int64 { return s.st.RenewalFailures })},
	{"idgen_leases_taken_total", "counter", "Leases taken: 1 at open, +1 for each re-lease or switch.",
		always(func(s *series) int64 { return s.st.LeasesTaken })},
	{"idgen_drift_seconds", "gauge", "How far the newest id's time runs ahead of the clock (borrowing generators).",
		func(s *series, _ int64) (float64, bool) { return seconds(s.st.DriftMs), true }},
	{"idgen_lease_state", "gauge", "Lease state: 0 none (no lease), 1 held, 2 riding out a store outage up to the fence, 3 lost (nothing is issued).",
		always(func(s *series) int64 { return s.st.LeaseState })},
	{"idgen_lease_fence_seconds", "gauge", "The lease fence minus now: how long the generator may still issue without its store.",
		func(s *series, nowMs int64) (float64, bool) {
			if s.st.LeaseState == lease.StateNone || s.st.FenceUnixMs < 0 {
				return 0, false
			}
			return seconds(s.st.FenceUnixMs - nowMs), true
		}},
	{"idgen_store_clock_skew_seconds", "gauge", "This host's clock minus the lease store's (estimated at each renewal).",
		func(s *series, _ int64) (float64, bool) {
			return seconds(s.st.SkewMs), s.st.SkewMs != math.MinInt64
		}},
	{"idgen_segment_left", "gauge", "Segment generators: counter values left in hand (current and prefetched segments).",
		func(s *series, _ int64) (float64, bool) { return float64(s.st.SegmentLeft), s.st.SegmentLeft >= 0 }},
}

// lastLen is the length of the last text: the next one is about as long.
var lastLen atomic.Int64

// Text is the exposition text of every open generator.
func Text() []byte { return AppendText(make([]byte, 0, lastLen.Load()+512)) }

// AppendText appends the exposition text to dst: a scraper that keeps its
// buffer makes little garbage (two small slices per scrape).
func AppendText(dst []byte) []byte {
	b := appendText(dst, gen.TrackedNow(), time.Now().UnixMilli())
	lastLen.Store(int64(len(b) - len(dst)))
	return b
}

func appendText(b []byte, ts []gen.Tracked, nowMs int64) []byte {
	all := make([]series, len(ts))
	for i, t := range ts {
		all[i] = series{t: t, st: gen.StatsOf(t.G)}
	}
	for _, f := range families {
		b = appendFamily(b, f, all, nowMs)
	}
	if len(all) > 0 {
		b = appendHeader(b, "idgen_generator_info", "gauge", "Always 1: the generator's preset, lease store (URL scheme, host for the lease directory, none) and the pair it holds now.")
		for i := range all {
			s := &all[i]
			b = append(b, "idgen_generator_info{"...)
			b = appendLabels(b, s)
			b = append(b, `,preset="`...)
			b = append(b, escape(presetOf(s.t.Spec))...)
			b = append(b, `",store="`...)
			b = append(b, storeOf(s.t.Spec)...)
			b = append(b, `",datacenter="`...)
			b = appendPart(b, s.st.Datacenter)
			b = append(b, `",worker="`...)
			b = appendPart(b, s.st.Worker)
			b = append(b, "\"} 1\n"...)
		}
	}
	return b
}

func appendFamily(b []byte, f family, all []series, nowMs int64) []byte {
	head := false
	for i := range all {
		v, ok := f.value(&all[i], nowMs)
		if !ok {
			continue
		}
		if !head {
			b, head = appendHeader(b, f.name, f.typ, f.help), true
		}
		b = append(b, f.name...)
		b = append(b, '{')
		b = appendLabels(b, &all[i])
		b = append(b, "} "...)
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			b = strconv.AppendInt(b, int64(v), 10) // counters and states: integers
		} else {
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
		}
		b = append(b, '\n')
	}
	return b
}

func appendHeader(b []byte, name, typ, help string) []byte {
	b = append(b, "# HELP "...)
	b = append(b, name...)
	b = append(b, ' ')
	b = append(b, help...)
	b = append(b, "\n# TYPE "...)
	b = append(b, name...)
	b = append(b, ' ')
	b = append(b, typ...)
	return append(b, '\n')
}

// appendLabels writes a series' name="…",generator="…".
func appendLabels(b []byte, s *series) []byte {
	b = append(b, `name="`...)
	b = append(b, escape(s.t.Name)...)
	b = append(b, `",generator="`...)
	b = strconv.AppendInt(b, s.t.N, 10)
	return append(b, '"')
}

// appendPart writes a datacenter or worker label value: "" where none.
func appendPart(b []byte, v int64) []byte {
	if v < 0 {
		return b
	}
	return strconv.AppendInt(b, v, 10)
}

// presetOf is the preset label.
func presetOf(c *config.Spec) string {
	if c == nil {
		return "custom"
	}
	return c.Preset
}

// storeOf is the store label: the URL's scheme, host for the lease
// directory (a lease, or a segment counter kept there), none without a
// store.
func storeOf(c *config.Spec) string {
	switch {
	case c == nil:
		return "none"
	case c.WorkerSrc == config.SourceLease, c.Scheme == config.SchemeSegment && c.Store == nil:
		return "host"
	case c.Store != nil:
		scheme, _, _ := strings.Cut(c.Store.Raw, "://")
		return escape(scheme)
	}
	return "none"
}

var escaper = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// escape makes a label value safe (names and presets are plain already).
func escape(s string) string {
	if !strings.ContainsAny(s, "\\\"\n") {
		return s
	}
	return escaper.Replace(s)
}
