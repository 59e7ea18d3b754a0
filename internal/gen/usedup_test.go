package gen

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/leasetest"
)

// A leased layout whose time field is used up opens, answers
// IDGEN_EOVERFLOW from every call (never IDGEN_ECLOSED: the state word's
// closed flag is out of reach of any field value), and its close gives the
// pair back — for every time width from 8 to 27 bits (2^27 ms is 37 hours
// after the epoch) and at several clock readings, which once decided
// whether the floor shifted into the state word landed on the flag.
func TestAUsedUpLayoutOverflowsAndGivesItsPairBack(t *testing.T) {
	cfgs := []string{"preset=snowflake layout=time:18,datacenter:10,seq:34 worker=lease"}
	for w := 8; w <= 27; w++ {
		cfgs = append(cfgs, fmt.Sprintf("layout=time:%d,worker:1,seq:%d worker=lease", w, 62-w))
	}
	now := time.Now().UnixMilli()
	for _, cfg := range cfgs {
		for _, at := range []int64{now, now + 1, now + 12345, now + 86_400_000} {
			t.Run(fmt.Sprintf("%s/%d", cfg, at-now), func(t *testing.T) {
				spec, err := config.Parse(cfg)
				require.NoError(t, err)
				st := leasetest.New()
				clk := clock.NewManualClock(at)
				for round := 0; round < 3; round++ {
					g, err := Open(spec, Options{Clock: clk, Store: st})
					require.NoError(t, err, "round %d: a used-up layout still opens (and its pair was given back)", round)
					_, err = g.Next()
					require.ErrorIs(t, err, errs.ErrTimeOverflow)
					require.ErrorIs(t, g.NextBatch(make([]int64, 3)), errs.ErrTimeOverflow)
					_, err = g.Next()
					require.ErrorIs(t, err, errs.ErrTimeOverflow, "still open: never IDGEN_ECLOSED")
					require.NoError(t, g.Close())
					_, err = g.Next()
					require.ErrorIs(t, err, errs.ErrClosed)
				}
			})
		}
	}
}
