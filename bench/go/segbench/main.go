// Command segbench measures preset=segment from a Go process: 4
// goroutines (GOMAXPROCS left at its default) on one generator opened with
// the public package (idgen.Open), the sustained figure of issue 23 that
// bench/c/segment.c measures through cgo.
//
//	go run ./segbench [-secs 5] [-warm 1s] [-check 1s] [-only LABEL] [-cpuprofile FILE]
//
// Rows: a no-store control (layout=time:41,seq:22 worker=0), a host
// directory counter (step=auto), and with $IDGEN_BENCH_PG (a postgres://
// URL and keys, as bench/run.sh exports it) PostgreSQL with step=auto,
// step=1000, and NextBatch of 64 with step=auto. Each goroutine times
// windows of 64 calls (two clock reads per call would cost more than the
// call), so the longest window is an upper bound on the longest call.
//
// Every row checks itself: each goroutine's values strictly increase,
// and on a segment counter the values handed out (warm-up included) equal
// what the store's counter advanced minus the values still in hand. A
// shorter checked run keeps every value: all unique, and dense.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/idgen/idgen"
)

const (
	window = 64 // calls per timed window; also the batch size
	// batchWindow is the batches per timed window of the NextBatch row.
	batchWindow = 16
)

var (
	goroutines = flag.Int("goroutines", 4, "goroutines calling the generator")
	secs       = flag.Float64("secs", 5, "measured seconds per row, after the warm-up")
	warm       = flag.Duration("warm", time.Second, "warm-up per row")
	check      = flag.Duration("check", time.Second, "the checked run's length (0: none)")
	only       = flag.String("only", "", "run only the rows whose label contains this")
	profile    = flag.String("cpuprofile", "", "write a CPU profile of the rows run to this file")
)

// cps is the block profile's cycles per second (cyclesPerSecond).
var cps float64

// result is one row's figures, all after the warm-up.
type result struct {
	values  atomic.Int64  // values issued
	slow    atomic.Int64  // windows over 1 ms
	longest atomic.Int64  // the longest window, ns
	total   atomic.Int64  // values issued, warm-up included (the accounting)
	jumps   atomic.Int64  // segments seen landing (SegmentLeft going up)
	failed  atomic.Value  // the first error, a string
	elapsed time.Duration // the measured time
}

func (r *result) fail(format string, a ...any) {
	r.failed.CompareAndSwap(nil, fmt.Sprintf(format, a...))
}

func (r *result) window(d time.Duration, n int64) {
	r.values.Add(n)
	if d > time.Millisecond {
		r.slow.Add(1)
	}
	for cur := r.longest.Load(); int64(d) > cur && !r.longest.CompareAndSwap(cur, int64(d)); cur = r.longest.Load() {
	}
}

// drawNext is one goroutine calling Next in windows of 64 until end.
func drawNext(g *idgen.Generator, r *result, start, end time.Time) {
	last, n, issued := int64(-1), int64(0), int64(0)
	for t0 := time.Now(); ; {
		for i := 0; i < window; i++ {
			v, err := g.Next()
			if err != nil {
				r.fail("Next: %v", err)
				return
			}
			if v <= last {
				r.fail("Next: %d after %d in one goroutine", v, last)
			}
			last = v
		}
		t1 := time.Now()
		issued += window
		if !t0.Before(start) {
			n++
			r.window(t1.Sub(t0), window)
		}
		if t1.After(end) {
			r.total.Add(issued)
			return
		}
		t0 = t1
	}
}

// drawBatch is one goroutine calling NextBatch of 64 until end, timed in
// windows of batchWindow batches (a clock read costs about what a batch
// does); each batch is checked at its ends: above the previous one,
// increasing.
func drawBatch(g *idgen.Generator, r *result, start, end time.Time) {
	var buf [window]int64
	last, issued := int64(-1), int64(0)
	for t0 := time.Now(); ; {
		for i := 0; i < batchWindow; i++ {
			if err := g.NextBatch(buf[:]); err != nil {
				r.fail("NextBatch: %v", err)
				return
			}
			if buf[0] <= last || buf[window-1] <= buf[0] {
				r.fail("NextBatch: %d..%d after %d", buf[0], buf[window-1], last)
			}
			last = buf[window-1]
		}
		t1 := time.Now()
		issued += batchWindow * window
		if !t0.Before(start) {
			r.window(t1.Sub(t0), batchWindow*window)
		}
		if t1.After(end) {
			r.total.Add(issued)
			return
		}
		t0 = t1
	}
}

// watch counts segments landing: SegmentLeft going up between polls.
func watch(g *idgen.Generator, r *result, start, end time.Time, done <-chan struct{}) {
	prev := int64(-1)
	for {
		select {
		case <-done:
			return
		case <-time.After(200 * time.Microsecond):
		}
		left := g.Stats().SegmentLeft
		if prev >= 0 && left > prev && time.Now().After(start) && time.Now().Before(end) {
			r.jumps.Add(1)
		}
		prev = left
	}
}

