package idgen_test

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen"
)

// TestHoldAndWaitToBeKilled is not a test: run by
// TestOpenContextStopsAWaitForARecordAheadOfTheClock as a child
// (IDGEN_TEST_HOLD set), it takes the pool's pair, writes its fence and
// waits to be killed -9, leaving its record ahead of the clock.
func TestHoldAndWaitToBeKilled(t *testing.T) {
	cfg := os.Getenv("IDGEN_TEST_HOLD")
	if cfg == "" {
		t.Skip("a helper process")
	}
	g, err := idgen.Open(cfg)
	require.NoError(t, err)
	_, err = g.Next()
	require.NoError(t, err)
	os.Stdout.WriteString("holding\n")
	time.Sleep(time.Minute)
}

// killedHolder runs a child that takes the one pair of cfg's pool and
// kills it -9 once it holds it: its record stays, its fence ahead.
func killedHolder(t *testing.T, cfg string) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHoldAndWaitToBeKilled$", "-test.count=1")
	cmd.Env = append(os.Environ(), "IDGEN_TEST_HOLD="+cfg)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, _ := bufio.NewReader(out).ReadString('\n')
	require.Equal(t, "holding\n", line)
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	_, _ = cmd.Process.Wait()
}

// A pool of one pair (a layout without worker or datacenter) whose record
// a killed holder left an hour ahead of the clock: Open would wait for it
// (up to max_wait, 2 h here); OpenContext returns when its context ends,
// before the fence the listing reports, with an error wrapping the
// context's and ErrWorker, and leaves the record as it was and the pair
// free to take. A context that ends after the open does not touch the
// generator.
func TestOpenContextStopsAWaitForARecordAheadOfTheClock(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700))
	pool := "layout=time:41,seq:22 worker=lease lease_dir=" + dir + " lease_ttl=200ms"
	g, err := idgen.Open(pool + " max_outage=200ms") // a new directory: waits one max_outage
	require.NoError(t, err)
	require.NoError(t, g.Close())
	killedHolder(t, pool+" max_outage=1h")
	before, err := idgen.Leases(pool)
	require.NoError(t, err)
	require.Len(t, before.Pairs, 1)
	fence := before.Pairs[0].FenceUnixMs
	require.Equal(t, "blocked", before.Pairs[0].State, "%+v", before.Pairs[0])
	require.Greater(t, fence, time.Now().Add(50*time.Minute).UnixMilli(), "the killed holder's fence: an hour ahead")

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	g, err = idgen.OpenContext(ctx, pool+" max_outage=1s max_wait=2h")
	require.Nil(t, g)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	require.ErrorIs(t, err, idgen.ErrWorker)
	require.Equal(t, -5, idgen.Code(err))
	require.Contains(t, err.Error(), "open cancelled")
	require.Less(t, time.Now().UnixMilli(), fence, "returned before the fence it was waiting for")
	after, err := idgen.Leases(pool)
	require.NoError(t, err)
	require.Equal(t, before, after, "nothing written, nothing held")

	// Without a context the same open goes on waiting (here up to a
	// max_wait of 300ms, then ErrClock): the wait was real.
	_, err = idgen.Open(pool + " max_outage=1s max_wait=300ms")
	require.ErrorIs(t, err, idgen.ErrClock)
	require.False(t, errors.Is(err, context.DeadlineExceeded))
}

// A context done before the open fails it at once; one that ends after
// the open does not stop the generator, which goes on issuing and
// closes cleanly.
func TestOpenContextBeforeAndAfter(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	g, err := idgen.OpenContext(ctx, "worker=3")
	require.Nil(t, g)
	require.ErrorIs(t, err, context.Canceled)
	require.ErrorIs(t, err, idgen.ErrWorker)

	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700))
	ctx, cancel = context.WithCancel(context.Background())
	g, err = idgen.OpenContext(ctx, "worker=lease lease_dir="+dir+" lease_ttl=100ms max_outage=100ms")
	require.NoError(t, err)
	cancel()
	time.Sleep(150 * time.Millisecond) // a renewal or more after the context ended
	a, err := g.Next()
	require.NoError(t, err)
	b, err := g.Next()
	require.NoError(t, err)
	require.Less(t, a, b)
	require.Equal(t, idgen.LeaseHeld, g.Stats().LeaseState)
	require.NoError(t, g.Close())
	l, err := idgen.Leases("worker=lease lease_dir=" + dir)
	require.NoError(t, err)
	require.Len(t, l.Pairs, 1)
	require.Equal(t, "free", l.Pairs[0].State, "the close released the pair")
}

