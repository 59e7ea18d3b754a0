package gen

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/leasetest"
)

// The first fence a take writes is an acknowledged write: the stats say
// when it landed, before any renewal (a dashboard must not show a
// standing fence "never renewed"); renewals count only renewals.
func TestTakeReportsTheFirstFenceAsRenewed(t *testing.T) {
	before := time.Now().UnixMilli()
	g := openWith(t, "preset=snowflake worker=lease lease_ttl=30s max_outage=60s", nil, leasetest.New())
	after := time.Now().UnixMilli()
	s := StatsOf(g)
	require.EqualValues(t, lease.StateHeld, s.LeaseState)
	require.Greater(t, s.FenceUnixMs, before, "a fence stands")
	require.Zero(t, s.Renewals, "no renewal yet (lease_ttl=30s)")
	require.GreaterOrEqual(t, s.RenewedUnixMs, before)
	require.LessOrEqual(t, s.RenewedUnixMs, after)
}
