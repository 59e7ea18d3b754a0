package gen

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// issueAll draws ids from g every way it offers (Next, NextBatch, NextRun,
// NextText) until stop is set.
func issueAll(t *testing.T, g Generator, w int, stop *atomic.Bool) {
	buf := make([]int64, 64)
	text := make([]byte, g.TextLen())
	rn, runs := g.(RunNexter)
	_, err := g.Next()
	textOnly := err != nil // a text preset: idgen_next_text only
	for i := w; !stop.Load(); i++ {
		switch {
		case textOnly || i%7 == 0:
			_, err = g.NextText(text)
		case i%5 == 0:
			err = g.NextBatch(buf[:1+i%len(buf)])
		case i%5 == 1 && runs && rn.Longest() > 1:
			_, _, err = rn.NextRun(buf)
		default:
			_, err = g.Next()
		}
		require.NoError(t, err)
	}
}

// Stats.Issued (idgen_ids_issued_total) never goes down while threads
// issue and another reads it: a reader never sees a new tick's, a new
// millisecond's or a new run's state without what goes with it.
func TestIssuedNeverGoesDownUnderConcurrentReaders(t *testing.T) {
	for _, cfg := range []string{
		"preset=snowflake worker=1",
		"layout=time:41,seq:4 worker=0",
		"layout=time:41,seq:8 worker=0 seq_start=random:64",
		"preset=snowflake worker=1 runs=1024",
		"preset=zxid layout=epoch:32,counter:4 worker=0",
		"preset=uuidv7",
		baidu29 + " worker=7",
	} {
		t.Run(cfg, func(t *testing.T) {
			g := openText(t, cfg, nil)
			var stop atomic.Bool
			var wg sync.WaitGroup
			for w := 0; w < 4; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					issueAll(t, g, w, &stop)
				}(w)
			}
			last, drops := int64(0), 0
			for end := time.Now().Add(300 * time.Millisecond); time.Now().Before(end); {
				n := StatsOf(g).Issued
				if n < last {
					if drops++; drops == 1 {
						t.Logf("Issued went from %d down to %d", last, n)
					}
				}
				last = max(last, n)
			}
			stop.Store(true)
			wg.Wait()
			require.Zero(t, drops, "Issued went down %d times", drops)
			require.GreaterOrEqual(t, StatsOf(g).Issued, last)
		})
	}
}
