//go:build fleet

package fleet

// The ZooKeeper and PostgreSQL store adapters on their own (zkstore,
// pgstore: Acquire, Renew, Release, Abandon, Predecessor), against the
// real servers TestMain started, with the faults that broke them: a
// session expired by a partition, a renewal whose answer came too late, a
// record whose value looks new, a table made beforehand by a DBA for a
// least-privilege role, a taker that waits longer than lease_ttl.

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/pgstore"
	"github.com/idgen/idgen/internal/lease/zkstore"
)

// proxy is a running build/tcpproxy: freeze cuts its clients off (both
// ways; what they send waits in the kernel's buffers), thaw lets it
// through again.
type proxy struct {
	t    *testing.T
	cmd  *exec.Cmd
	port int
}

func startProxy(t *testing.T, target string) *proxy {
	t.Helper()
	p := &proxy{t: t, cmd: exec.Command(filepath.Join(build, "tcpproxy"), "-target", target)}
	out, err := p.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, p.cmd.Start())
	t.Cleanup(func() { _ = p.cmd.Process.Signal(syscall.SIGCONT); _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	sc := bufio.NewScanner(out)
	require.True(t, sc.Scan())
	p.port, err = strconv.Atoi(sc.Text())
	require.NoError(t, err)
	return p
}

func (p *proxy) addr() string { return "127.0.0.1:" + strconv.Itoa(p.port) }
func (p *proxy) freeze()      { require.NoError(p.t, p.cmd.Process.Signal(syscall.SIGSTOP)) }
func (p *proxy) thaw()        { require.NoError(p.t, p.cmd.Process.Signal(syscall.SIGCONT)) }

func onePair(ttl time.Duration) lease.Request {
	return lease.Request{Pool: lease.Pool{Name: "one", DCs: 1, Workers: 1}, DC: -1, TTL: ttl}
}

func openZK(t *testing.T, hosts string, ttl time.Duration) *zkstore.Store {
	t.Helper()
	u, err := config.ParseStoreURL("zk://" + hosts + "/" + testRoot(t))
	require.NoError(t, err)
	s, err := zkstore.Open(u, ttl)
	require.NoError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// zkRaw is a plain client of the ensemble, to look at the nodes.
func zkRaw(t *testing.T) *zk.Conn {
	t.Helper()
	c, _, err := zk.Connect(strings.Split(zkConnect, ","), 10*time.Second, zk.WithLogInfo(false))
	require.NoError(t, err)
	t.Cleanup(c.Close)
	return c
}

func openPG(t *testing.T, rawURL, table string, ttl time.Duration) (*pgstore.Store, error) {
	t.Helper()
	u, err := config.ParseStoreURL(rawURL)
	require.NoError(t, err)
	s, err := pgstore.Open(u, table, ttl)
	if err == nil {
		t.Cleanup(func() { s.Close() })
	}
	return s, err
}

func psql(t *testing.T, sql string) string {
	t.Helper()
	out, err := script("pg.sh", "psql", filepath.Join(work, "pg"), sql)
	require.NoError(t, err, out)
	return strings.TrimSpace(out)
}

func bg() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), 10*time.Second)
}

