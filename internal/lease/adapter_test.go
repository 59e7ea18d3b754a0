package lease

import (
	"context"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

func TestPoolFullNamesThePoolOrTheDatacenter(t *testing.T) {
	pool := Pool{Name: "p", DCs: 4, Workers: 8}
	for _, c := range []struct {
		req  Request
		want string
	}{
		{Request{Pool: pool, DC: -1}, "all 32 pairs of pool p are taken on here: 3 held"},
		{Request{Pool: pool, DC: 2}, "all 8 workers of datacenter 2 in pool p (32 pairs) are taken on here: 3 held"},
		{Request{Pool: pool, DC: -1, Limit: 5}, "all 5 pairs of pool p are taken on here: 3 held"},
	} {
		err := PoolFull(c.req, "on %s: %d held", "here", 3)
		require.ErrorIs(t, err, errs.ErrWorker)
		require.Contains(t, err.Error(), c.want)
	}
}

func TestUnansweredKeepsTheLatestUpToItsBound(t *testing.T) {
	u := NewUnanswered(2)
	u.Add([]byte("a"))
	u.Add([]byte("b"))
	u.Add([]byte("c"))
	require.False(t, u.Has([]byte("a")), "the oldest is dropped past the bound")
	require.True(t, u.Has([]byte("b")))
	require.True(t, u.Has([]byte("c")))
	u.Answered()
	require.False(t, u.Has([]byte("c")))
	var all Unanswered
	for range 100 {
		all.Add([]byte("x"))
	}
	require.True(t, all.Has([]byte("x")), "the zero value has no bound")
}

func TestParsePairAndSortEntries(t *testing.T) {
	for s, want := range map[string]bool{"0.0": true, "3.17": true, "3": false, "-1.2": false, "1.x": false, "1.2.3": false, "": false} {
		p, ok := ParsePair(s)
		require.Equal(t, want, ok, s)
		if ok {
			require.Equal(t, s, strconv.FormatInt(p.DC, 10)+"."+strconv.FormatInt(p.Worker, 10))
		}
	}
	es := []Entry{{Pair: Pair{1, 0}}, {Pair: Pair{0, 5}}, {Pair: Pair{0, 2}}}
	SortEntries(es)
	require.Equal(t, []Pair{{0, 2}, {0, 5}, {1, 0}}, []Pair{es[0].Pair, es[1].Pair, es[2].Pair})
}

func TestKeepStopsWhenHeldDoneOrGone(t *testing.T) {
	var calls, noDeadline atomic.Int64
	held, done := make(chan struct{}), make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		Keep(30*time.Millisecond, held, done, func(ctx context.Context) bool {
			if _, ok := ctx.Deadline(); !ok {
				noDeadline.Add(1)
			}
			calls.Add(1)
			return false
		})
		close(stopped)
	}()
	require.Eventually(t, func() bool { return calls.Load() >= 2 }, 10*time.Second, time.Millisecond, "keeps every ttl/3")
	close(held)
	<-stopped
	require.Zero(t, noDeadline.Load(), "each call has a deadline")

	go func() { Keep(30*time.Millisecond, nil, nil, func(context.Context) bool { return true }); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("a gone claim stops Keep")
	}
}
