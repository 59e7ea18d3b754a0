package main

import (
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/idgen/idgen"
)

// account checks that the values handed out (warm-up included) are what
// the counter advanced minus the values still in hand, once a prefetch
// under way has landed (both stable over 50 ms).
func account(label, conf string, g *idgen.Generator, before int64, r *result) {
	left, last := int64(-2), int64(-2)
	for i := 0; i < 100; i++ {
		l, a := g.Stats().SegmentLeft, counter(conf)
		if l == left && a == last {
			break
		}
		left, last = l, a
		time.Sleep(50 * time.Millisecond)
	}
	if got, want := r.total.Load(), last-before-left; got != want {
		fatal("%s: %d values handed out, but the counter advanced %d with %d in hand (%d unaccounted)",
			label, got, last-before, left, want-got)
	}
}

// roundTrips is the store round trips per second of the measured time:
// with a fixed step, the counter's advance divided by it (exact); with
// step=auto, the segments seen landing in SegmentLeft.
func roundTrips(conf string, r *result, advanced int64) string {
	step, auto := stepOf(conf)
	s := r.elapsed.Seconds()
	if !auto {
		return fmt.Sprintf("; %.1f round trips/s (counter advance / step); counter %.1f M/s",
			float64(advanced)/float64(step)/s, float64(advanced)/s/1e6)
	}
	// A poll can miss a segment taken and used up between two polls; no
	// segment holds more than the auto maximum.
	seen, least := float64(r.jumps.Load())/s, float64(advanced)/float64(idgen.SegmentMaxAutoStep)/s
	return fmt.Sprintf("; >= %.1f round trips/s (%.1f seen landing, %.1f = counter advance / %d max step); counter %.1f M/s",
		max(seen, least), seen, least, idgen.SegmentMaxAutoStep, float64(advanced)/s/1e6)
}

// checked keeps every value of a shorter run: each goroutine's strictly
// increasing, all unique, and every value the counter advanced by either
// handed out or still in hand (a dense run).
func checked(conf string) {
	before := counter(conf)
	g, err := idgen.Open(conf)
	if err != nil {
		fatal("checked run: open: %v", err)
	}
	defer g.Close()
	vals := make([][]int64, *goroutines)
	end := time.Now().Add(*check)
	var wg sync.WaitGroup
	for i := range vals {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				for j := 0; j < window; j++ {
					v, err := g.Next()
					if err != nil {
						fatal("checked run: Next: %v", err)
					}
					vals[i] = append(vals[i], v)
				}
			}
		}()
	}
	wg.Wait()
	r := &result{}
	var all []int64
	for i, vs := range vals {
		for j := 1; j < len(vs); j++ {
			if vs[j] <= vs[j-1] {
				fatal("checked run: goroutine %d: %d after %d", i, vs[j], vs[j-1])
			}
		}
		all = append(all, vs...)
	}
	r.total.Store(int64(len(all)))
	slices.Sort(all)
	for j := 1; j < len(all); j++ {
		if all[j] == all[j-1] {
			fatal("checked run: %d issued twice", all[j])
		}
	}
	account("checked run", conf, g, before, r)
	if len(all) > 0 && (all[0] != before+1 || all[len(all)-1] != before+int64(len(all))) {
		fatal("checked run: %d values from %d to %d after counter %d: not dense", len(all), all[0], all[len(all)-1], before)
	}
	fmt.Printf("  checked run, PostgreSQL step=auto, %v: %d values from %d goroutines, each strictly increasing, all unique, dense from %d to %d; counter advance = values + in hand\n",
		*check, len(all), *goroutines, all[0], all[len(all)-1])
}

// storeWaits is how many times, and for how many cycles in all, callers
// have waited for a segment from the store: blocking events
// (runtime.SetBlockProfileRate(1) records every one) in the select of
// segment.(*Counter).advance, which waits for a fetch to land. Waiting
// on the Counter's mutex while another caller installs the prefetched
// segment is not counted.
func storeWaits() (n, cycles int64) {
	return blocked("runtime.selectgo", "internal/segment.(*Counter).advance")
}

// blocked sums the block profile's records whose stack holds a function
// named exactly top and one whose name ends in in.
func blocked(top, in string) (n, cycles int64) {
	k, _ := runtime.BlockProfile(nil)
	recs := make([]runtime.BlockProfileRecord, k+64)
	k, ok := runtime.BlockProfile(recs)
	if !ok {
		fatal("block profile: %d records do not fit", k)
	}
	for _, rec := range recs[:k] {
		frames := runtime.CallersFrames(rec.Stack())
		hasTop, hasIn := false, false
		for f, more := frames.Next(); ; f, more = frames.Next() {
			hasTop = hasTop || f.Function == top
			hasIn = hasIn || strings.HasSuffix(f.Function, in)
			if !more {
				break
			}
		}
		if hasTop && hasIn {
			n, cycles = n+rec.Count, cycles+rec.Cycles
		}
	}
	return n, cycles
}

// cyclesPerSecond calibrates the block profile's cycles: one known wait
// of 100 ms on a channel, in a function of its own.
func cyclesPerSecond() float64 {
	ch := make(chan struct{})
	go func() { time.Sleep(100 * time.Millisecond); close(ch) }()
	t := time.Now()
	calibrationWait(ch)
	d := time.Since(t)
	_, cycles := blocked("runtime.chanrecv1", "main.calibrationWait")
	if cycles <= 0 {
		fatal("block profile: the calibration wait was not recorded")
	}
	return float64(cycles) / d.Seconds()
}

//go:noinline
func calibrationWait(ch chan struct{}) { <-ch }

// decoder opens conf for decoding only (no store contacted).
func decoder(conf string) *idgen.Generator {
	d, err := idgen.OpenDecoder(conf)
	if err != nil {
		fatal("%v", err)
	}
	return d
}

// kindOf is what conf makes (idgen.Kind*).
func kindOf(conf string) int64 {
	d := decoder(conf)
	defer d.Close()
	return d.Info().Kind
}

// stepOf is a segment configuration's step, as its effective
// configuration says it: a number, or auto.
func stepOf(conf string) (step int64, auto bool) {
	d := decoder(conf)
	defer d.Close()
	for _, f := range strings.Fields(d.Config()) {
		if v, ok := strings.CutPrefix(f, "step="); ok {
			if v == "auto" {
				return 0, true
			}
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				fatal("step: %v", err)
			}
			return n, false
		}
	}
	fatal("%s: no step", conf)
	return 0, false
}