// measured is what the counter advanced between start and end, and the
// waits on the store (how many, how many block-profile cycles).
func measured(conf string, start, end time.Time) (advanced, waits, cycles int64) {
	time.Sleep(time.Until(start))
	at := counter(conf)
	n, c := storeWaits()
	time.Sleep(time.Until(end))
	at2 := counter(conf)
	n2, c2 := storeWaits()
	return at2 - at, n2 - n, c2 - c
}

// row runs one sustained row and prints it.
func row(label, conf string, batch bool) {
	if !strings.Contains(label, *only) {
		return
	}
	before := counter(conf)
	g, err := idgen.Open(conf)
	if err != nil {
		fatal("%s: open: %v", label, err)
	}
	r := &result{}
	start := time.Now().Add(*warm)
	end := start.Add(time.Duration(*secs * float64(time.Second)))
	var wg sync.WaitGroup
	done := make(chan struct{})
	go watch(g, r, start, end, done)
	for i := 0; i < *goroutines; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if batch {
				drawBatch(g, r, start, end)
			} else {
				drawNext(g, r, start, end)
			}
		}()
	}
	seg := before >= 0
	var advanced, waits, waited int64
	if seg {
		advanced, waits, waited = measured(conf, start, end)
	}
	wg.Wait()
	close(done)
	r.elapsed = time.Since(start)
	if f := r.failed.Load(); f != nil {
		fatal("%s: %s", label, f)
	}
	trips := ""
	if seg {
		account(label, conf, g, before, r)
		trips = fmt.Sprintf("; %d waits on the store, %.1f ms in all", waits, float64(waited)/cps*1e3) +
			roundTrips(conf, r, advanced)
	}
	if err := g.Close(); err != nil {
		fatal("%s: close: %v", label, err)
	}
	calls := "64-call"
	if batch {
		calls = fmt.Sprintf("%d-batch", batchWindow)
	}
	fmt.Printf("  %-37s %6.1f M values/s; longest %s window %7.3f ms; %5d windows > 1 ms%s\n",
		label, float64(r.values.Load())/r.elapsed.Seconds()/1e6, calls, float64(r.longest.Load())/1e6, r.slow.Load(), trips)
}

// scratch is the host directory counters' directory, removed on exit.
var scratch string

func fatal(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "segbench: "+format+"\n", a...)
	if scratch != "" {
		os.RemoveAll(scratch)
	}
	os.Exit(1)
}

func main() {
	flag.Parse()
	runtime.SetBlockProfileRate(1) // every blocking event: the waits on the store (storeWaits)
	cps = cyclesPerSecond()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fatal("%v", err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fatal("%v", err)
		}
		defer pprof.StopCPUProfile()
	}
	dir, err := os.MkdirTemp("", "idgen-gosegbench-")
	if err != nil {
		fatal("%v", err)
	}
	scratch = dir
	defer os.RemoveAll(dir)
	tag := fmt.Sprintf("gobench_%d_", time.Now().UnixNano()) // fresh counters each run
	fmt.Printf("Segments from Go (idgen.Open), %d goroutines on one generator, GOMAXPROCS %d, %g s after a %v warm-up, windows of %d calls\n",
		*goroutines, runtime.GOMAXPROCS(0), *secs, *warm, window)
	row("control: no store (time:41,seq:22)", "layout=time:41,seq:22 worker=0", false)
	row("control: host directory, step=auto", "preset=segment name="+tag+"dir step=auto lease_dir="+dir, false)
	pg := os.Getenv("IDGEN_BENCH_PG")
	if pg == "" {
		fmt.Println("  (no $IDGEN_BENCH_PG: no PostgreSQL rows)")
		return
	}
	row("PostgreSQL, step=auto", "preset=segment name="+tag+"auto step=auto store="+pg, false)
	row("PostgreSQL, step=1000", "preset=segment name="+tag+"s1000 step=1000 store="+pg, false)
	row("PostgreSQL, step=auto, NextBatch x64", "preset=segment name="+tag+"batch step=auto store="+pg, true)
	if *check > 0 && strings.Contains("checked", *only) {
		checked("preset=segment name=" + tag + "check step=auto store=" + pg)
	}
}

// counter is the last value a segment configuration's counter took (its
// start - 1 when new); -1 for any other configuration.
func counter(conf string) int64 {
	if kindOf(conf) != idgen.KindCounter {
		return -1
	}
	l, err := idgen.Leases(conf)
	if err != nil {
		fatal("read counter: %v", err)
	}
	c := l.Counter
	if !c.Found {
		return c.Start - 1
	}
	return c.Last
}
