//go:build fleet

package fleet

// idgen leases on Redis and etcd: every store lists its pool (DESIGN), and
// listing writes nothing: no marker, no record, no lock, no lease.

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/gen"
)

// listRows lists cfg's pool as idgen leases does.
func listRows(t *testing.T, cfg string) []gen.LeaseRow {
	t.Helper()
	c, err := config.Parse(cfg)
	require.NoError(t, err)
	rows, err := gen.ListLeases(c)
	require.NoError(t, err)
	return rows
}

// listsItsPoolWritingNothing: an empty pool lists as nothing; one held and
// one released pair list as held (naming the holder) and free; and
// listing changes nothing in the store (writes counts the store's writes).
func listsItsPoolWritingNothing(t *testing.T, src string, writes func() string) {
	cfg := "layout=time:41,worker:2,seq:20 lease_ttl=1s max_outage=2s worker=" + src
	before := writes()
	require.Empty(t, listRows(t, cfg), "a pool never used")
	require.Equal(t, before, writes(), "listing an empty pool wrote or made something")

	a := startHolder(t, cfg, 300)
	b := startHolder(t, cfg, 300)
	require.Empty(t, a.open+b.open)
	time.Sleep(500 * time.Millisecond)
	b.stop()
	rows := listRows(t, cfg)
	require.Len(t, rows, 2, "%+v", rows)
	byWorker := map[string]gen.LeaseRow{}
	for _, r := range rows {
		byWorker[strconv.FormatInt(r.Worker, 10)] = r
	}
	held, free := byWorker[workerOf(a.pair())], byWorker[workerOf(b.pair())]
	require.Equal(t, "held", held.State, "%+v", rows)
	require.Regexp(t, regexp.MustCompile(`^.+:\d+$`), held.Holder, "the holder is named host:pid")
	require.Positive(t, held.FenceUnixMs)
	require.Equal(t, "free", free.State, "%+v", rows)
	a.stop()

	before = writes()
	rows = listRows(t, cfg)
	require.Equal(t, before, writes(), "listing wrote something")
	require.Len(t, rows, 2)
	for _, r := range rows {
		require.Equal(t, "free", r.State, "%+v", r)
	}
	noDuplicates(t, a, b)
}

func TestRedisLeasesListsItsPool(t *testing.T) {
	listsItsPoolWritingNothing(t, redisURL(t, 0), func() string {
		for _, l := range strings.Split(redisCli(t, "INFO", "persistence"), "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), "rdb_changes_since_last_save:"); ok {
				return v + " writes, " + redisCli(t, "DBSIZE") + " keys"
			}
		}
		t.Fatal("no rdb_changes_since_last_save in INFO persistence")
		return ""
	})
}

func TestEtcdLeasesListsItsPool(t *testing.T) {
	revision := regexp.MustCompile(`"revision":(\d+)`)
	listsItsPoolWritingNothing(t, etcdStore(t).source(t, 0), func() string {
		m := revision.FindStringSubmatch(etcdSh(t, "ctl", etcdDir(), "get", "/no-such-key", "-w", "json"))
		require.Len(t, m, 2)
		return "revision " + m[1]
	})
}
