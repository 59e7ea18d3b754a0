package gen

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/leasetest"
)

// Found by fuzzing the C ABI (issue 27): bad input is ErrInvalid naming
// the key, never a panic, and a generator never says something untrue
// about itself.

// A baidu-cached ring whose size overflowed int64 panicked in makeslice
// (with a lease, after the pair was taken). It is refused before anything
// is taken.
func TestBaiduCachedRingTooLargeIsRefusedBeforeAnyLease(t *testing.T) {
	for _, cfg := range []string{
		"preset=baidu-cached layout=time:3,seq:60 worker=0",
		"preset=baidu-cached layout=time:10,seq:53 boost=10 worker=0",
		"preset=baidu-cached layout=time:5,worker:1,seq:57 boost=6 worker=lease",
		"preset=baidu-cached layout=time:30,worker:12,seq:21 boost=4 worker=lease",
	} {
		t.Run(cfg, func(t *testing.T) {
			st := leasetest.New()
			for i := 0; i < 3; i++ { // the third open found the pool full
				c, err := config.Parse(cfg)
				if err == nil {
					var g Generator
					g, err = Open(c, Options{Store: st})
					if g != nil {
						g.Close()
					}
				}
				require.ErrorIs(t, err, errs.ErrInvalid)
				require.Regexp(t, `^(boost|layout): `, err.Error())
			}
		})
	}
	// A ring within the bound opens and issues.
	g := openWith(t, "preset=baidu-cached layout=time:32,worker:10,seq:21 boost=0 epoch=2026-01-01T00:00:00Z worker=lease", nil, leasetest.New())
	ids := make([]int64, 3)
	require.NoError(t, g.NextBatch(ids))
	require.Less(t, ids[0], ids[1])
}

// Compose on a layout without a time field: unix_ms and time must be -1
// or 0, like every field the layout lacks; -7 and -9 were taken.
func TestComposeWithoutATimeFieldTakesOnlyMinusOneOrZero(t *testing.T) {
	g := openWith(t, "preset=zxid worker=0", nil, nil)
	base := Parts{ID: -1, UnixMs: -1, Time: -1, Epoch: 5, Datacenter: -1, Worker: -1, Sequence: 7}
	for _, x := range []struct{ unixMs, tm int64 }{{-1, -1}, {0, 0}, {-1, 0}, {0, -1}} {
		p := base
		p.UnixMs, p.Time = x.unixMs, x.tm
		id, err := g.Compose(p)
		require.NoError(t, err, "unix_ms=%d time=%d", x.unixMs, x.tm)
		require.Equal(t, int64(5)<<32|7, id)
	}
	for _, x := range []struct {
		unixMs, tm int64
		name       string
	}{
		{-7, -9, "unix_ms"}, {-7, -1, "unix_ms"}, {-2, 0, "unix_ms"}, {1795508535000, -1, "unix_ms"},
		{-1, -9, "time"}, {0, -9, "time"}, {-1, 3, "time"}, {-1, -1 << 63, "time"}, {-1 << 63, -1, "unix_ms"},
	} {
		p := base
		p.UnixMs, p.Time = x.unixMs, x.tm
		_, err := g.Compose(p)
		require.ErrorIs(t, err, errs.ErrInvalid, "unix_ms=%d time=%d", x.unixMs, x.tm)
		require.True(t, strings.HasPrefix(err.Error(), x.name+": "), "names %s: %v", x.name, err)
		require.Contains(t, err.Error(), "-1 or 0")
	}
	// The other absent fields keep the same rule.
	for _, p := range []Parts{
		{UnixMs: -1, Time: -1, Epoch: 5, Datacenter: -7, Worker: -1, Sequence: 7},
		{UnixMs: -1, Time: -1, Epoch: 5, Datacenter: -1, Worker: -9, Sequence: 7},
	} {
		_, err := g.Compose(p)
		require.ErrorIs(t, err, errs.ErrInvalid)
	}
}

