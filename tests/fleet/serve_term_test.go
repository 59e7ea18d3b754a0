//go:build fleet

package fleet

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// SIGTERM while 50 clients keep asking: every answer that comes is whole
// (200 and every id, never a 5xx or a cut body), the process drains, closes
// its counter (the tail given back) and exits 0, and the counter goes on
// right after the last value handed out: no gap.
func TestServeSIGTERMWithFiftyClientsInFlight(t *testing.T) {
	gen := "seq=preset=segment name=term step=1000 lease_dir=" + t.TempDir()
	p := startServe(t, gen)
	var (
		mu       sync.Mutex
		got      = map[int64]bool{}
		answered int
		refused  int
	)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for k := 0; k < 50; k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			hc := &http.Client{Timeout: 10 * time.Second}
			for {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := hc.Get(p.url + "/v1/ids/seq?n=10")
				if err != nil {
					mu.Lock()
					refused++ // the listener closed: refused, nothing handed out
					mu.Unlock()
					time.Sleep(time.Millisecond)
					continue
				}
				body, rerr := io.ReadAll(resp.Body)
				resp.Body.Close()
				var ids struct{ IDs []string }
				if rerr != nil || resp.StatusCode != 200 || json.Unmarshal(body, &ids) != nil || len(ids.IDs) != 10 {
					t.Errorf("an answer that is not whole: %d %q %v", resp.StatusCode, body, rerr)
					continue
				}
				mu.Lock()
				answered++
				for _, s := range ids.IDs {
					v, _ := strconv.ParseInt(s, 10, 64)
					if got[v] {
						t.Errorf("%d handed out twice", v)
					}
					got[v] = true
				}
				mu.Unlock()
			}
		}()
	}
	for {
		mu.Lock()
		n := answered
		mu.Unlock()
		if n >= 500 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	werr := p.wait()
	close(stop)
	wg.Wait()
	require.NoError(t, werr, "exit 0 after SIGTERM: %s", p.errs)
	require.Contains(t, p.errs.String(), "every generator closed")

	var top int64
	for v := range got {
		top = max(top, v)
	}
	require.Equal(t, int64(len(got)), top, "values 1..%d, every one handed out once", top)
	q := startServe(t, gen)
	resp, err := http.Get(q.url + "/v1/ids/seq")
	require.NoError(t, err)
	var next struct{ IDs []string }
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&next))
	resp.Body.Close()
	require.Equal(t, strconv.FormatInt(top+1, 10), next.IDs[0], "the tail was given back: the counter goes on after %d", top)
	t.Logf("%d answers (%d ids) before and during the drain, %d requests refused after it", answered, len(got), refused)
}