// A network cut longer than the session timeout expires the session; the
// client then opens a new one by itself. The claim of the old session is
// gone, and the same store leases again (a new lock in the new session),
// finding the record the old claim left.
func TestZooKeeperStoreLeasesAgainAfterItsSessionExpired(t *testing.T) {
	const ttl = 2 * time.Second
	p := startProxy(t, zkConnect)
	s := openZK(t, p.addr(), ttl)
	ctx, cancel := bg()
	defer cancel()
	c, err := s.Acquire(ctx, onePair(ttl))
	require.NoError(t, err)
	require.NoError(t, c.Renew(ctx, lease.Record{IssuedUpTo: 1000}))

	p.freeze()
	time.Sleep(3*ttl + time.Second) // the ensemble expires the session after ttl
	p.thaw()

	start := time.Now()
	var c2 lease.Claim
	for c2 == nil {
		require.Less(t, time.Since(start), 20*time.Second, "the store never leased again after the session expired: %v", err)
		c2, err = s.Acquire(ctx, onePair(ttl))
		if err != nil {
			time.Sleep(100 * time.Millisecond)
		}
	}
	took := time.Since(start)
	require.ErrorIs(t, c.Renew(ctx, lease.Record{IssuedUpTo: 2000}), lease.ErrGone, "the old session's claim is gone")
	require.Equal(t, lease.Pair{}, c2.Pair())
	rec, state := c2.Predecessor()
	require.Equal(t, lease.Present, state)
	require.Equal(t, int64(1000), rec.IssuedUpTo, "the old claim's last record, and not the refused renewal")
	require.NoError(t, c2.Renew(ctx, lease.Record{IssuedUpTo: 3000}))

	// Releasing the old claim touches neither the record nor the new lock.
	_ = c.Release(ctx, lease.Record{IssuedUpTo: 1})
	require.NoError(t, c2.Renew(ctx, lease.Record{IssuedUpTo: 4000}))
	other := openZK(t, zkConnect, ttl)
	_, err = other.Acquire(ctx, onePair(ttl))
	require.ErrorIs(t, err, errs.ErrWorker, "the new lock still holds the pair")
	require.NoError(t, c2.Release(ctx, lease.Record{IssuedUpTo: 4001}))
	t.Logf("session expired by a %s cut (session timeout %s): leased again %s after the thaw, record 1000 found",
		3*ttl+time.Second, ttl, took.Round(10*time.Millisecond))
}

// The same through a real holder process: cut off longer than the session
// timeout, it stops (lease lost), and leases again by itself after the
// thaw, with no id issued twice.
func TestZooKeeperHolderLeasesAgainAfterItsSessionExpired(t *testing.T) {
	p := startProxy(t, zkConnect)
	cfg := "layout=time:41,seq:22 lease_ttl=2s max_outage=2s worker=zk://" + p.addr() + "/" + testRoot(t)
	a := startHolder(t, cfg, 100)
	require.Empty(t, a.open, a.open)
	time.Sleep(500 * time.Millisecond)
	p.freeze()
	frozen := time.Now()
	lost, line := a.waitStatus(-5, 3*ttl)
	time.Sleep(time.Until(frozen.Add(7 * time.Second))) // 7 s in all: the session expires
	p.thaw()
	thawed := time.Now().UnixMilli()
	back, _ := a.waitStatus(0, 20*time.Second)
	a.stop()
	n := noDuplicates(t, a)
	t.Logf("cut 7 s: stopped %d ms after the cut (%s), issuing again %d ms after the thaw; %d ids, 0 duplicates",
		lost-frozen.UnixMilli(), strings.SplitN(line, " ", 4)[3], back-thawed, n)
}

// replyDropper forwards TCP connections to the first target that answers.
// While drop is set it throws away what the servers answer (requests still
// go through); cut closes every connection.
type replyDropper struct {
	ln    net.Listener
	drop  atomic.Bool
	mu    sync.Mutex
	conns []net.Conn
}

func startReplyDropper(t *testing.T, targets string) *replyDropper {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	d := &replyDropper{ln: ln}
	t.Cleanup(func() { ln.Close(); d.cut() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			var up net.Conn
			for _, tg := range strings.Split(targets, ",") {
				if up, err = net.DialTimeout("tcp", tg, 2*time.Second); err == nil {
					break
				}
			}
			if up == nil {
				c.Close()
				continue
			}
			d.mu.Lock()
			d.conns = append(d.conns, c, up)
			d.mu.Unlock()
			go func() { _, _ = io.Copy(up, c); up.Close() }()
			go func() {
				buf := make([]byte, 64<<10)
				for {
					n, err := up.Read(buf)
					if n > 0 && !d.drop.Load() {
						if _, werr := c.Write(buf[:n]); werr != nil {
							break
						}
					}
					if err != nil {
						break
					}
				}
				c.Close()
			}()
		}
	}()
	return d
}

