//go:build fleet

package fleet

// What an operator's read-only word may do to a SQL store (nothing), what
// opening may do to a table holders use (no schema change), and where a
// password may show (nowhere), against real MariaDB and PostgreSQL.

import (
	"context"
	"database/sql"
	"os/exec"
	"strings"
	"testing"
	"time"

	mydriver "github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/pgstore"
)

// sqlSide is one SQL server as these tests use it: its admin URL (a user
// that may create and alter), a SELECT-only user's URL, a least-privilege
// user's URL (SELECT, INSERT, UPDATE on the tables granted), SQL run as
// the admin, and a table of an older layout.
type sqlSide struct {
	name, admin, readOnly, leastPriv string
	run                              func(t *testing.T, sql string) string
	grant                            func(t *testing.T, table string) // SELECT, INSERT, UPDATE to the least-privilege user
	oldTable                         string                           // CREATE TABLE %s … of an older layout: no next_seq, no writer
}

func sqlSides(t *testing.T) []sqlSide {
	mysql(t, "CREATE USER IF NOT EXISTS 'idgen_ro'@'%' IDENTIFIED BY 'ro-pw'; GRANT SELECT ON idgen.* TO 'idgen_ro'@'%'")
	psql(t, "DO $$ BEGIN CREATE ROLE idgen_ro LOGIN PASSWORD 'ro-pw'; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
	psql(t, "DO $$ BEGIN CREATE ROLE idgen_lp LOGIN PASSWORD 'lp-pw'; EXCEPTION WHEN duplicate_object THEN NULL; END $$")
	psql(t, "GRANT USAGE ON SCHEMA public TO idgen_ro, idgen_lp; ALTER DEFAULT PRIVILEGES FOR ROLE idgen IN SCHEMA public GRANT SELECT ON TABLES TO idgen_ro")
	return []sqlSide{
		{name: "mysql", admin: myURL, readOnly: strings.Replace(myURL, "idgen:s3cret@", "idgen_ro:ro-pw@", 1), leastPriv: myLPURL, run: mysql,
			grant: func(t *testing.T, tb string) {
				mysql(t, "GRANT SELECT, INSERT, UPDATE ON idgen."+tb+" TO 'idgen_lp'@'%'")
			},
			oldTable: "CREATE TABLE %s (pool VARCHAR(191) CHARACTER SET ascii COLLATE ascii_bin NOT NULL, datacenter BIGINT NOT NULL, worker BIGINT NOT NULL, " +
				"holder VARCHAR(255) NULL, expires_at DATETIME(6) NULL, issued_up_to BIGINT NOT NULL DEFAULT 0, backwards BIGINT NOT NULL DEFAULT 0, " +
				"PRIMARY KEY (pool, datacenter, worker), KEY expiry (pool, expires_at)) ENGINE=InnoDB"},
		{name: "pg", admin: pgURL, readOnly: strings.Replace(pgURL, "idgen:s3cret@", "idgen_ro:ro-pw@", 1), leastPriv: strings.Replace(pgURL, "idgen:s3cret@", "idgen_lp:lp-pw@", 1),
			grant: func(t *testing.T, tb string) { psql(t, "GRANT SELECT, INSERT, UPDATE ON "+tb+" TO idgen_lp") },
			run:   func(t *testing.T, sql string) string { return psql(t, "SET ROLE idgen; "+sql) },
			oldTable: "CREATE TABLE %s (pool text NOT NULL, datacenter bigint NOT NULL, worker bigint NOT NULL, holder text, expires_at timestamptz, " +
				"issued_up_to bigint NOT NULL DEFAULT 0, backwards bigint NOT NULL DEFAULT 0, PRIMARY KEY (pool, datacenter, worker))"},
	}
}

// schemaOf is every table and column named like prefix%, and the rows of
// those tables, as the server's superuser sees them.
func (s sqlSide) schemaOf(t *testing.T, prefix string) string {
	q := "SELECT table_name, column_name FROM information_schema.columns WHERE table_name LIKE '" + prefix + "%' ORDER BY 1, 2"
	if s.name == "mysql" {
		return s.run(t, q)
	}
	return psql(t, q)
}

// cliRun runs the idgen command and returns its output and error.
func cliRun(t *testing.T, args ...string) (string, error) {
	out, err := exec.Command(idgenCLI(t), args...).CombinedOutput()
	return string(out), err
}

// TestLeasesWritesNothingOnSQLStores: idgen leases, as a SELECT-only user
// and as one that may create and alter, on an empty database (no table),
// on a table of the older layout (no writer column) with a record, and on
// a segment counter whose table is missing: it answers (nothing there, or
// the record) and the tables, columns and rows are as they were.
func TestLeasesWritesNothingOnSQLStores(t *testing.T) {
	for _, s := range sqlSides(t) {
		t.Run(s.name, func(t *testing.T) {
			tb := testRoot(t)
			pool := "layout=time:41,worker:3,seq:19 lease_ttl=2s max_outage=2s lease_table=" + tb + " worker="
			counter := "preset=segment name=orders lease_table=" + tb + " store="
			for _, u := range []string{s.readOnly, s.admin} {
				out, err := cliRun(t, "leases", "-c", pool+u)
				require.NoError(t, err, out)
				assert.Equal(t, "pairs=0 held=0 blocked=0 free=0\n", out, "no table: nothing there")
				out, err = cliRun(t, "leases", "-c", counter+u)
				require.NoError(t, err, out)
				assert.Regexp(t, `^counter=orders store=".*" last=- next=1\n$`, out)
				assert.Empty(t, s.schemaOf(t, tb), "no table was made")
			}

			s.run(t, strings.Replace(s.oldTable, "%s", tb, 1))
			g, err := idgen.Open(pool + s.admin)
			require.NoError(t, err, "a generator opens on the older table")
			_, err = g.Next()
			require.NoError(t, err)
			require.NoError(t, g.Close())
			if s.name == "pg" {
				psql(t, "GRANT SELECT ON "+tb+" TO idgen_ro")
			}
			before := s.schemaOf(t, tb)
			rows := s.run(t, "SELECT pool, datacenter, worker, issued_up_to, backwards FROM "+tb)
			require.NotContains(t, before, "writer", "opening added no column")
			for _, u := range []string{s.readOnly, s.admin} {
				out, err := cliRun(t, "leases", "-c", pool+u)
				require.NoError(t, err, out)
				assert.Regexp(t, `^datacenter=- worker=0 state=(free|blocked) fence=\S+ holder=\S+\npairs=1 held=0 blocked=\d free=\d\n$`, out)
				assert.NotContains(t, out, "pw")
				assert.NotContains(t, out, "s3cret")
			}
			assert.Equal(t, before, s.schemaOf(t, tb), "no table made, no column added")
			assert.Equal(t, rows, s.run(t, "SELECT pool, datacenter, worker, issued_up_to, backwards FROM "+tb), "no row written")
		})
	}
}

// An older table (no writer column), a holder (a least-privilege user,
// who may not alter it) renewing every 100 ms, a reader's transaction
// open on the table, and a new store opening with a user that may alter
// it: the holder's renewals never wait on the opener (an ALTER queued
// behind the reader's lock would stop every statement on the table), and
// the table is as it was.
func TestSQLOpenAltersNothingUnderHolders(t *testing.T) {
	const ttl = time.Second
	for _, s := range sqlSides(t) {
		t.Run(s.name, func(t *testing.T) {
			tb := testRoot(t)
			s.run(t, strings.Replace(s.oldTable, "%s", tb, 1))
			s.grant(t, tb)
			st := openStore(t, s.leastPriv, tb, ttl)
			ctx, cancel := bg()
			defer cancel()
			c, err := st.Acquire(ctx, onePair(ttl))
			require.NoError(t, err)
			longest := make(chan time.Duration)
			stop := make(chan struct{})
			go func() {
				var most time.Duration
				for n := int64(1); ; n++ {
					select {
					case <-stop:
						longest <- most
						return
					case <-time.After(100 * time.Millisecond):
					}
					ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
					start := time.Now()
					err := c.Renew(ctx, lease.Record{IssuedUpTo: n})
					cancel()
					assert.NoError(t, err)
					most = max(most, time.Since(start))
				}
			}()
			release := readerHolding(t, s, tb)
			time.Sleep(300 * time.Millisecond)
			start := time.Now()
			openStore(t, s.admin, tb, ttl)
			opened := time.Since(start)
			time.Sleep(time.Second)
			close(stop)
			most := <-longest
			release()
			t.Logf("%s: opened in %s beside a reader's transaction; the holder's longest renewal %s", s.name, opened.Round(time.Millisecond), most.Round(time.Millisecond))
			assert.Less(t, most, 500*time.Millisecond, "the holder's renewals went on while the store opened")
			assert.NotContains(t, s.schemaOf(t, tb), "writer", "opening changed no schema")
		})
	}
}

// openStore opens a lease store of URL raw on table tb.
func openStore(t *testing.T, raw, tb string, ttl time.Duration) lease.Store {
	if strings.HasPrefix(raw, "mysql://") {
		st, err := openMy(t, raw, tb, ttl)
		require.NoError(t, err)
		return st
	}
	u, err := config.ParseStoreURL(raw)
	require.NoError(t, err)
	st, err := pgstore.Open(u, tb, ttl)
	require.NoError(t, err)
	t.Cleanup(func() { st.Close() })
	return st
}

// readerHolding opens a transaction that reads tb and keeps it open (its
// lock on the table's definition held) until release.
func readerHolding(t *testing.T, s sqlSide, tb string) (release func()) {
	ctx, cancel := bg()
	defer cancel()
	if s.name == "pg" {
		conn, err := pgconn.Connect(ctx, s.admin)
		require.NoError(t, err)
		_, err = conn.Exec(ctx, "BEGIN; SELECT count(*) FROM "+tb).ReadAll()
		require.NoError(t, err)
		return func() { conn.Close(context.Background()) }
	}
	conn, err := mydriver.NewConnector(mysqlDSN(t, s.admin))
	require.NoError(t, err)
	db := sql.OpenDB(conn)
	tx, err := db.BeginTx(context.Background(), nil) // not ctx: its end would roll the transaction back
	require.NoError(t, err)
	var n int
	require.NoError(t, tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+tb).Scan(&n))
	return func() { _ = tx.Rollback(); db.Close() }
}

