package gen

// Runs of ids: fillRuns' reservations for a batch, and the held runs of
// runs=N (runCache; what the time generator does with them is time_handout.go).

import (
	"sync"
	"sync/atomic"
	"time"
)

// run is one reservation of a batch: n ids from first, step apart.
type run struct {
	first int64
	n     uint64
}

// fillRuns fills out with runs of ids step apart, each run reserved in one
// step by reserve (its first id and length). Every run is reserved before
// out is written, so a batch that fails part-way (the time field used up,
// the fence, a close) leaves out untouched, as the C ABI promises; the
// ids reserved are consumed.
func fillRuns(out []int64, step int64, reserve func(n uint64) (int64, uint64, error)) error {
	var stack [16]run // a batch spans a few ticks, runs or epochs
	runs := stack[:0]
	for left := uint64(len(out)); left > 0; {
		first, got, err := reserve(left)
		if err != nil {
			return err
		}
		runs = append(runs, run{first, got})
		left -= got
	}
	i := 0
	for _, r := range runs {
		chunk := out[i : i+int(r.n)]
		v := r.first
		for k := range chunk {
			chunk[k] = v
			v += step
		}
		i += int(r.n)
	}
	return nil
}

// RunFreshNs is how long after its reservation an id of a run may be
// handed out; ids of a run not handed out by then are dropped (never
// issued: a gap in the sequence).
const RunFreshNs = int64(time.Millisecond)

// heldRun is one reserved run: ids[next...] are still to be handed out,
// until the generator's clock leaves [filled, filled+RunFreshNs).
type heldRun struct {
	ids    []int64
	next   atomic.Int64
	filled int64
}

// fresh reports whether the run's ids may still be handed out at now (a
// clock that stepped back before filled counts as stale).
func (r *heldRun) fresh(now int64) bool {
	d := now - r.filled
	return d >= 0 && d < RunFreshNs
}

// runCache is a time generator's runs. Every reservation of the generator
// (a run, a batch) is made under mu, so that no run reserved before a
// batch is handed out after it: ids stay increasing for every caller,
// whatever method it used last.
type runCache struct {
	max     int
	cur     atomic.Pointer[heldRun] // nil: none held
	mu      sync.Mutex
	k       int   // the next run's length
	last    int64 // when the last run was reserved (its filled)
	dropped atomic.Int64
}

// drop forgets the held run (holding mu), counting the ids it leaves
// unissued.
func (rc *runCache) drop() {
	if r := rc.cur.Swap(nil); r != nil {
		if left := int64(len(r.ids)) - r.next.Load(); left > 0 {
			rc.dropped.Add(left)
		}
	}
}

// resize sets the next run's length (holding mu): twice the last if it
// was used up while fresh (the caller came back within RunFreshNs of its
// reservation), half of it otherwise.
func (rc *runCache) resize(now int64) {
	if d := now - rc.last; d >= 0 && d < RunFreshNs {
		rc.k = min(rc.k*2, rc.max)
	} else {
		rc.k = max(rc.k/2, 1)
	}
}

// issued is the ids handed out: those reserved (reserved, the generator's
// count) less those dropped and those the held run still has. It holds mu,
// under which every reservation is made, so that it never sees a new run's
// reservation without the run (a count that went down for a moment); ids
// handed out meanwhile from the held run only add to it.
func (rc *runCache) issued(reserved func() int64) int64 {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	n := reserved() - rc.dropped.Load()
	if r := rc.cur.Load(); r != nil {
		n -= max(int64(len(r.ids))-r.next.Load(), 0)
	}
	return n
}
