package lease_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
)

// scanClaim is a claim with a record, for Scan to judge.
type scanClaim struct {
	lease.Claim
	p   lease.Pair
	rec lease.Record
}

func (c *scanClaim) Pair() lease.Pair                         { return c.p }
func (c *scanClaim) Predecessor() (lease.Record, lease.State) { return c.rec, lease.Present }

// Scan tries the candidates lowest first, counts the held, gives back
// and counts the skipped (with the first's note), returns the first it
// may keep, and reports a full pool through full with the tally.
func TestScan(t *testing.T) {
	req := lease.Request{Pool: lease.Pool{Name: "p", DCs: 1, Workers: 6}, DC: -1,
		Skip: func(_ lease.Pair, r lease.Record, _ lease.State) bool { return r.IssuedUpTo > 100 }}
	var tried []int64
	var given []int64
	try := func(p lease.Pair) (lease.Claim, lease.Missed, error) {
		tried = append(tried, p.Worker)
		switch p.Worker {
		case 0, 2:
			return nil, lease.Missed{Kind: lease.Held}, nil
		case 1, 3:
			return &scanClaim{p: p, rec: lease.Record{IssuedUpTo: 200}}, lease.Missed{}, nil // ahead: skipped
		case 4:
			return nil, lease.Missed{Kind: "mine", Note: "w4"}, nil
		}
		return &scanClaim{p: p, rec: lease.Record{IssuedUpTo: 50}}, lease.Missed{}, nil
	}
	giveBack := func(c lease.Claim) (string, error) {
		given = append(given, c.Pair().Worker)
		return "pair " + c.Pair().String(), nil
	}
	full := func(lease.Tally) error { t.Fatal("a pair was free"); return nil }
	c, err := lease.Scan(req, try, giveBack, full)
	require.NoError(t, err)
	require.Equal(t, int64(5), c.Pair().Worker)
	require.Equal(t, []int64{0, 1, 2, 3, 4, 5}, tried)
	require.Equal(t, []int64{1, 3}, given, "the skipped claims were given back")

	// Worker 5 held too: the pool is full, and full sees the tally.
	req.Pool.Workers = 5
	tried, given = nil, nil
	var tally lease.Tally
	_, err = lease.Scan(req, try, giveBack, func(t lease.Tally) error {
		tally = t
		return lease.PoolFull(req, "(test)")
	})
	require.ErrorIs(t, err, errs.ErrWorker)
	require.Contains(t, err.Error(), "all 5 pairs of pool p are taken (test)")
	require.Equal(t, 2, tally.Count(lease.Held))
	require.Equal(t, 2, tally.Count(lease.Skipped))
	require.Equal(t, "pair 0/1", tally.First(lease.Skipped))
	require.Equal(t, 1, tally.Count("mine"))
	require.Equal(t, "w4", tally.First("mine"))

	// An error of try or of giveBack ends the scan with that error.
	boom := errors.New("store down")
	_, err = lease.Scan(req, func(p lease.Pair) (lease.Claim, lease.Missed, error) {
		if p.Worker == 1 {
			return nil, lease.Missed{}, boom
		}
		return nil, lease.Missed{Kind: lease.Held}, nil
	}, giveBack, full)
	require.ErrorIs(t, err, boom)
	_, err = lease.Scan(req, try, func(lease.Claim) (string, error) { return "", boom }, full)
	require.ErrorIs(t, err, boom)
}