func (d *replyDropper) addr() string { return d.ln.Addr().String() }

func (d *replyDropper) cut() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, c := range d.conns {
		c.Close()
	}
	d.conns = nil
}

// A renewal whose answer never comes (slower than the caller's deadline,
// then its connection dropped) may still have landed: the next renewal,
// refused for its stale version, must recognise the holder's own write
// instead of calling the claim gone.
func TestZooKeeperRenewalThatLandedUnansweredIsStillOurs(t *testing.T) {
	const ttl = 6 * time.Second // a long session: nothing below expires it
	d := startReplyDropper(t, zkConnect)
	s := openZK(t, d.addr(), ttl)
	ctx, cancel := bg()
	defer cancel()
	c, err := s.Acquire(ctx, onePair(ttl))
	require.NoError(t, err)
	require.NoError(t, c.Renew(ctx, lease.Record{IssuedUpTo: 100}))

	d.drop.Store(true)
	slow, cancelSlow := context.WithTimeout(context.Background(), ttl/3)
	err = c.Renew(slow, lease.Record{IssuedUpTo: 200}) // lands, its answer is lost
	cancelSlow()
	require.Error(t, err)
	require.NotErrorIs(t, err, lease.ErrGone)
	raw := zkRaw(t)
	node := "/" + testRoot(t) + "/one/0.0"
	require.Eventually(t, func() bool {
		b, _, err := raw.Get(node)
		return err == nil && string(b) == "idgen-lease 1 200 0"
	}, 5*time.Second, 20*time.Millisecond, "the unanswered renewal landed")
	d.cut() // the client reconnects, in the same session
	d.drop.Store(false)

	// Renew as a holder does: again after a passing fault (the client
	// notices the cut and reconnects), until it holds or is gone.
	for start := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		err = c.Renew(ctx, lease.Record{IssuedUpTo: 300})
		if err == nil || errors.Is(err, lease.ErrGone) || time.Since(start) > 10*time.Second {
			break
		}
	}
	require.NoError(t, err, "our own unanswered write is not someone else's")
	b, _, err := raw.Get(node)
	require.NoError(t, err)
	require.Equal(t, "idgen-lease 1 300 0", string(b))

	// A write by someone else is still someone else's.
	_, st, err := raw.Get(node)
	require.NoError(t, err)
	_, err = raw.Set(node, []byte("idgen-lease 1 999 0"), st.Version)
	require.NoError(t, err)
	require.ErrorIs(t, c.Renew(ctx, lease.Record{IssuedUpTo: 400}), lease.ErrGone)
	require.NoError(t, c.Abandon(ctx))
}

