//go:build fleet

package fleet

// Issue 32, item 2 on every store: a segment counter deleted under live
// generators (an operator's DELETE, the host directory's file aged out of
// /var/tmp) is refused by each of them with IDGEN_EWORKER naming the
// highest value it handed out, never begun again at start=; once an
// operator writes the counter back at the highest value handed out, they
// go on above it. Real processes (build/holder), real stores.

import (
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-zookeeper/zk"
	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/lease/dirstore"
	"github.com/idgen/idgen/internal/lease/etcdstore"
	"github.com/idgen/idgen/internal/lease/redisstore"
)

// counterOps deletes a store's counter and writes it back at a value, as
// an operator would with the store's own tools.
type counterOps struct {
	del     func()
	restore func(v int64)
}

func counterOpsFor(t *testing.T, store, keys, name string) counterOps {
	root := func() string {
		u, err := config.ParseStoreURL(strings.TrimPrefix(strings.Fields(keys)[0], "store="))
		require.NoError(t, err)
		return u.Root
	}
	switch store {
	case "host":
		path := filepath.Join(strings.TrimPrefix(keys, "lease_dir="), dirstore.CounterFile(name))
		return counterOps{
			del: func() { require.NoError(t, os.Remove(path)) },
			restore: func(v int64) {
				body := fmt.Sprintf("idgen-segment 1 %020d ", v) // the file's line, with its CRC-32
				line := fmt.Sprintf("%s%08x\n", body, crc32.ChecksumIEEE([]byte(body)))
				require.NoError(t, os.WriteFile(path, []byte(line), 0o600))
			},
		}
	case "zk":
		path := root() + "/segment/" + name
		c, _, err := zk.Connect(strings.Split(zkConnect, ","), 10*time.Second, zk.WithLogInfo(false))
		require.NoError(t, err)
		t.Cleanup(c.Close)
		return counterOps{
			del: func() { require.NoError(t, c.Delete(path, -1)) },
			restore: func(v int64) {
				_, err := c.Create(path, []byte("idgen-segment 1 "+strconv.FormatInt(v, 10)), 0, zk.WorldACL(zk.PermAll))
				require.NoError(t, err)
			},
		}
	case "pg", "mysql":
		run := psql
		if store == "mysql" {
			run = mysql
		}
		table := testRoot(t) + config.SegmentTableSuffix
		return counterOps{
			del: func() { run(t, "DELETE FROM "+table+" WHERE name = '"+name+"'") },
			restore: func(v int64) {
				n := strconv.FormatInt(v, 10)
				if store == "mysql" {
					run(t, "INSERT INTO "+table+" (name, last) VALUES ('"+name+"', "+n+")")
				} else {
					run(t, "INSERT INTO "+table+" (name, last, prev) VALUES ('"+name+"', "+n+", "+n+")")
				}
			},
		}
	case "redis":
		key := redisstore.CounterKey(name)
		return counterOps{
			del:     func() { require.Equal(t, "1", redisCli(t, "DEL", key)) },
			restore: func(v int64) { require.Equal(t, "OK", redisCli(t, "SET", key, strconv.FormatInt(v, 10))) },
		}
	case "etcd":
		key := etcdstore.CounterKey(root(), name)
		return counterOps{
			del: func() { etcdSh(t, "ctl", etcdDir(), "del", key) },
			restore: func(v int64) {
				etcdSh(t, "ctl", etcdDir(), "put", key, "idgen-segment 1 "+strconv.FormatInt(v, 10))
			},
		}
	}
	t.Fatalf("no counter operations for store %s", store)
	return counterOps{}
}

func TestSegmentCounterDeletedUnderLiveGenerators(t *testing.T) {
	for _, s := range segStores() {
		t.Run(s.name, func(t *testing.T) {
			keys := s.keys(t)
			cfg := "preset=segment name=gone step=50 max_wait=1s " + keys
			var hs []*holder
			for i := 0; i < 3; i++ {
				hs = append(hs, startSegHolder(t, cfg, 300))
			}
			ops := counterOpsFor(t, s.name, keys, "gone")
			time.Sleep(700 * time.Millisecond)
			ops.del()
			for _, h := range hs {
				_, line := h.waitStatus(-5, 60*time.Second)
				require.Contains(t, line, "refused, never begun again below values already handed out", "IDGEN_EWORKER says why")
				require.Regexp(t, `(restore the counter|SET this key) to at least( that value)?`, line, "and what to do")
			}
			before := sortedIDs(hs...)
			top := before[len(before)-1]
			require.Greater(t, top, int64(50), "the generators went past their first segments before the deletion")

			// The operator writes the counter back at the highest value
			// handed out; the takes go on above it.
			ops.restore(top)
			for _, h := range hs {
				h.waitStatus(0, 60*time.Second)
			}
			time.Sleep(300 * time.Millisecond)
			for _, h := range hs {
				h.stop()
			}
			n := noDuplicates(t, hs...)
			after := 0
			for _, v := range sortedIDs(hs...) {
				if v > top {
					after++
				}
			}
			require.Positive(t, after, "values were handed out after the repair")
			t.Logf("%s: counter deleted under 3 live generators at %d: each refused it (IDGEN_EWORKER); restored by hand, %d values after, all above it; %d values in all, 0 duplicates",
				s.name, top, after, n)
		})
	}
}
