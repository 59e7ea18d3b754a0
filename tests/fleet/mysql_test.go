//go:build fleet

package fleet

// The MySQL/MariaDB store (worker=mysql://…) against a real MariaDB server
// (tests/servers/mariadb.sh): it joins every test that ranges over
// stores(), and here: 16 processes racing to create a fresh table, a table
// a DBA made for a least-privilege user, expiries on bucket boundaries,
// the server stopped shorter and longer than max_outage, and killed -9.

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/mysqlstore"
)

var (
	myURL   string // mysql://idgen:s3cret@127.0.0.1:port/idgen
	myLPURL string // mysql://idgen_lp:lp-pw@127.0.0.1:port/idgen: SELECT, INSERT, UPDATE on idgen_dba only
)

func init() {
	register(server{
		name: "mysql",
		start: func(dir string) error {
			if out, err := script("mariadb.sh", "start", dir); err != nil {
				return fmt.Errorf("%v\n%s", err, out)
			}
			myURL, myLPURL = readTrim(filepath.Join(dir, "url")), readTrim(filepath.Join(dir, "url_lp"))
			return nil
		},
		stop: func(dir string) { _, _ = script("mariadb.sh", "stop", dir) },
		store: func() store {
			host := myHost()
			return store{name: "mysql", target: host, source: func(t *testing.T, proxy int) string {
				u := myURL
				if proxy > 0 {
					u = strings.Replace(u, host, "127.0.0.1:"+strconv.Itoa(proxy), 1)
				}
				return u + " lease_table=" + testRoot(t)
			}}
		},
	})
}

func myHost() string {
	return strings.SplitN(strings.SplitN(myURL, "@", 2)[1], "/", 2)[0]
}

// myStore is the MariaDB entry of stores().
func myStore(t *testing.T) store {
	for _, s := range stores() {
		if s.name == "mysql" {
			return s
		}
	}
	t.Fatal("no mysql store registered")
	return store{}
}

func myDir() string { return filepath.Join(work, "mysql") }

// mysql runs SQL as root in database idgen and returns its output.
func mysql(t *testing.T, sql string) string {
	t.Helper()
	out, err := script("mariadb.sh", "sql", myDir(), sql)
	require.NoError(t, err, out)
	return strings.TrimSpace(out)
}

func openMy(t *testing.T, rawURL, table string, ttl time.Duration) (*mysqlstore.Store, error) {
	t.Helper()
	u, err := config.ParseStoreURL(rawURL)
	require.NoError(t, err)
	s, err := mysqlstore.Open(u, table, ttl)
	if err == nil {
		t.Cleanup(func() { s.Close() })
	}
	return s, err
}

// 16 stores open a table that does not exist yet at once: one creates it,
// none fails, and their 16 claims are 16 distinct pairs.
func TestMySQLSixteenRaceToCreateTheTable(t *testing.T) {
	const ttl = 2 * time.Second
	table := testRoot(t)
	pool := lease.Pool{Name: "p", DCs: 2, Workers: 16}
	claims := make([]lease.Claim, 16)
	errs := make([]error, 16)
	var wg sync.WaitGroup
	start := time.Now()
	for i := range claims {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			s, err := openMy(t, myURL, table, ttl)
			if err == nil {
				ctx, cancel := bg()
				defer cancel()
				claims[i], err = s.Acquire(ctx, lease.Request{Pool: pool, DC: -1, TTL: ttl})
			}
			errs[i] = err
		}(i)
	}
	wg.Wait()
	took := time.Since(start)
	pairs := map[lease.Pair]bool{}
	for i := range claims {
		require.NoError(t, errs[i], "store %d", i)
		require.False(t, pairs[claims[i].Pair()], "pair %s twice", claims[i].Pair())
		pairs[claims[i].Pair()] = true
		_, st := claims[i].Predecessor()
		require.Equal(t, lease.Fresh, st, "every row was made by its taker")
	}
	require.Equal(t, "1", mysql(t, "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'idgen' AND table_name = '"+table+"'"))
	require.Equal(t, "16", mysql(t, "SELECT COUNT(*) FROM "+table+" WHERE holder IS NOT NULL"))
	require.Equal(t, "expiry", mysql(t, "SELECT DISTINCT index_name FROM information_schema.statistics WHERE table_schema = 'idgen' AND table_name = '"+table+"' AND index_name <> 'PRIMARY'"))
	t.Logf("16 stores raced on a missing table: created once, 16 distinct fresh pairs, all open and claimed in %s", took.Round(time.Millisecond))
}

