//go:build fleet

package fleet

// idgen serve beside the Leaf and tinyid servers it replaces: on the real
// MariaDB, a leaf_alloc and a tiny_id_info table, two idgen serve processes
// taking segments of them with the peers' own SQL (format=leaf and
// format=tinyid), and a stand-in for a still-running Java server that runs
// the peers' exact statements (Leaf's IDAllocDaoImpl update-and-select in
// one transaction, tinyid's TinyIdInfoDAO compare-and-set), all handing out
// one counter at once while one idgen server is killed -9 and restarted.

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/go-sql-driver/mysql"
	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/stretchr/testify/require"
)

// serveProc is a running `idgen serve`.
type serveProc struct {
	cmd    *exec.Cmd
	url    string // http://127.0.0.1:PORT
	errs   *strings.Builder
	copied chan struct{} // closed once stderr is read to its end
}

// wait waits for the process to end, its stderr read to the end first
// (errs may be read then).
func (p *serveProc) wait() error {
	<-p.copied
	return p.cmd.Wait()
}

// startServe starts idgen serve on a free loopback port with gens, and
// waits for the line that says where it listens.
func startServe(t *testing.T, gens ...string) *serveProc {
	t.Helper()
	args := []string{"serve", "--listen", "127.0.0.1:0"}
	for _, g := range gens {
		args = append(args, "--gen", g)
	}
	cmd := exec.Command(idgenCLI(t), args...)
	stderr, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	p := &serveProc{cmd: cmd, errs: &strings.Builder{}, copied: make(chan struct{})}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = p.wait() })
	r := bufio.NewReader(stderr)
	line, err := r.ReadString('\n')
	_, rest, ok := strings.Cut(line, "listening on ")
	if err != nil || !ok {
		rest, _ := io.ReadAll(r)
		close(p.copied)
		t.Fatalf("idgen serve did not start: %s%s", line, rest)
	}
	p.url = "http://" + strings.Fields(rest)[0]
	go func() { _, _ = io.Copy(p.errs, r); close(p.copied) }()
	return p
}

// peerSide is a SQL server the peers' tables live on, as the test uses it.
type peerSide struct {
	name        string
	url         string                                // a store URL of idgen's
	driver, dsn string                                // database/sql, for the stand-in
	exec        func(t *testing.T, sql string) string // as the superuser
	leafDDL     string                                // %s: the table
	tinyDDL     string
	run         time.Duration // how long the mixed fleet runs
}

func peerSides() []peerSide {
	return []peerSide{{
		name: "mysql", url: myURL, driver: "mysql", dsn: myDSN(), exec: mysql, run: 10 * time.Second,
		leafDDL: "CREATE TABLE %s (biz_tag varchar(128) NOT NULL DEFAULT '', max_id bigint(20) NOT NULL DEFAULT '1', " +
			"step int(11) NOT NULL, description varchar(256) DEFAULT NULL, update_time timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP, " +
			"PRIMARY KEY (biz_tag)) ENGINE=InnoDB",
		tinyDDL: "CREATE TABLE %s (id bigint(20) unsigned NOT NULL AUTO_INCREMENT, biz_type varchar(63) NOT NULL DEFAULT '', " +
			"begin_id bigint(20) NOT NULL DEFAULT '0', max_id bigint(20) NOT NULL DEFAULT '0', step int(11) DEFAULT '0', " +
			"delta int(11) NOT NULL DEFAULT '1', remainder int(11) NOT NULL DEFAULT '0', create_time timestamp NOT NULL DEFAULT '2010-01-01 00:00:00', " +
			"update_time timestamp NOT NULL DEFAULT '2010-01-01 00:00:00', version bigint(20) NOT NULL DEFAULT '0', " +
			"PRIMARY KEY (id), UNIQUE KEY uniq_biz_type (biz_type)) ENGINE=InnoDB",
	}, {
		// Leaf and tinyid ship MySQL tables; these are the same columns
		// in PostgreSQL's types, as a port of them would have.
		name: "postgres", url: pgURL, driver: "pgx", dsn: pgURL, exec: psql, run: 10 * time.Second,
		leafDDL: "CREATE TABLE %s (biz_tag varchar(128) PRIMARY KEY, max_id bigint NOT NULL DEFAULT 1, step int NOT NULL, " +
			"description varchar(256), update_time timestamp NOT NULL DEFAULT now())",
		tinyDDL: "CREATE TABLE %s (id bigserial PRIMARY KEY, biz_type varchar(63) NOT NULL UNIQUE, begin_id bigint NOT NULL DEFAULT 0, " +
			"max_id bigint NOT NULL DEFAULT 0, step int DEFAULT 0, delta int NOT NULL DEFAULT 1, remainder int NOT NULL DEFAULT 0, " +
			"create_time timestamp NOT NULL DEFAULT now(), update_time timestamp NOT NULL DEFAULT now(), version bigint NOT NULL DEFAULT 0)",
	}}
}

