//go:build fleet

package fleet

// idgen leases on a segment configuration: the counter as each store
// holds it (last value taken, where the next segment begins), read-only,
// no password in the output.

import (
	"encoding/json"
	"fmt"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

func TestLeasesOfASegmentCounter(t *testing.T) {
	for _, s := range segStores() {
		t.Run(s.name, func(t *testing.T) {
			name := fmt.Sprintf("lc%d", time.Now().UnixNano()%1_000_000_000)
			cfg := "preset=segment name=" + name + " step=50 " + s.keys(t)
			require.Contains(t, leases(t, cfg), "counter="+name+" ", "a counter never used")
			require.Contains(t, leases(t, cfg), " last=- next=1\n", "nothing taken yet: the next segment begins at start")

			h := startSegHolder(t, cfg, 200)
			time.Sleep(500 * time.Millisecond)
			h.signal(syscall.SIGKILL)
			<-h.exited
			ids := h.ids()
			require.NotEmpty(t, ids)
			top := ids[len(ids)-1]

			var got struct {
				Counter string `json:"counter"`
				Store   string `json:"store"`
				Last    *int64 `json:"last"`
				Next    int64  `json:"next"`
			}
			out := leases(t, cfg, "--json")
			require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(out)), &got), out)
			require.Equal(t, name, got.Counter)
			require.NotNil(t, got.Last, out)
			require.GreaterOrEqual(t, *got.Last, top, "every value the killed process issued was taken first")
			// At most top's segment and the prefetched one beyond it; when top
			// ended its segment, the prefetched one may have become current
			// (nothing of it issued yet) with the next prefetched: top + 2·step.
			require.LessOrEqual(t, *got.Last, top+2*50, "at most its segment (or, used up, the next) and the prefetched one beyond it")
			require.Equal(t, *got.Last+1, got.Next)
			require.Contains(t, leases(t, cfg), fmt.Sprintf(" last=%d next=%d\n", *got.Last, got.Next), "the text form says the same")
			t.Logf("%s: counter %s after a process issued up to %d and was killed: last=%d next=%d (%s)", s.name, name, top, *got.Last, got.Next, got.Store)
		})
	}
}
