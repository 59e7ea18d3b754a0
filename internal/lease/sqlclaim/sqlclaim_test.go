package sqlclaim

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/lease"
)

func TestRecordColumnsWithAndWithoutTheSeqColumns(t *testing.T) {
	q := func(i int) string { return "$" + strconv.Itoa(5+i) }
	require.Equal(t, "issued_up_to = $5, backwards = $6, next_seq = $7, writer = $8", RecordSet(true, q))
	require.Equal(t, "issued_up_to = $5, backwards = $6", RecordSet(false, q))
	r := lease.Record{IssuedUpTo: 9, Backwards: 1, Seq: 4, Holder: 77}
	require.Equal(t, []int64{9, 1, 4, 77}, RecordArgs(true, r))
	require.Equal(t, []int64{9, 1}, RecordArgs(false, r))
}

func TestSpanOfARequest(t *testing.T) {
	pool := lease.Pool{Name: "p", DCs: 4, Workers: 8}
	require.Equal(t, Span{0, 3, 8}, SpanOf(lease.Request{Pool: pool, DC: -1}))
	require.Equal(t, Span{2, 2, 8}, SpanOf(lease.Request{Pool: pool, DC: 2}))
	got := Span{0, 3, 8}.Indexes(map[lease.Pair]bool{{DC: 1, Worker: 3}: true, {DC: 0, Worker: 0}: true})
	slices.Sort(got)
	require.Equal(t, []string{"0", "11"}, got)
}

// fakeRows stands for a table: the row carries token until it is freed.
type fakeRows struct {
	token string
	sets  []string
}

func (f *fakeRows) update(_ context.Context, c *Claim, set string, rec *lease.Record) (bool, error) {
	if c.Token != f.token {
		return false, nil
	}
	if rec != nil {
		set += " + record"
	}
	f.sets = append(f.sets, set)
	if strings.HasPrefix(set, "holder = NULL") {
		f.token = ""
	}
	return true, nil
}

func TestClaimRenewsReleasesAndSeesAnotherHolder(t *testing.T) {
	f := &fakeRows{token: "t1"}
	done := make(chan struct{})
	defer close(done)
	tab := &Table{Where: "table x on db", Expiry: "EXP", TTL: time.Hour, Done: done, Update: f.update}
	c := New(tab, "p", "t1", lease.Pair{DC: 1, Worker: 2})
	require.Equal(t, "row (p, 1, 2) of table x on db", c.Where())
	require.Equal(t, lease.Pair{DC: 1, Worker: 2}, c.Pair())
	require.NoError(t, c.Renew(context.Background(), lease.Record{IssuedUpTo: 5}))
	require.NoError(t, c.Release(context.Background(), lease.Record{IssuedUpTo: 6}))
	require.Equal(t, []string{"expires_at = EXP + record", "holder = NULL, expires_at = NULL + record"}, f.sets)
	err := c.Renew(context.Background(), lease.Record{IssuedUpTo: 7})
	require.ErrorIs(t, err, lease.ErrGone, "the row no longer carries the token")
	require.False(t, errors.Is(err, lease.ErrRemoved))

	err = PoolFull(lease.Request{Pool: lease.Pool{Name: "p", DCs: 1, Workers: 2}, DC: -1}, tab, 1)
	require.EqualError(t, err, "all 2 pairs of pool p are taken in table x on db (1 skipped: records ahead of the clock)")
}