// A pair with no record is new; a record is a record, whatever its value:
// IssuedUpTo 0 (made, released at 0, or restored so) is Present, never
// Fresh.
func TestStoresReportFreshOnlyWithoutARecord(t *testing.T) {
	const ttl = 2 * time.Second
	t.Run("zk", func(t *testing.T) {
		s := openZK(t, zkConnect, ttl)
		ctx, cancel := bg()
		defer cancel()
		c, err := s.Acquire(ctx, onePair(ttl))
		require.NoError(t, err)
		_, state := c.Predecessor()
		require.Equal(t, lease.Fresh, state, "no node: a new pair")
		require.NoError(t, c.Release(ctx, lease.Record{}))
		c, err = s.Acquire(ctx, onePair(ttl))
		require.NoError(t, err)
		rec, state := c.Predecessor()
		require.Equal(t, lease.Present, state, "a record (0, 0) is a record")
		require.Equal(t, lease.Record{}, rec)
		require.NoError(t, c.Abandon(ctx))
		// Made by a taker that then gave up: still a record.
		raw := zkRaw(t)
		node := "/" + testRoot(t) + "/one/0.0"
		require.NoError(t, raw.Delete(node, -1))
		c, err = s.Acquire(ctx, onePair(ttl))
		require.NoError(t, err)
		_, state = c.Predecessor()
		require.Equal(t, lease.Fresh, state, "deleted: new again (DESIGN: a pair with no record is new)")
		require.NoError(t, c.Abandon(ctx))
		c, err = s.Acquire(ctx, onePair(ttl))
		require.NoError(t, err)
		_, state = c.Predecessor()
		require.Equal(t, lease.Present, state, "the record the abandoned taker made")
		require.NoError(t, c.Abandon(ctx))
	})
	t.Run("pg", func(t *testing.T) {
		table := testRoot(t)
		s, err := openPG(t, pgURL, table, ttl)
		require.NoError(t, err)
		ctx, cancel := bg()
		defer cancel()
		c, err := s.Acquire(ctx, onePair(ttl))
		require.NoError(t, err)
		_, state := c.Predecessor()
		require.Equal(t, lease.Fresh, state, "no row: a new pair")
		require.NoError(t, c.Release(ctx, lease.Record{}))
		c, err = s.Acquire(ctx, onePair(ttl))
		require.NoError(t, err)
		rec, state := c.Predecessor()
		require.Equal(t, lease.Present, state, "a row (0, 0) is a record")
		require.Equal(t, lease.Record{}, rec)
		require.NoError(t, c.Abandon(ctx))
		// A row restored from a backup, or made by a DBA, at 0.
		psql(t, "DELETE FROM "+table)
		psql(t, "INSERT INTO "+table+" (pool, datacenter, worker, issued_up_to, backwards) VALUES ('one', 0, 0, 0, 0)")
		c, err = s.Acquire(ctx, onePair(ttl))
		require.NoError(t, err)
		_, state = c.Predecessor()
		require.Equal(t, lease.Present, state, "a restored row at 0 is a record")
		require.NoError(t, c.Abandon(ctx))
		psql(t, "DELETE FROM "+table)
		c, err = s.Acquire(ctx, onePair(ttl))
		require.NoError(t, err)
		_, state = c.Predecessor()
		require.Equal(t, lease.Fresh, state, "deleted: new again (DESIGN: a pair with no record is new)")
		require.NoError(t, c.Abandon(ctx))
	})
}

// lpRole makes a login role with no CREATE anywhere, whose search_path is
// a schema of its own, and returns its URL.
func lpRole(t *testing.T, role string) (url, schema string) {
	t.Helper()
	schema = role + "_s"
	psql(t, "CREATE ROLE "+role+" LOGIN PASSWORD 'lp-pw'")
	psql(t, "CREATE SCHEMA "+schema+" AUTHORIZATION postgres")
	psql(t, "GRANT USAGE ON SCHEMA "+schema+" TO "+role)
	psql(t, "ALTER ROLE "+role+" SET search_path = "+schema)
	host := stores()[1].target
	return "postgres://" + role + ":lp-pw@" + host + "/idgen?sslmode=disable", schema
}

