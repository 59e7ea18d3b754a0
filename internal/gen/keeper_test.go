package gen

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

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
		g := openWith(t, cfg, nil, st) // the real clock: 16 ids a ms, so 20,000 run a second past the fence
		st.FailRenewals.Store(true)
		out := make([]int64, 20000)
		for i := range out {
			out[i] = -7
		}
		var err error
		for i := 0; i < 100 && err == nil; i++ { // run to the fence
			err = g.NextBatch(out)
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

// Found by the fuzzer: on a new lease directory with a max_wait shorter
// than the wait for a possibly lost record, every open failed, however
// far apart. The bound is recorded at the first attempt, so the wait is
// paid once.
func TestNewLeaseDirectoryWithAShortMaxWaitOpensOnceTheBoundPassed(t *testing.T) {
	dir := t.TempDir()
	cfg, err := config.Parse("preset=snowflake worker=lease max_wait=100ms lease_dir=" + dir)
	require.NoError(t, err)
	_, err = Open(cfg, Options{})
	require.ErrorIs(t, err, errs.ErrClockBackwards)
	require.Contains(t, err.Error(), "takes the pair at once")
	time.Sleep(1200 * time.Millisecond) // max_outage 1s, and a tick
	g, err := Open(cfg, Options{})
	require.NoError(t, err)
	defer g.Close()
	next(t, g)
}

// Found by the fuzzer: a generator whose epoch is less than a unit ago
// issued its first id only at tick 1 (50 minutes for unit=1h).
func TestFirstIDInTickZeroDoesNotWait(t *testing.T) {
	epoch := time.Now().Add(-10 * time.Minute).UTC().Format(time.RFC3339)
	g := open(t, "layout=time:41,worker:2,seq:20 unit=1h worker=1 epoch="+epoch, nil)
	done := make(chan error, 1)
	go func() { _, err := g.Next(); done <- err }()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("the first id waited for tick 1")
	}
}

// Found by the fuzzer: a baidu-cached ring whose filler chunk needed more
// borrowed time than max_drift allows made ids that were stale as they
// landed, threw them away and made them again, for ever.
func TestBaiduCachedWithAShortDriftIssues(t *testing.T) {
	g := open(t, "preset=baidu-cached layout=time:30,worker:22,seq:11 worker=3 max_drift=1s", nil)
	done := make(chan error, 1)
	go func() { _, err := g.Next(); done <- err }()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("the first id never came")
	}
}

// landingStore's renewals land but are reported lost while lose is set (an
// answer that never came back; a write queued in a client across a
// session expiry).
type landingStore struct {
	*leasetest.Store
	lose atomic.Bool
}

type landingClaim struct {
	lease.Claim
	s *landingStore
}

func (s *landingStore) Acquire(ctx context.Context, req lease.Request) (lease.Claim, error) {
	c, err := s.Store.Acquire(ctx, req)
	if err != nil {
		return nil, err
	}
	return &landingClaim{c, s}, nil
}

func (c *landingClaim) Renew(ctx context.Context, rec lease.Record) error {
	err := c.Claim.Renew(ctx, rec)
	if err == nil && c.s.lose.Load() {
		return context.DeadlineExceeded
	}
	return err
}

// Found by the real-server outage test: after a session expired, a
// renewal of the holder's that landed unanswered was taken for someone
// else's record, and the holder left its own pair. A record the Keeper
// sent is its own, answered or not.
func TestOwnUnansweredWriteKeepsThePair(t *testing.T) {
	st := &landingStore{Store: leasetest.New()}
	cfg := "preset=snowflake worker=lease lease_ttl=300ms"
	g := openWith(t, cfg, nil, st)
	spec, _ := config.Parse(cfg)
	pool := poolOf(spec).Name
	st.lose.Store(true)
	before, _ := st.Record(pool, lease.Pair{})
	require.Eventually(t, func() bool { r, _ := st.Record(pool, lease.Pair{}); return r != before }, 2*time.Second, 5*time.Millisecond)
	// The landed write is reported lost after it lands: wait for the
	// Keeper to hear that, not only for the record to change.
	require.Eventually(t, func() bool { return StatsOf(g).LeaseState == int64(lease.StateRiding) }, 2*time.Second, 5*time.Millisecond)
	st.Kick(pool, lease.Pair{}) // the session expires
	st.lose.Store(false)
	require.Eventually(t, func() bool { return StatsOf(g).LeasesTaken == 2 }, 3*time.Second, 5*time.Millisecond)
	require.Contains(t, g.Config(), "leased=0/0", "its own pair again")
	next(t, g)
}

// A counter layout whose pool lost its record (the pool marker is there,
// the record file is not) is refused with a message saying why, not only
// "records ahead of the clock".
func TestCounterPoolWithALostRecordSaysWhy(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "zxid_epoch32-counter32.pool"), nil, 0o644))
	_, err := OpenString("preset=zxid lease_dir=" + dir)
	require.ErrorIs(t, err, errs.ErrWorker)
	require.Contains(t, err.Error(), "a counter layout cannot wait its way past")
}