// A table a DBA made beforehand serves a user with only SELECT, INSERT and
// UPDATE on it: opening runs no CREATE; real holders share it.
func TestMySQLLeastPrivilegeUserUsesATableMadeBeforehand(t *testing.T) {
	const ttl = 2 * time.Second
	s, err := openMy(t, myLPURL, "idgen_dba", ttl)
	require.NoError(t, err, "a least-privilege user opens a table made beforehand")
	ctx, cancel := bg()
	defer cancel()
	req := lease.Request{Pool: lease.Pool{Name: "lp", DCs: 1, Workers: 2}, DC: -1, TTL: ttl}
	c, err := s.Acquire(ctx, req)
	require.NoError(t, err)
	require.NoError(t, c.Renew(ctx, lease.Record{IssuedUpTo: 10}))
	c2, err := s.Acquire(ctx, req)
	require.NoError(t, err)
	require.NotEqual(t, c.Pair(), c2.Pair())
	require.NoError(t, c2.Abandon(ctx))
	require.NoError(t, c.Release(ctx, lease.Record{IssuedUpTo: 11}))
	require.Equal(t, "11", mysql(t, "SELECT issued_up_to FROM idgen_dba WHERE pool = 'lp' AND worker = "+strconv.FormatInt(c.Pair().Worker, 10)))
	now, err := s.StoreNow(ctx)
	require.NoError(t, err)
	require.InDelta(t, time.Now().UnixMilli(), now.UnixMilli(), 5000, "the server's clock, in UTC")

	cfg := "preset=snowflake lease_ttl=2s max_outage=2s lease_table=idgen_dba worker=" + myLPURL
	var hs []*holder
	for i := 0; i < 3; i++ {
		h := startHolder(t, cfg, 200)
		require.Empty(t, h.open)
		require.NotContains(t, h.cfg, "lp-pw", "no password in the configuration string")
		hs = append(hs, h)
	}
	time.Sleep(500 * time.Millisecond)
	for _, h := range hs {
		h.stop()
	}
	n := noDuplicates(t, hs...)

	// Without the table, the error says what to create and grant.
	_, err = openMy(t, myLPURL, "idgen_other", ttl)
	require.ErrorIs(t, err, errs.ErrWorker)
	msg := err.Error()
	require.NotContains(t, msg, "lp-pw")
	for _, want := range []string{
		"CREATE TABLE `idgen_other` (", "PRIMARY KEY (pool, datacenter, worker)", "KEY expiry (pool, expires_at)",
		"GRANT SELECT, INSERT, UPDATE ON `idgen`.`idgen_other` TO 'idgen_lp'@'%'",
	} {
		require.Contains(t, msg, want)
	}
	t.Logf("missing table: %s", msg)

	// A table the user may only read: the error says what to grant.
	mysql(t, "CREATE TABLE idgen_readonly LIKE idgen_dba")
	mysql(t, "GRANT SELECT ON idgen.idgen_readonly TO 'idgen_lp'@'%'")
	s, err = openMy(t, myLPURL, "idgen_readonly", ttl)
	require.NoError(t, err, "the table exists: nothing to create")
	_, err = s.Acquire(ctx, onePair(ttl))
	require.ErrorIs(t, err, errs.ErrWorker)
	require.Contains(t, err.Error(), "GRANT SELECT, INSERT, UPDATE ON `idgen`.`idgen_readonly` TO 'idgen_lp'@'%'")
	t.Logf("least-privilege user: 3 holders on the DBA's table, %d ids, 0 duplicates; read-only table: %s", n, err)
}