// mysqlDSN is the driver's configuration of a mysql:// URL.
func mysqlDSN(t *testing.T, raw string) *mydriver.Config {
	u, err := config.ParseStoreURL(raw)
	require.NoError(t, err)
	cfg := mydriver.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr, cfg.DBName = u.User, u.Password, "tcp", u.Servers[0], u.Database
	return cfg
}

// TestNoPasswordOnALiveStore: a generator on PostgreSQL with its password
// in the URL's parameters (and one on MariaDB with it in the user info)
// opens, and the password shows in none of its configuration string, the
// metrics text and idgen leases; the configuration string opens the same
// generator again where the password comes from elsewhere (PGPASSWORD).
func TestNoPasswordOnALiveStore(t *testing.T) {
	pgQuery := strings.Replace(pgURL, "idgen:s3cret@", "idgen@", 1) + "&password=s3cret"
	for _, u := range []string{pgQuery, myURL} {
		cfg := "layout=time:41,worker:3,seq:19 lease_ttl=2s max_outage=2s lease_table=" + testRoot(t) + " worker='" + u + "'"
		g, err := idgen.Open(cfg)
		require.NoError(t, err, u)
		_, err = g.Next()
		require.NoError(t, err)
		assert.NotContains(t, g.Config(), "s3cret")
		assert.NotContains(t, idgen.MetricsText(), "s3cret")
		leases(t, cfg) // asserts no s3cret
		if u == pgQuery {
			t.Setenv("PGPASSWORD", "s3cret")
			g2, err := idgen.Open(g.Config())
			require.NoError(t, err, "the configuration string opens again, the password from the environment")
			assert.Equal(t, "0/1", strings.SplitN(strings.SplitN(g2.Config(), "leased=", 2)[1], " ", 2)[0], "another pair of the same pool")
			require.NoError(t, g2.Close())
		}
		require.NoError(t, g.Close())
	}
}
