package sim

import (
	"fmt"
	"io"
	"time"
)

// Totals are what a batch did.
type Totals struct {
	Runs, Failures, IDs int
	SimTime             time.Duration // simulated time, all schedules together
}

// Batch runs schedules from seed (each schedule's seed derived from it) until
// n have run or the time limit passes (0: none), printing one line per
// failure with the command that replays it; the caller prints Summary.
func Batch(out io.Writer, seed uint64, n int, limit time.Duration, trace bool) (t Totals) {
	start := time.Now()
	for i := 0; i < n; i++ {
		if limit > 0 && time.Since(start) > limit {
			break
		}
		s := SeedOf(seed, i)
		if n == 1 {
			s = seed // one schedule: the seed given is the schedule's own
		}
		r := Run(s, trace)
		t.Runs++
		t.IDs += r.IDs
		t.SimTime += r.SimTime
		if trace {
			fmt.Fprint(out, r.Trace)
		}
		if r.Failure != "" {
			t.Failures++
			fmt.Fprintf(out, "FAIL seed %#x (%s): %s\n  replay: make sim SIM_SEED=%#x SIM_SCHEDULES=1 SIM_TRACE=1\n", r.Seed, r.Setup, r.Failure, r.Seed)
		}
	}
	return t
}

// Summary is the last line of a run.
func Summary(runs, failures int, seed uint64) string {
	return fmt.Sprintf("sim: %d schedules, %d failures (seed %#x)", runs, failures, seed)
}

// CatchMutant runs schedules until one fails under the seeded bug name,
// up to n; it reports after how many (0: not caught). A schedule that
// fails without the bug too (a real bug still open) does not count.
func CatchMutant(name string, seed uint64, n int) int {
	defer setMutant("")
	for i := 0; i < n; i++ {
		setMutant(name)
		if Run(SeedOf(seed, i), false).Failure == "" {
			continue
		}
		setMutant("")
		if Run(SeedOf(seed, i), false).Failure == "" {
			return i + 1
		}
	}
	return 0
}

// Mutants are the seeded bugs the simulator must catch.
var Mutants = []string{
	"ignore-predecessor", // a taker ignores its predecessor's record
	"past-fence",         // a holder issues past its fence
	"renew-unchecked",    // renewals without the token check
	"missing-is-new",     // a missing record counted as new
	"fence-ttl",          // the fence written lease_ttl ahead, not max_outage
	"configure-restart",  // a replacement generator restarts from its clock
	"redis-incarnation",  // a lossy store's missing records counted as new
	"seq-reused",         // a clean restart reissues the last sequence of its tick
	"own-by-value",       // a holder knows its own record by value alone, and keeps refused writes as maybe landed
	"segment-tail",       // a close gives back the current segment's tail past a segment someone else took
	"segment-reinstall",  // a prefetched segment stays in hand after it became current
	// Issue 32, which the extended world (extBit) expresses:
	"removed-fence-stands", // the fence stands after ErrRemoved (a second thread issues under it)
	"session-past-cap",     // a session batch makes Extend write a fence past the cap (clock + max_outage)
	"segment-no-mark",      // a segment take ignores the high-water mark (a counter lost or deleted starts again)
	"reach-ignored",        // a taker of a lost record ignores the pool's largest drift (the marker's reach)
	"lost-counter-new",     // a counter layout (zxid) takes a pair a lossy store lost as new (item 6: epoch 0 again)
	"lost-skew",            // a taker of a record a lossy store lost assumes the holder's clock was its own
	// Business numbers (numBit):
	"period-host-clock", // a number's period decided by the host's clock, not the store's
}