// Leases of a host-directory pool: a pair a live generator holds (its
// worker, its fence, this process as the holder), a pair closed cleanly
// (free, no holder); a segment counter before and after values were
// taken; a configuration without a lease is ErrInvalid.
func TestLeasesOfAHostDirectoryPool(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Chmod(dir, 0o700))
	cfg := "preset=snowflake worker=lease lease_dir=" + dir + " lease_ttl=200ms max_outage=200ms"
	empty, err := idgen.Leases(cfg)
	require.NoError(t, err)
	require.Empty(t, empty.Pairs)
	require.Nil(t, empty.Counter)
	held, err := idgen.Open(cfg) // a new directory: waits one max_outage
	require.NoError(t, err)
	defer held.Close()
	closed, err := idgen.Open(cfg)
	require.NoError(t, err)
	gone := closed.Stats()
	require.NoError(t, closed.Close())
	st := held.Stats()
	l, err := idgen.Leases(cfg)
	require.NoError(t, err)
	require.Nil(t, l.Counter)
	require.Len(t, l.Pairs, 2, "%+v", l.Pairs)
	host, _ := os.Hostname()
	byWorker := map[int64]idgen.PairLease{}
	for _, p := range l.Pairs {
		byWorker[p.Worker] = p
	}
	h := byWorker[st.Worker]
	require.Equal(t, idgen.PairLease{Datacenter: st.Datacenter, Worker: st.Worker, State: "held", FenceUnixMs: h.FenceUnixMs, Holder: host + ":" + strconv.Itoa(os.Getpid())}, h)
	require.GreaterOrEqual(t, h.FenceUnixMs, st.FenceUnixMs, "the fence the holder reports, or a later renewal's")
	f := byWorker[gone.Worker]
	require.Equal(t, "free", f.State)
	require.Equal(t, "", f.Holder)
	require.NotEqual(t, st.Worker, gone.Worker)

	_, err = idgen.Leases("worker=7")
	require.ErrorIs(t, err, idgen.ErrInvalid)
	require.Contains(t, err.Error(), "worker: this configuration takes no lease")

	seg := "preset=segment name=orders start=10 lease_dir=" + dir
	c, err := idgen.Leases(seg)
	require.NoError(t, err)
	require.Nil(t, c.Pairs)
	require.Equal(t, &idgen.Counter{Name: "orders", Store: "lease_dir " + dir, Start: 10}, c.Counter)
	g, err := idgen.Open(seg + " step=5")
	require.NoError(t, err)
	v, err := g.Next()
	require.NoError(t, err)
	require.Equal(t, int64(10), v)
	require.NoError(t, g.Close()) // gives back 11..14
	c, err = idgen.Leases(seg)
	require.NoError(t, err)
	require.Equal(t, &idgen.Counter{Name: "orders", Store: "lease_dir " + dir, Found: true, Last: 10, Start: 10}, c.Counter)
}

// LeaseState prints the names the stats and metrics use.
func TestLeaseStateString(t *testing.T) {
	for s, want := range map[idgen.LeaseState]string{
		idgen.LeaseNone: "none", idgen.LeaseHeld: "held", idgen.LeaseRiding: "riding", idgen.LeaseLost: "lost", 7: "LeaseState(7)", -1: "LeaseState(-1)",
	} {
		require.Equal(t, want, s.String())
	}
	require.Equal(t, []int64{0, 1, 2, 3}, []int64{int64(idgen.LeaseNone), int64(idgen.LeaseHeld), int64(idgen.LeaseRiding), int64(idgen.LeaseLost)}, "IDGEN_LEASE_*")
}