// A table a DBA made beforehand serves a role with only SELECT, INSERT and
// UPDATE on it: opening runs no CREATE TABLE or CREATE INDEX.
func TestPostgresLeastPrivilegeRoleUsesATableMadeBeforehand(t *testing.T) {
	const ttl = 2 * time.Second
	role := testRoot(t)
	role = role[:min(len(role), 30)]
	url, schema := lpRole(t, role)
	table := "idgen_lease"
	psql(t, `CREATE TABLE `+schema+`.`+table+` (
		pool text NOT NULL, datacenter bigint NOT NULL, worker bigint NOT NULL,
		holder text, expires_at timestamptz,
		issued_up_to bigint NOT NULL DEFAULT 0, backwards bigint NOT NULL DEFAULT 0,
		PRIMARY KEY (pool, datacenter, worker))`)
	psql(t, "CREATE INDEX ON "+schema+"."+table+" (pool, expires_at)")
	psql(t, "GRANT SELECT, INSERT, UPDATE ON "+schema+"."+table+" TO "+role)

	s, err := openPG(t, url, "", ttl)
	require.NoError(t, err, "a least-privilege role opens a table made beforehand")
	ctx, cancel := bg()
	defer cancel()
	c, err := s.Acquire(ctx, lease.Request{Pool: lease.Pool{Name: "p", DCs: 1, Workers: 2}, DC: -1, TTL: ttl})
	require.NoError(t, err)
	require.NoError(t, c.Renew(ctx, lease.Record{IssuedUpTo: 10}))
	c2, err := s.Acquire(ctx, lease.Request{Pool: lease.Pool{Name: "p", DCs: 1, Workers: 2}, DC: -1, TTL: ttl})
	require.NoError(t, err)
	require.NotEqual(t, c.Pair(), c2.Pair())
	require.NoError(t, c2.Abandon(ctx))
	require.NoError(t, c.Release(ctx, lease.Record{IssuedUpTo: 11}))
	require.Equal(t, "11", psql(t, "SELECT issued_up_to FROM "+schema+"."+table+" WHERE worker = "+strconv.FormatInt(c.Pair().Worker, 10)))

	// Without the table, the error says what to create.
	_, err = openPG(t, url, "idgen_other", ttl)
	require.ErrorIs(t, err, errs.ErrWorker)
	msg := err.Error()
	require.NotContains(t, msg, "lp-pw")
	for _, want := range []string{
		`CREATE TABLE "idgen_other" (`, "PRIMARY KEY (pool, datacenter, worker)",
		`CREATE INDEX "idgen_other_expiry" ON "idgen_other" (pool, expires_at)`,
		`GRANT SELECT, INSERT, UPDATE ON "idgen_other" TO "` + role + `"`,
	} {
		require.Contains(t, msg, want)
	}
	t.Logf("missing table: %s", msg)

	// A table the role may not use: the error says what to grant.
	psql(t, "CREATE TABLE "+schema+".idgen_nogrant (LIKE "+schema+"."+table+" INCLUDING ALL)")
	s, err = openPG(t, url, "idgen_nogrant", ttl)
	require.NoError(t, err, "the table exists: nothing to create")
	_, err = s.Acquire(ctx, onePair(ttl))
	require.ErrorIs(t, err, errs.ErrWorker)
	require.Contains(t, err.Error(), `GRANT SELECT, INSERT, UPDATE ON "idgen_nogrant" TO "`+role+`"`)
}

// A taker holds its claim however long it waits before its first renewal
// (for its clock to pass the predecessor's record, up to max_wait, longer
// than lease_ttl): nobody else takes the row meanwhile.
func TestPostgresTakerKeepsItsClaimWhileItWaits(t *testing.T) {
	const ttl = time.Second
	table := testRoot(t)
	a, err := openPG(t, pgURL, table, ttl)
	require.NoError(t, err)
	b, err := openPG(t, pgURL, table, ttl)
	require.NoError(t, err)
	ctx, cancel := bg()
	defer cancel()
	c, err := a.Acquire(ctx, onePair(ttl))
	require.NoError(t, err)
	time.Sleep(4 * ttl) // waiting for the predecessor, no renewal yet
	_, err = b.Acquire(ctx, onePair(ttl))
	require.ErrorIs(t, err, errs.ErrWorker, "the waiting taker's row is still its own")
	require.NoError(t, c.Renew(ctx, lease.Record{IssuedUpTo: 5}))
	require.NoError(t, c.Release(ctx, lease.Record{IssuedUpTo: 6}))
	c2, err := b.Acquire(ctx, onePair(ttl))
	require.NoError(t, err, "released: free at once")
	rec, _ := c2.Predecessor()
	require.Equal(t, int64(6), rec.IssuedUpTo)
	require.NoError(t, c2.Abandon(ctx))

	// A claim given up stops being kept: a dead store's row frees itself.
	c3, err := a.Acquire(ctx, onePair(ttl))
	require.NoError(t, err)
	require.NoError(t, a.Close())
	time.Sleep(ttl + pgstore.Interval(ttl) + 500*time.Millisecond)
	c4, err := b.Acquire(ctx, onePair(ttl))
	require.NoError(t, err, "the row of a closed store's claim expires")
	require.NoError(t, c4.Abandon(ctx))
	_ = c3
}