// with adds query parameters to a URL.
func with(u, params string) string {
	if strings.Contains(u, "?") {
		return u + "&" + params
	}
	return u + "?" + params
}

// rebind writes ? placeholders as PostgreSQL's $1, $2, ...
func (s peerSide) rebind(q string) string {
	if s.name != "postgres" {
		return q
	}
	var b strings.Builder
	n := 0
	for _, c := range q {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// peerTables makes a leaf_alloc and a tiny_id_info table (the peers' own
// columns) with one row each for counter name, and returns their names.
func (s peerSide) peerTables(t *testing.T, name string) (leaf, tiny string) {
	tb := testRoot(t)
	leaf, tiny = tb+"_leaf_alloc", tb+"_tiny_id_info"
	s.exec(t, "DROP TABLE IF EXISTS "+leaf+", "+tiny)
	s.exec(t, fmt.Sprintf(s.leafDDL, leaf))
	s.exec(t, "INSERT INTO "+leaf+" (biz_tag, max_id, step, description) VALUES ('"+name+"', 1, 100, 'test')")
	s.exec(t, fmt.Sprintf(s.tinyDDL, tiny))
	s.exec(t, "INSERT INTO "+tiny+" (biz_type, begin_id, max_id, step, delta, remainder, create_time, update_time, version) "+
		"VALUES ('"+name+"', 1, 0, 100, 1, 0, now(), now(), 1)")
	if s.name == "postgres" { // made by the superuser: idgen (and the stand-in) need only these
		s.exec(t, "GRANT SELECT, UPDATE ON "+leaf+", "+tiny+" TO idgen")
	}
	return leaf, tiny
}

// standIn hands out values the way a running Leaf or tinyid server does:
// a segment of the row's step taken with the peer's SQL, then every value
// of it, one by one.
type standIn struct {
	side             peerSide
	db               *sql.DB
	leaf, tiny, name string
	leafGot, tinyGot []int64
	conflicts        int // tinyid takes that lost three compare-and-sets
}

// leafSegment is IDAllocDaoImpl.updateMaxIdAndGetLeafAlloc: the update
// and the select in one transaction; values [max_id - step, max_id).
func (s *standIn) leafSegment(ctx context.Context) (lo, hi int64, err error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return 0, 0, err
	}
	defer tx.Rollback()
	if _, err = tx.ExecContext(ctx, s.side.rebind("UPDATE "+s.leaf+" SET max_id = max_id + step WHERE biz_tag = ?"), s.name); err != nil {
		return 0, 0, err
	}
	var maxID, step int64
	if err = tx.QueryRowContext(ctx, s.side.rebind("SELECT max_id, step FROM "+s.leaf+" WHERE biz_tag = ?"), s.name).Scan(&maxID, &step); err != nil {
		return 0, 0, err
	}
	return maxID - step, maxID, tx.Commit()
}

// tinySegment is DbSegmentIdServiceImpl.getNextSegmentId: read, then the
// version compare-and-set, 3 tries; values (max_id, max_id + step].
func (s *standIn) tinySegment(ctx context.Context) (lo, hi int64, err error) {
	for try := 0; try < 3; try++ {
		var id, maxID, step, version int64
		err := s.db.QueryRowContext(ctx, s.side.rebind("SELECT id, max_id, step, version FROM "+s.tiny+" WHERE biz_type = ?"), s.name).Scan(&id, &maxID, &step, &version)
		if err != nil {
			return 0, 0, err
		}
		res, err := s.db.ExecContext(ctx, s.side.rebind("UPDATE "+s.tiny+" SET max_id = ?, update_time = now(), version = version + 1 WHERE id = ? AND max_id = ? AND version = ? AND biz_type = ?"),
			maxID+step, id, maxID, version, s.name)
		if err != nil {
			return 0, 0, err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return maxID + 1, maxID + step + 1, nil
		}
	}
	return 0, 0, errConflict
}

// errConflict is tinyid's "get next segmentId conflict": three lost
// compare-and-sets in a row, which its server answers as an error and its
// client tries again.
var errConflict = errors.New("get next segmentId conflict")

// run hands out both counters until ctx ends, a value every 200 us.
func (s *standIn) run(ctx context.Context, t *testing.T) {
	for ctx.Err() == nil {
		lo, hi, err := s.leafSegment(ctx)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			t.Errorf("the Leaf stand-in: %v", err)
			return
		}
		for v := lo; v < hi; v++ {
			s.leafGot = append(s.leafGot, v)
		}
		lo, hi, err = s.tinySegment(ctx)
		if ctx.Err() != nil {
			return
		}
		if errors.Is(err, errConflict) {
			s.conflicts++
			continue
		}
		if err != nil {
			t.Errorf("the tinyid stand-in: %v", err)
			return
		}
		for v := lo; v < hi; v++ {
			s.tinyGot = append(s.tinyGot, v)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// collector gathers the values clients were answered.
type collector struct {
	mu         sync.Mutex
	leaf, tiny []int64
	urls       []string // the idgen servers to call now
}

func (c *collector) setURL(i int, u string) { c.mu.Lock(); c.urls[i] = u; c.mu.Unlock() }
func (c *collector) url(i int) string       { c.mu.Lock(); defer c.mu.Unlock(); return c.urls[i] }

// call asks server i once on each peer route and records what it answers;
// a server being killed answers nothing, which is no value.
func (c *collector) call(t *testing.T, hc *http.Client, i int) {
	get := func(path string) (string, bool) {
		resp, err := hc.Get(c.url(i) + path)
		if err != nil {
			return "", false
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return string(b), err == nil && resp.StatusCode == 200
	}
	if body, ok := get("/api/segment/get/leaf"); ok {
		v, err := strconv.ParseInt(body, 10, 64)
		if err != nil {
			t.Errorf("Leaf's URL answered %q", body)
			return
		}
		c.mu.Lock()
		c.leaf = append(c.leaf, v)
		c.mu.Unlock()
	}
	if body, ok := get("/tinyid/id/nextIdSimple?bizType=tiny&batchSize=10"); ok && body != "" {
		var vs []int64
		for _, s := range strings.Split(body, ",") {
			v, err := strconv.ParseInt(s, 10, 64)
			if err != nil {
				t.Errorf("tinyid's URL answered %q", body)
				return
			}
			vs = append(vs, v)
		}
		if len(vs) != 10 {
			t.Errorf("tinyid's URL answered %d values for batchSize=10: %q", len(vs), body)
		}
		c.mu.Lock()
		c.tiny = append(c.tiny, vs...)
		c.mu.Unlock()
	}
}

// distinctWithin fails on a value given twice or outside [lo, hi].
func distinctWithin(t *testing.T, what string, vals []int64, lo, hi int64) {
	seen := make(map[int64]bool, len(vals))
	for _, v := range vals {
		require.False(t, seen[v], "%s: %d handed out twice", what, v)
		require.True(t, v >= lo && v <= hi, "%s: %d outside the segments taken [%d, %d]", what, v, lo, hi)
		seen[v] = true
	}
}

// myDSN is myURL as the Go MySQL driver's DSN.
func myDSN() string {
	rest := strings.TrimPrefix(myURL, "mysql://")
	cred, hostDB, _ := strings.Cut(rest, "@")
	host, db, _ := strings.Cut(hostDB, "/")
	return cred + "@tcp(" + host + ")/" + db
}

// Two idgen servers and a stand-in for a Leaf and a tinyid server hand
// out the same two counters for 10 s while clients call both idgen
// servers on Leaf's and tinyid's URLs; one idgen server is killed -9 and
// started again. No value is handed out twice, every value lies within
// the segments the table says were taken, and what was taken but never
// handed out is at most the segments in hand (two per server, each of
// the three processes) plus the answers lost with the killed process.
func TestServeBesideLeafAndTinyidNoFlagDay(t *testing.T) {
	for _, side := range peerSides() {
		t.Run(side.name, func(t *testing.T) { noFlagDay(t, side) })
	}
}

func noFlagDay(t *testing.T, side peerSide) {
	leaf, tiny := side.peerTables(t, "orders")
	gens := []string{
		"leaf=preset=segment name=orders step=100 store=" + with(side.url, "format=leaf&table="+leaf),
		"tiny=preset=segment name=orders step=100 store=" + with(side.url, "format=tinyid&table="+tiny),
	}
	a, b := startServe(t, gens...), startServe(t, gens...)
	db, err := sql.Open(side.driver, side.dsn)
	require.NoError(t, err)
	defer db.Close()
	peer := &standIn{side: side, db: db, leaf: leaf, tiny: tiny, name: "orders"}
	c := &collector{urls: []string{a.url, b.url}}

	run := side.run
	ctx, cancel := context.WithTimeout(context.Background(), run)
	defer cancel()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); peer.run(ctx, t) }()
	const clients = 4
	for k := 0; k < clients; k++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			hc := &http.Client{Timeout: 5 * time.Second}
			for ctx.Err() == nil {
				c.call(t, hc, i)
			}
		}(k % 2)
	}
	time.Sleep(run / 3)
	require.NoError(t, a.cmd.Process.Signal(syscall.SIGKILL))
	_ = a.wait()
	time.Sleep(run / 6)
	a2 := startServe(t, gens...)
	c.setURL(0, a2.url)
	wg.Wait()
	for _, p := range []*serveProc{a2, b} {
		require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
		err := p.wait()
		require.NoError(t, err, "SIGTERM: drained and closed, exit 0: %s", p.errs)
	}

	leafMax, err := strconv.ParseInt(side.exec(t, "SELECT max_id FROM "+leaf+" WHERE biz_tag = 'orders'"), 10, 64)
	require.NoError(t, err)
	tinyMax, err := strconv.ParseInt(side.exec(t, "SELECT max_id FROM "+tiny+" WHERE biz_type = 'orders'"), 10, 64)
	require.NoError(t, err)
	leafAll := append(append([]int64(nil), c.leaf...), peer.leafGot...)
	tinyAll := append(append([]int64(nil), c.tiny...), peer.tinyGot...)
	distinctWithin(t, "leaf_alloc", leafAll, 1, leafMax-1)
	distinctWithin(t, "tiny_id_info", tinyAll, 1, tinyMax)
	require.Greater(t, len(c.leaf), 500, "idgen handed out Leaf's counter")
	require.Greater(t, len(peer.leafGot), 500, "the stand-in handed out Leaf's counter")
	require.Greater(t, len(c.tiny), 500, "idgen handed out tinyid's counter")
	require.Greater(t, len(peer.tinyGot), 500, "the stand-in handed out tinyid's counter")
	// In hand, never handed out: two segments of 100 per idgen process
	// (three), and the answers the killed one never sent (a leaf value and
	// a batch of 10 per client).
	const bound = 3*2*100 + clients*11
	require.LessOrEqual(t, leafMax-1-int64(len(leafAll)), int64(bound), "Leaf's counter: taken %d, handed out %d", leafMax-1, len(leafAll))
	require.LessOrEqual(t, tinyMax-int64(len(tinyAll)), int64(bound), "tinyid's counter: taken %d, handed out %d", tinyMax, len(tinyAll))
	t.Logf("leaf_alloc: %d taken, %d by idgen, %d by the stand-in; tiny_id_info: %d taken, %d by idgen, %d by the stand-in (%d of its takes lost three compare-and-sets)",
		leafMax-1, len(c.leaf), len(peer.leafGot), tinyMax, len(c.tiny), len(peer.tinyGot), peer.conflicts)
}