// A clean release leaves the sequence in next_seq. A table from an older
// DDL, without the column, serves without it (no Seq kept), whoever opens
// it: opening never alters a table (see TestMySQLOpenAltersNothing).
func TestMySQLReleaseKeepsTheSequenceOlderTablesToo(t *testing.T) {
	const ttl = 2 * time.Second
	old := testRoot(t)
	for _, tb := range []string{old + "_a", old + "_b"} {
		mysql(t, "CREATE TABLE "+tb+" LIKE idgen_dba")
		mysql(t, "ALTER TABLE "+tb+" DROP COLUMN next_seq")
	}
	mysql(t, "GRANT SELECT, INSERT, UPDATE ON idgen."+old+"_b TO 'idgen_lp'@'%'")
	ctx, cancel := bg()
	defer cancel()
	for _, tt := range []struct {
		url, table string
		seq        int64
	}{{myURL, "", 7}, {myURL, old + "_a", 0}, {myLPURL, old + "_b", 0}} {
		s, err := openMy(t, tt.url, tt.table, ttl)
		require.NoError(t, err)
		c, err := s.Acquire(ctx, onePair(ttl))
		require.NoError(t, err)
		require.NoError(t, c.Release(ctx, lease.Record{IssuedUpTo: 100, Backwards: 1, Seq: 7}))
		c, err = s.Acquire(ctx, onePair(ttl))
		require.NoError(t, err)
		rec, st := c.Predecessor()
		require.Equal(t, lease.Present, st)
		require.Equal(t, lease.Record{IssuedUpTo: 100, Backwards: 1, Seq: tt.seq}, rec, "table %q", tt.table)
		entries, err := s.List(ctx, onePair(ttl).Pool)
		require.NoError(t, err)
		require.Len(t, entries, 1)
		require.True(t, entries[0].Held)
		require.Contains(t, entries[0].Holder, ":", "host:pid of the holder")
		require.NoError(t, c.Abandon(ctx))
	}
	require.Equal(t, "0", mysql(t, "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = 'idgen' AND table_name = '"+old+"_a' AND column_name = 'next_seq'"))
	require.Equal(t, "0", mysql(t, "SELECT COUNT(*) FROM information_schema.columns WHERE table_schema = 'idgen' AND table_name = '"+old+"_b' AND column_name = 'next_seq'"))
}

// A row with no record is new; a row is a record whatever its value. A
// taker keeps its claim however long it waits before its first renewal;
// a closed store's claim expires.
func TestMySQLFreshOnlyWithoutARowAndTheTakerKeepsItsClaim(t *testing.T) {
	const ttl = time.Second
	table := testRoot(t)
	a, err := openMy(t, myURL, table, ttl)
	require.NoError(t, err)
	b, err := openMy(t, myURL, table, ttl)
	require.NoError(t, err)
	ctx, cancel := bg()
	defer cancel()
	c, err := a.Acquire(ctx, onePair(ttl))
	require.NoError(t, err)
	_, st := c.Predecessor()
	require.Equal(t, lease.Fresh, st, "no row: a new pair")
	time.Sleep(4 * ttl) // waiting for the predecessor, no renewal yet
	_, err = b.Acquire(ctx, onePair(ttl))
	require.ErrorIs(t, err, errs.ErrWorker, "the waiting taker's row is still its own")
	require.Contains(t, err.Error(), "all 1 pairs")
	require.NoError(t, c.Renew(ctx, lease.Record{IssuedUpTo: 5}))
	require.NoError(t, c.Renew(ctx, lease.Record{IssuedUpTo: 5}), "a renewal that changes nothing still holds the row")
	require.NoError(t, c.Release(ctx, lease.Record{IssuedUpTo: 6}))
	require.ErrorIs(t, c.Renew(ctx, lease.Record{IssuedUpTo: 7}), lease.ErrGone, "released: not ours any more")
	c2, err := b.Acquire(ctx, onePair(ttl))
	require.NoError(t, err, "released: free at once")
	rec, st := c2.Predecessor()
	require.Equal(t, lease.Present, st)
	require.Equal(t, int64(6), rec.IssuedUpTo)
	require.NoError(t, c2.Abandon(ctx))

	// A closed store's claim stops being kept: its row frees itself, and
	// the record stands (Present, even at 0).
	mysql(t, "UPDATE "+table+" SET issued_up_to = 0")
	c3, err := a.Acquire(ctx, onePair(ttl))
	require.NoError(t, err)
	require.NoError(t, a.Close())
	time.Sleep(ttl + mysqlstore.Interval(ttl) + 500*time.Millisecond)
	c4, err := b.Acquire(ctx, onePair(ttl))
	require.NoError(t, err, "the row of a closed store's claim expires")
	rec, st = c4.Predecessor()
	require.Equal(t, lease.Present, st, "a row at 0 is a record")
	require.Equal(t, lease.Record{}, rec)
	require.Error(t, c3.Renew(ctx, lease.Record{IssuedUpTo: 9}), "a closed store writes nothing")
	require.NoError(t, c4.Abandon(ctx))
	mysql(t, "DELETE FROM "+table)
	c5, err := b.Acquire(ctx, onePair(ttl))
	require.NoError(t, err)
	_, st = c5.Predecessor()
	require.Equal(t, lease.Fresh, st, "deleted: new again")
	require.NoError(t, c5.Abandon(ctx))
}