// switched= given to Open is accepted and ignored: the configuration
// string shows only a switch the generator made itself (issue 27, item 6).
func TestSwitchedGivenByTheUserIsNeverReported(t *testing.T) {
	for _, cfg := range []string{
		"worker=lease on_clock_back=error switched=3/4",
		"worker=lease on_clock_back=switch switched=31/31 leased=7/7",
		"preset=zxid switched=0/0",
	} {
		t.Run(cfg, func(t *testing.T) {
			spec, err := config.Parse(cfg)
			require.NoError(t, err)
			parsed := spec.String()
			g, err := Open(spec, Options{Store: leasetest.New()})
			require.NoError(t, err)
			defer g.Close()
			s := g.Config()
			require.NotContains(t, s, "switched=", "no switch happened")
			require.Contains(t, s, "leased=0/0", "the pair it holds, not the one given")
			require.Equal(t, parsed, spec.String(), "the caller's Spec is left as parsed")
		})
	}
	// Out of the layout's fields: refused naming the key, whatever the policy.
	for _, cfg := range []string{"worker=lease switched=99/99", "worker=lease on_clock_back=error switched=99/99"} {
		_, err := config.Parse(cfg)
		require.ErrorIs(t, err, errs.ErrInvalid)
		require.True(t, strings.HasPrefix(err.Error(), "switched: "), err.Error())
	}
}

// What on_clock_back=tolerate does at a lease takeover (issue 27, item 7):
// nothing. A takeover never issues at or below the predecessor's record,
// so there is no last tick of its own to go on with; the record is waited
// out up to max_wait, then the rest of the policy decides. Under
// clock=mono no tolerate step can be configured, and the hutool preset's
// tolerate:2s is dropped (its policy is error).
func TestTolerateAtALeaseTakeover(t *testing.T) {
	const twitterEpoch = 1288834974657
	plant := func(t *testing.T, cfg string, ahead time.Duration) (*leasetest.Store, *config.Spec, int64) {
		spec, err := config.Parse(cfg)
		require.NoError(t, err)
		st := leasetest.New()
		upTo := time.Now().Add(ahead).UnixMilli() - twitterEpoch
		// On every pair the Keeper's preference pass looks at (64: two
		// datacenters of 32 workers), so it takes 0/0 and faces the record.
		for p := int64(0); p < 64; p++ {
			st.SetRecord(poolOf(spec).Name, lease.Pair{DC: p / 32, Worker: p % 32}, lease.Record{IssuedUpTo: upTo})
		}
		return st, spec, upTo
	}

	// clock=mono: the hutool preset's policy is error.
	_, err := config.Parse("preset=hutool worker=lease on_clock_back=tolerate:2s")
	require.ErrorIs(t, err, errs.ErrInvalid)
	require.Contains(t, err.Error(), "on_clock_back: ")
	mono := "preset=hutool worker=lease max_wait=300ms"
	st, spec, upTo := plant(t, mono, time.Second) // within hutool's 2s, beyond max_wait
	require.Equal(t, "error", spec.OnClockBack.String())
	start := time.Now()
	_, err = Open(spec, Options{Store: st})
	require.ErrorIs(t, err, errs.ErrClockBackwards)
	require.Contains(t, err.Error(), "on_clock_back=error")
	require.Less(t, time.Since(start), 900*time.Millisecond, "not waited out as if tolerated")
	// A record within max_wait is waited out, and ids go on above it.
	st, spec, upTo = plant(t, mono, 100*time.Millisecond)
	g, err := Open(spec, Options{Store: st})
	require.NoError(t, err)
	id, err := g.Next()
	require.NoError(t, err)
	p, _ := g.Decode(id)
	require.Greater(t, p.Time, upTo)
	require.Equal(t, int64(0), p.Worker, "the same pair")
	require.NoError(t, g.Close())

	// clock=wall: tolerate acts on steps between calls, not at a takeover.
	wall := "preset=hutool clock=wall worker=lease max_wait=300ms"
	st, spec, _ = plant(t, wall, time.Second)
	require.Equal(t, "tolerate:2s", spec.OnClockBack.String())
	_, err = Open(spec, Options{Store: st})
	require.ErrorIs(t, err, errs.ErrClockBackwards)
	require.Contains(t, err.Error(), "on_clock_back=tolerate:2s")
}

// The defaults lease their pair: on an idle pool that is 0/0, held as a
// lease, never an unleased fixed 0 (issue 27, item 9).
func TestDefaultsOnAnIdlePoolLeasePairZero(t *testing.T) {
	st := leasetest.New()
	spec, err := config.Parse("")
	require.NoError(t, err)
	g, err := Open(spec, Options{Store: st})
	require.NoError(t, err)
	defer g.Close()
	id, err := g.Next()
	require.NoError(t, err)
	p, _ := g.Decode(id)
	require.Equal(t, int64(0), p.Worker)
	require.Equal(t, int64(0), p.Datacenter)
	require.Contains(t, g.Config(), "worker=lease")
	require.Contains(t, g.Config(), "leased=0/0")
	g2, err := Open(spec, Options{Store: st})
	require.NoError(t, err, "a second default generator leases another pair")
	defer g2.Close()
	require.NotContains(t, g2.Config(), "leased=0/0")
}
