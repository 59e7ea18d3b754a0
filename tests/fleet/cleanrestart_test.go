//go:build fleet

package fleet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/layout"
)

// A clean close records the last tick and sequence in the store, so a
// clean restart on the pair goes on in the same tick: with unit=1m and
// max_wait=300ms a restart would otherwise wait for the next minute and
// fail (a one-pair pool: no other pair to go to). Each store must keep
// the sequence.
func TestCleanRestartGoesOnInTheSameTick(t *testing.T) {
	for _, s := range stores() {
		t.Run(s.name, func(t *testing.T) {
			if s.name == "redis" {
				redisUpFor(t, 6*time.Second) // else round 0, a new pool, may be one Redis lost: it would wait max_outage
			}
			cfg := "layout=time:42,seq:21 unit=1m lease_ttl=2s max_outage=2s max_wait=300ms worker=" + s.source(t, 0)
			spec, err := config.Parse(cfg)
			require.NoError(t, err)
			var prev []int64
			for round := 0; round < 3; round++ {
				h := startHolder(t, cfg, 1000)
				require.Empty(t, h.open, "round %d: a clean restart opens at once", round)
				time.Sleep(200 * time.Millisecond) // some ids
				h.stop()
				ids := h.ids()
				require.NotEmpty(t, ids)
				if len(prev) > 0 {
					last, first := prev[len(prev)-1], ids[0]
					require.Greater(t, first, last)
					lt, ft := spec.Layout.Get(last, layout.FieldTime), spec.Layout.Get(first, layout.FieldTime)
					if lt == ft { // not across a minute's end
						require.Equal(t, spec.Layout.Get(last, layout.FieldSeq)+1, spec.Layout.Get(first, layout.FieldSeq),
							"the restart goes on right after the last sequence")
					}
					t.Logf("%s: round %d goes on at tick %d seq %d after tick %d seq %d", s.name, round, ft, spec.Layout.Get(first, layout.FieldSeq), lt, spec.Layout.Get(last, layout.FieldSeq))
				}
				prev = ids
			}
		})
	}
}
