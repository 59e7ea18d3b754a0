package gen

import (
	"context"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/leasetest"
)

// Found by the simulator: a session generator that loses its pair and
// leases again must not take a lower worker, whose ids (the worker is in
// their top bits) would be lower than those it issued.
func TestSessionLeasesAgainOnlyUpward(t *testing.T) {
	st := leasetest.New()
	cfg := "preset=zk-session layout=worker:2,time:40,seq:16 worker=lease lease_ttl=300ms"
	a := openWith(t, cfg, nil, st)
	b := openWith(t, cfg, nil, st)
	c := openWith(t, cfg, nil, st)
	require.Contains(t, c.Config(), "leased=0/2")
	last := next(t, c)
	require.NoError(t, a.Close())
	require.NoError(t, b.Close()) // workers 0 and 1 are free now, 3 too
	spec, _ := config.Parse(cfg)
	pool := poolOf(spec).Name
	st.Kick(pool, lease.Pair{Worker: 2})
	taken := lease.Pair{Worker: 2} // another holder takes it at once
	_, err := st.Acquire(context.Background(), lease.Request{Pool: poolOf(spec), DC: -1, First: &taken, Limit: 1})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return StatsOf(c).LeasesTaken == 2 }, 3*time.Second, 5*time.Millisecond)
	require.Contains(t, c.Config(), "leased=0/3", "upward only")
	require.Greater(t, next(t, c), last)
}

// Found by the simulator: in a lease directory the pool already used, a
// zk-session generator takes a pair that never had a file (its record is
// missing, like a deleted one) by starting above what a lost holder could
// have counted, without refusing and without waiting.
func TestSessionTakesANeverUsedPairOfAUsedHostPool(t *testing.T) {
	dir := t.TempDir()
	cfg := "preset=zk-session worker=lease lease_dir=" + dir
	a := open(t, cfg, nil)
	start := time.Now()
	b := open(t, cfg, nil)
	require.Less(t, time.Since(start), 500*time.Millisecond, "no wait for a counter")
	pa, _ := a.Decode(next(t, a))
	pb, _ := b.Decode(next(t, b))
	require.NotEqual(t, pa.Worker, pb.Worker)
}

// Stats count every id issued, whatever path issued it (the fast path, a
// batch over several ticks, a tick wait, a takeover's jump over a record)
// though the count is kept per tick, not per id.
func TestStatsCountEveryID(t *testing.T) {
	for _, cfg := range []string{
		"layout=time:41,seq:4 worker=0", // 16 ids a tick: tick waits, batches over many ticks
		"layout=time:41,seq:4 worker=0 seq_start=random:8",
		"preset=zk-session worker=3",
		"preset=zxid layout=epoch:32,counter:4 worker=0", // epochs roll over every 15 ids
	} {
		g := open(t, cfg, nil)
		n := int64(0)
		for i := 0; i < 50; i++ {
			next(t, g)
			n++
			batch := make([]int64, 1+i%37)
			require.NoError(t, g.NextBatch(batch))
			n += int64(len(batch))
		}
		require.Equal(t, n, StatsOf(g).Issued, cfg)
	}
	st := leasetest.New()
	spec, _ := config.Parse("layout=time:41,seq:4 worker=lease")
	st.SetRecord(poolOf(spec).Name, lease.Pair{}, lease.Record{IssuedUpTo: time.Now().UnixMilli() - 1288834974657 + 50})
	g := openWith(t, "layout=time:41,seq:4 worker=lease", nil, st)
	require.Equal(t, int64(0), StatsOf(g).Issued, "a jump over a record issues nothing")
	require.NoError(t, g.NextBatch(make([]int64, 40)))
	require.Equal(t, int64(40), StatsOf(g).Issued)
}

// hangingStore's renewals hang while hang is set (a store that accepted
// the connection and never answers).
type hangingStore struct {
	*leasetest.Store
	hang atomic.Bool
}

type hangingClaim struct {
	lease.Claim
	s *hangingStore
}

func (s *hangingStore) Acquire(ctx context.Context, req lease.Request) (lease.Claim, error) {
	c, err := s.Store.Acquire(ctx, req)
	if err != nil {
		return nil, err
	}
	return &hangingClaim{c, s}, nil
}

func (c *hangingClaim) Renew(ctx context.Context, rec lease.Record) error {
	if c.s.hang.Load() {
		<-ctx.Done()
		return ctx.Err()
	}
	return c.Claim.Renew(ctx, rec)
}

// A scrape during an outage answers at once: stats never wait for a
// renewal hanging on the store (it holds the Keeper's lock for its whole
// timeout).
func TestStatsDoNotWaitForAHangingStore(t *testing.T) {
	st := &hangingStore{Store: leasetest.New()}
	g := openWith(t, "preset=snowflake worker=lease lease_ttl=3s", nil, st)
	st.hang.Store(true)
	time.Sleep(1100 * time.Millisecond) // the first renewal (every lease_ttl/3) is hanging now
	start := time.Now()
	s := StatsOf(g)
	require.Less(t, time.Since(start), 100*time.Millisecond, "stats waited for the store")
	require.Equal(t, int64(lease.StateHeld), s.LeaseState, "nothing has failed yet")
	require.Eventually(t, func() bool { return StatsOf(g).LeaseState == lease.StateRiding }, 3*time.Second, 10*time.Millisecond)
	st.hang.Store(false)
}

// Text ids count like numbers (DESIGN: "ids (numbers or text)").
func TestStatsCountTextIDs(t *testing.T) {
	for _, cfg := range []string{"preset=uuidv7", "preset=ulid", "preset=rocketmq", "preset=snowflake worker=0 text=base62"} {
		c, err := config.Parse(cfg)
		require.NoError(t, err)
		g, err := Open(c, Options{})
		require.NoError(t, err)
		defer g.Close()
		buf := make([]byte, g.TextLen())
		for i := 0; i < 5000; i++ {
			_, err := g.NextText(buf)
			require.NoError(t, err)
		}
		require.Equal(t, int64(5000), StatsOf(g).Issued, cfg)
	}
}

// A batch that fails part-way leaves out untouched (the C ABI's "outputs
// only on success"); the ids it reserved are consumed, never issued again.
func TestBatchFailingPartWayLeavesOutUntouched(t *testing.T) {
	for _, cfg := range []string{
		"layout=time:41,worker:2,seq:4 worker=lease lease_ttl=300ms",         // 16 ids a tick: a batch spans ticks past the fence
		"preset=zxid layout=epoch:32,counter:4 worker=lease lease_ttl=300ms", // an epoch every 15 ids: each needs the store
	} {
		st := leasetest.New()
		clk := clock.NewManualClock(nowMs)
		g := openWith(t, cfg, clk, st)
		st.FailRenewals.Store(true)
		out := make([]int64, 20000)
		for i := range out {
			out[i] = -7
		}
		var err error
		for i := 0; i < 100 && err == nil; i++ { // run to the fence
			err = g.NextBatch(out)
			clk.Add(time.Millisecond)
			if err == nil {
				for i := range out {
					out[i] = -7
				}
			}
		}
		require.ErrorIs(t, err, errs.ErrWorker, cfg)
		for i, v := range out {
			require.Equal(t, int64(-7), v, "%s: out[%d] written by a failed batch", cfg, i)
		}
	}
}
