package leasetest

// The contract of a segment counter store (segment.Store: Take, GiveBack,
// Read).

import (
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/segment"
)

// CounterSuite is the contract every segment.Store meets, one subtest per
// case (CaseRace, CaseWentBack, CaseGiveBack, CaseNoCounter, CasePeriods), each on counters of its
// own, opening stores with open.
func CounterSuite(t *testing.T, open CounterOpener, o CounterOptions) {
	knownCases(t, o.Broken, CaseRace, CaseWentBack, CaseGiveBack, CaseNoCounter, CasePeriods)
	runCase(t, CaseRace, o.Broken, func(c *check) { caseRace(c, open) })
	runCase(t, CaseWentBack, o.Broken, func(c *check) { caseWentBack(c, open) })
	runCase(t, CaseGiveBack, o.Broken, func(c *check) { caseGiveBack(c, open) })
	runCase(t, CaseNoCounter, o.Broken, func(c *check) { caseNoCounter(c, open) })
	runCase(t, CasePeriods, o.Broken, func(c *check) { casePeriods(c, open, o) })
}

// span is one take's values, lo .. hi.
type span struct{ lo, hi int64 }

// caseRace: 8 stores (8 handles on one backing store) race 25 takes of 7
// each on a new counter: every take gets 7 values, no two share one, and
// together they are start .. start+8·25·7-1 with no hole; Read says where
// the counter stands.
func caseRace(c *check, open CounterOpener) {
	const racers, takes, n, start = 8, 25, 7, 1000
	stores := make([]segment.Store, racers)
	for i := range stores {
		stores[i] = open(c.T)
	}
	var mu sync.Mutex
	var got []span
	var failed []error
	var wg sync.WaitGroup
	ctx := c.ctx()
	for _, st := range stores {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range takes {
				prev, last, err := st.Take(ctx, "suite_race", start, n, 0)
				mu.Lock()
				got = append(got, span{prev + 1, last})
				if err != nil {
					failed = append(failed, err)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	require.Empty(c, failed, "racing takes failed")
	slices.SortFunc(got, func(a, b span) int { return int(a.lo - b.lo) })
	next := int64(start)
	for _, s := range got {
		require.Equal(c, next, s.lo, "takes are disjoint and leave no hole (at %d)", next)
		require.Equal(c, int64(n), s.hi-s.lo+1, "a take of %d values", n)
		next = s.hi + 1
	}
	last, found, err := stores[0].Read(c.ctx(), "suite_race")
	require.NoError(c, err)
	require.True(c, found)
	require.Equal(c, int64(start+racers*takes*n-1), last, "the counter stands at the last value taken")
}

// caseWentBack: a take whose mark is above 0 on a missing counter, or
// above the counter, is refused with segment.WentBack's error and moves
// nothing; a take at the mark goes on.
func caseWentBack(c *check, open CounterOpener) {
	st := open(c.T)
	_, _, err := st.Take(c.ctx(), "suite_went_back_none", 1, 10, 5)
	c.wentBack(err, "suite_went_back_none", 5, 0, false)

	const name = "suite_went_back"
	prev, last, err := st.Take(c.ctx(), name, 1, 10, 0)
	require.NoError(c, err)
	require.Equal(c, [2]int64{0, 10}, [2]int64{prev, last}, "a new counter begins at start")
	_, _, err = st.Take(c.ctx(), name, 1, 10, 50)
	c.wentBack(err, name, 50, 10, true)
	c.stands(st, name, 10, "the refused take moved nothing")
	prev, last, err = st.Take(c.ctx(), name, 1, 10, 10)
	require.NoError(c, err, "a take at the mark")
	require.Equal(c, [2]int64{10, 20}, [2]int64{prev, last})
}

// caseNoCounter: a counter never taken reads not found; neither a take
// refused for its mark nor a give-back on it creates it: it still reads
// not found, and the next take without a mark begins it at start.
func caseNoCounter(c *check, open CounterOpener) {
	st := open(c.T)
	const name = "suite_no_counter"
	c.missing(st, name, "a counter never taken")
	_, _, err := st.Take(c.ctx(), name, 1, 10, 5)
	c.wentBack(err, name, 5, 0, false)
	c.missing(st, name, "the refused take created no counter")
	ok, err := st.GiveBack(c.ctx(), name, 10, 4)
	require.NoError(c, err)
	require.False(c, ok, "no counter to give back to")
	c.missing(st, name, "the refused give-back created no counter")
	prev, last, err := st.Take(c.ctx(), name, 1, 10, 0)
	require.NoError(c, err)
	require.Equal(c, [2]int64{0, 10}, [2]int64{prev, last}, "begun at start")
}

// missing asserts counter name reads not found.
func (c *check) missing(st segment.Store, name, msg string) {
	_, found, err := st.Read(c.ctx(), name)
	require.NoError(c, err, msg)
	require.False(c, found, msg)
}

// wentBack asserts err is segment.WentBack's refusal of counter name
// (mark, standing at now, found), whatever the store's advice on
// restoring it.
func (c *check) wentBack(err error, name string, mark, now int64, found bool) {
	require.Error(c, err, "a take with mark %d on counter %s (found %v, at %d)", mark, name, found, now)
	require.ErrorIs(c, err, errs.ErrWorker)
	w := strings.TrimPrefix(segment.WentBack("@", name, mark, now, found, "").Error(), "@: ")
	w, _, _ = strings.Cut(w, "; restore")
	require.Contains(c, err.Error(), w, "segment.WentBack's refusal")
}

// caseGiveBack: a give-back lands only while the counter stands at the
// giver's last value (the values given back are taken again); after
// another take it is refused and changes nothing.
func caseGiveBack(c *check, open CounterOpener) {
	st := open(c.T)
	ctx := c.ctx()
	const name = "suite_give_back"
	_, last, err := st.Take(ctx, name, 1, 10, 0)
	require.NoError(c, err)
	require.Equal(c, int64(10), last)
	ok, err := st.GiveBack(ctx, name, 10, 4)
	require.NoError(c, err)
	require.True(c, ok, "the counter stands where the giver left it")
	c.stands(st, name, 4, "given back")
	prev, last, err := st.Take(ctx, name, 1, 10, 4)
	require.NoError(c, err)
	require.Equal(c, [2]int64{4, 14}, [2]int64{prev, last}, "the values given back are taken again")
	ok, err = st.GiveBack(ctx, name, 10, 4)
	require.NoError(c, err)
	require.False(c, ok, "someone took since: the give-back is refused")
	c.stands(st, name, 14, "a refused give-back moves nothing")
}

// stands asserts counter name reads v.
func (c *check) stands(st segment.Store, name string, v int64, msg string) {
	got, found, err := st.Read(c.ctx(), name)
	require.NoError(c, err, msg)
	require.True(c, found, msg)
	require.Equal(c, v, got, msg)
}
