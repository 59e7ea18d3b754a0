//go:build fleet

package fleet

// Listing is read-only on every store (issue 33): `idgen leases` on a pool
// and on a segment counter, before anything exists and after a generator
// of each closed, changes nothing the store itself shows — the host
// directory's files, the znodes under the test's root, the SQL tables
// and their rows, the Redis database's keys and values, the etcd keys
// and their revisions.

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/go-zookeeper/zk"
	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen"
)

// storeView is what a store shows of the test's pools and counters.
func storeView(t *testing.T, store, keys string) string {
	switch store {
	case "host":
		return dirView(t, strings.TrimPrefix(keys, "lease_dir="))
	case "zk":
		return zkView(t, "/"+testRoot(t))
	case "pg":
		return sqlView(t, psql, "SELECT table_name FROM information_schema.tables WHERE table_name LIKE '"+testRoot(t)+"%' ORDER BY 1")
	case "mysql":
		return sqlView(t, mysql, "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE() AND table_name LIKE '"+testRoot(t)+"%' ORDER BY 1")
	case "redis":
		return redisView(t)
	case "etcd":
		return etcdView(t, "/"+testRoot(t)) + etcdView(t, testRoot(t))
	}
	t.Fatalf("no view of store %s", store)
	return ""
}

func dirView(t *testing.T, dir string) string {
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			fmt.Fprintf(&b, "%s: %v\n", p, err)
			return nil
		}
		fi, err := d.Info()
		require.NoError(t, err)
		data := []byte{}
		if fi.Mode().IsRegular() {
			data, _ = os.ReadFile(p)
		}
		fmt.Fprintf(&b, "%s %s %d %d %q\n", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), data)
		return nil
	})
	require.NoError(t, err)
	return b.String()
}

func zkView(t *testing.T, root string) string {
	c, _, err := zk.Connect(strings.Split(zkConnect, ","), 10e9, zk.WithLogInfo(false))
	require.NoError(t, err)
	defer c.Close()
	var b strings.Builder
	var walk func(p string)
	walk = func(p string) {
		data, st, err := c.Get(p)
		if err == zk.ErrNoNode {
			fmt.Fprintf(&b, "%s none\n", p)
			return
		}
		require.NoError(t, err)
		fmt.Fprintf(&b, "%s v%d c%d m%d %q\n", p, st.Version, st.Cversion, st.Mzxid, data)
		kids, _, err := c.Children(p)
		require.NoError(t, err)
		sort.Strings(kids)
		for _, k := range kids {
			walk(p + "/" + k)
		}
	}
	walk(root)
	return b.String()
}

func sqlView(t *testing.T, run func(*testing.T, string) string, tables string) string {
	out := run(t, tables)
	var b strings.Builder
	b.WriteString(out + "\n")
	for _, tb := range strings.Fields(out) {
		if !strings.HasPrefix(tb, testRoot(t)) {
			continue // a header line of the client's output
		}
		b.WriteString(run(t, "SELECT * FROM "+tb+" ORDER BY 1, 2") + "\n")
	}
	return b.String()
}

// etcdView is the keys under prefix with their values and revisions (not
// the cluster's revision: another test's expiring lease moves it).
func etcdView(t *testing.T, prefix string) string {
	var r struct{ Kvs []map[string]any }
	out := etcdSh(t, "ctl", etcdDir(), "get", "--prefix", prefix, "-w", "json")
	require.NoError(t, json.Unmarshal([]byte(out), &r), out)
	return fmt.Sprintf("%v\n", r.Kvs)
}

func redisView(t *testing.T) string {
	keys := strings.Fields(redisCli(t, "--scan"))
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		typ := redisCli(t, "TYPE", k)
		val := ""
		switch typ {
		case "string":
			val = redisCli(t, "GET", k)
		case "hash":
			val = redisCli(t, "HGETALL", k)
		case "set":
			val = redisCli(t, "SMEMBERS", k)
		}
		fmt.Fprintf(&b, "%s %s %q\n", k, typ, val)
	}
	return b.String()
}

func TestLeasesWritesNothingOnEveryStore(t *testing.T) {
	for _, s := range segStores() {
		t.Run(s.name, func(t *testing.T) {
			keys := s.keys(t)
			pool := "layout=time:41,worker:3,seq:19 lease_ttl=2s max_outage=2s "
			if s.name == "host" {
				pool += "worker=lease " + keys
			} else {
				pool += "worker=" + strings.TrimPrefix(keys, "store=")
			}
			counter := "preset=segment name=orders " + keys
			list := func(what string) {
				for _, cfg := range []string{pool, counter} {
					before := storeView(t, s.name, keys)
					out, err := cliRun(t, "leases", "-c", cfg)
					require.NoError(t, err, out)
					require.Equal(t, before, storeView(t, s.name, keys), "%s: idgen leases -c %q changed the store; it printed:\n%s", what, cfg, out)
				}
			}
			empty := storeView(t, s.name, keys)
			list("nothing there yet")
			for _, cfg := range []string{pool, counter} {
				g, err := idgen.Open(cfg)
				require.NoError(t, err)
				_, err = g.Next()
				require.NoError(t, err)
				require.NoError(t, g.Close())
			}
			view := storeView(t, s.name, keys)
			require.NotEqual(t, empty, view, "the view shows what the generators wrote (so it would show a listing's writes)")
			list("a released pair and a counter")
			var rows []map[string]any
			out, err := cliRun(t, "leases", "-c", pool, "--json")
			require.NoError(t, err, out)
			require.NoError(t, json.Unmarshal([]byte(out), &rows), out)
			require.Len(t, rows, 1, "the released pair is listed")
			require.Equal(t, view, storeView(t, s.name, keys))
			t.Logf("%s: idgen leases on an empty store and on a released pair and a counter: the store's view unchanged (%d bytes of it)", s.name, len(view))
		})
	}
}
