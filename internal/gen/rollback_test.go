package gen

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease"
	"github.com/idgen/idgen/internal/lease/leasetest"
)

// The clock-rollback answers at a takeover: a predecessor's record planted
// ahead of the clock by 1 ms .. 1 h, under each policy, with and without a
// backwards field. Every id issued must differ from every id the
// predecessor may have issued: (tick <= record, counter = record's).

const bwLayout = "layout=time:41,backwards:2,worker:3,seq:12"

// planted is what the predecessor may have issued: ticks up to upTo in era
// backwards, on one pair.
type planted struct {
	pair      lease.Pair
	upTo      int64
	backwards int64
}

func nowTick() int64 { return time.Now().UnixMilli() - 1288834974657 }

// anchoredClock reads base (unix ms) at its first reading and runs in real
// time from there: a record planted relative to base is exactly that far
// ahead when the generator first looks, however long the test took to get
// there.
type anchoredClock struct {
	base int64
	once sync.Once
	t0   time.Time
}

func (c *anchoredClock) Now() int64 {
	c.once.Do(func() { c.t0 = time.Now() })
	return c.base*int64(time.Millisecond) + int64(time.Since(c.t0))
}

// clashes reports whether id could be one of the predecessor's.
func (p planted) clashes(t *testing.T, g Generator, id int64) bool {
	d, err := g.Decode(id)
	require.NoError(t, err)
	counter := max(d.Epoch, 0)
	return d.Worker == p.pair.Worker && d.Time <= p.upTo && counter == p.backwards
}

func TestTakeoverWithTheClockSetBackUnderEachPolicy(t *testing.T) {
	type outcome int
	const (
		waits    outcome = iota // waits for the clock, same era
		newEra                  // goes on at once, counter + 1
		switches                // takes another pair
		refuses                 // ErrClockBackwards
	)
	steps := []time.Duration{time.Millisecond, 140 * time.Millisecond, 250 * time.Millisecond, time.Second, time.Hour}
	cases := []struct {
		policy string
		layout string
		want   func(ahead time.Duration) outcome
	}{
		{"error", "layout=time:41,worker:3,seq:12", func(a time.Duration) outcome {
			if a <= 100*time.Millisecond {
				return waits
			}
			return refuses
		}},
		{"wait:150ms", "layout=time:41,worker:3,seq:12", func(a time.Duration) outcome {
			if a <= 150*time.Millisecond {
				return waits
			}
			return refuses
		}},
		{"switch", "layout=time:41,worker:3,seq:12", func(a time.Duration) outcome {
			if a <= 100*time.Millisecond {
				return waits
			}
			return refuses // every pair is ahead: nothing to switch to
		}},
		{"wait:150ms,switch", "layout=time:41,worker:3,seq:12", func(a time.Duration) outcome {
			if a <= 150*time.Millisecond {
				return waits
			}
			return refuses
		}},
		{"error", bwLayout, func(a time.Duration) outcome {
			if a <= 100*time.Millisecond {
				return waits
			}
			return newEra
		}},
		{"wait:150ms,switch", bwLayout, func(a time.Duration) outcome {
			if a <= 150*time.Millisecond {
				return waits
			}
			return newEra
		}},
	}
	for _, c := range cases {
		for _, ahead := range steps {
			t.Run(fmt.Sprintf("%s/%s/%s", c.layout[7:], c.policy, ahead), func(t *testing.T) {
				st := leasetest.New()
				cfg := c.layout + " worker=lease max_wait=100ms on_clock_back=" + c.policy
				spec, err := config.Parse(cfg)
				require.NoError(t, err)
				pool := poolOf(spec).Name
				clk := &anchoredClock{base: nowMs}
				p := planted{pair: lease.Pair{}, upTo: nowMs - 1288834974657 + ahead.Milliseconds(), backwards: 1}
				// Every pair of the pool is ahead (else the Keeper prefers a
				// pair behind the clock and nothing here is exercised).
				for w := int64(0); w < 8; w++ {
					st.SetRecord(pool, lease.Pair{Worker: w}, lease.Record{IssuedUpTo: p.upTo, Backwards: p.backwards})
				}
				start := time.Now()
				g, err := Open(spec, Options{Store: st, Clock: clk})
				want := c.want(ahead)
				if want == refuses {
					require.ErrorIs(t, err, errs.ErrClockBackwards)
					require.Contains(t, err.Error(), "on_clock_back="+c.policy)
					return
				}
				require.NoError(t, err)
				defer g.Close()
				took := time.Since(start)
				ids := make([]int64, 5000)
				require.NoError(t, g.NextBatch(ids))
				for _, id := range ids {
					require.False(t, p.clashes(t, g, id), "id %d could be the predecessor's", id)
				}
				d, err := g.Decode(ids[0])
				require.NoError(t, err)
				switch want {
				case waits:
					require.Equal(t, int64(0), d.Worker, "the same pair")
					require.Greater(t, d.Time, p.upTo, "after the record")
					require.GreaterOrEqual(t, took, ahead-2*time.Millisecond, "waited for the clock")
					if c.layout == bwLayout {
						require.Equal(t, int64(1), d.Epoch, "an ordinary wait keeps the era")
					}
				case newEra:
					require.Equal(t, int64(0), d.Worker)
					require.Equal(t, int64(2), d.Epoch, "the counter went up by one")
					require.Less(t, took, 200*time.Millisecond, "went on at once")
					rec, _ := st.Record(pool, p.pair)
					require.Equal(t, int64(2), rec.Backwards, "the counter is in the record")
					if ahead == time.Hour {
						require.Less(t, rec.IssuedUpTo, p.upTo, "the record's fence is the new era's (now + lease_ttl)")
					}
				case switches:
					require.NotEqual(t, int64(0), d.Worker, "another pair")
					require.Contains(t, g.Config(), "switched=0/0", "it says so")
					require.Less(t, took, 200*time.Millisecond)
				}
			})
		}
	}
}

// plantAll plants rec on every pair of an 8-worker pool: the Keeper then
// has no pair behind the clock to prefer.
func plantAll(st *leasetest.Store, pool string, rec lease.Record) {
	for w := int64(0); w < 8; w++ {
		st.SetRecord(pool, lease.Pair{Worker: w}, rec)
	}
}

func TestBackwardsCounterRunsOutThenThePolicyDecides(t *testing.T) {
	st := leasetest.New()
	cfg := bwLayout + " worker=lease max_wait=10ms"
	spec, err := config.Parse(cfg)
	require.NoError(t, err)
	pool := poolOf(spec).Name
	var all []planted
	seen := map[int64]bool{}
	for want := int64(1); want <= 3; want++ {
		rec, _ := st.Record(pool, lease.Pair{})
		p := planted{upTo: nowTick() + 3600000, backwards: rec.Backwards}
		plantAll(st, pool, lease.Record{IssuedUpTo: p.upTo, Backwards: p.backwards})
		all = append(all, p)
		g, err := Open(spec, Options{Store: st})
		require.NoError(t, err)
		ids := make([]int64, 3000)
		require.NoError(t, g.NextBatch(ids))
		for _, id := range ids {
			d, err := g.Decode(id)
			require.NoError(t, err)
			require.Equal(t, want, d.Epoch)
			require.False(t, seen[id])
			seen[id] = true
			for _, q := range all {
				require.False(t, q.clashes(t, g, id))
			}
		}
		require.NoError(t, g.Close())
	}
	// The counter is at 3, its largest: error refuses, switch takes
	// another pair.
	rec, _ := st.Record(pool, lease.Pair{})
	require.Equal(t, int64(3), rec.Backwards)
	st.SetRecord(pool, lease.Pair{}, lease.Record{IssuedUpTo: nowTick() + 3600000, Backwards: 3})
	_, err = Open(spec, Options{Store: st})
	require.ErrorIs(t, err, errs.ErrClockBackwards)
	// A pair behind the clock is preferred at once (switch has nothing
	// to do: the Keeper never took 0/0).
	st.SetRecord(pool, lease.Pair{Worker: 1}, lease.Record{IssuedUpTo: nowTick() - 1000, Backwards: 3})
	sw, err := config.Parse(cfg + " on_clock_back=switch")
	require.NoError(t, err)
	g, err := Open(sw, Options{Store: st})
	require.NoError(t, err)
	defer g.Close()
	id, err := g.Next()
	require.NoError(t, err)
	d, _ := g.Decode(id)
	require.Equal(t, int64(1), d.Worker)
	require.NotContains(t, g.Config(), "switched=")
}

// switch matters past the preference pass's scan: with the first 64 pairs
// ahead, the Keeper takes 0/0, finds it too far ahead, and switches to a
// pair behind the clock, saying so.
func TestSwitchPastThePreferenceScan(t *testing.T) {
	st := leasetest.New()
	cfg := "layout=time:41,worker:7,seq:12 worker=lease max_wait=10ms on_clock_back=switch"
	spec, err := config.Parse(cfg)
	require.NoError(t, err)
	pool := poolOf(spec).Name
	for w := int64(0); w < 64; w++ {
		st.SetRecord(pool, lease.Pair{Worker: w}, lease.Record{IssuedUpTo: nowTick() + 3600000})
	}
	g, err := Open(spec, Options{Store: st})
	require.NoError(t, err)
	defer g.Close()
	d, _ := g.Decode(next(t, g))
	require.Equal(t, int64(64), d.Worker)
	require.Contains(t, g.Config(), "switched=0/0")
	reopened, err := config.Parse(g.Config())
	require.NoError(t, err, "the configuration string opens again")
	require.NotContains(t, reopened.String(), "switched=", "accepted and ignored: a Spec holds no pair")
}

func TestSwitchWhenEveryOtherPairIsAheadToo(t *testing.T) {
	st := leasetest.New()
	cfg := "layout=time:41,worker:1,seq:12 worker=lease max_wait=10ms on_clock_back=switch"
	spec, err := config.Parse(cfg)
	require.NoError(t, err)
	pool := poolOf(spec).Name
	for w := int64(0); w < 2; w++ {
		st.SetRecord(pool, lease.Pair{Worker: w}, lease.Record{IssuedUpTo: nowTick() + 60000})
	}
	_, err = Open(spec, Options{Store: st})
	require.ErrorIs(t, err, errs.ErrClockBackwards)
	require.Contains(t, err.Error(), "no free pair's record can be waited out within it")
	// Both pairs are free again afterwards.
	st.SetRecord(pool, lease.Pair{Worker: 1}, lease.Record{IssuedUpTo: nowTick() - 1000})
	g, err := Open(spec, Options{Store: st})
	require.NoError(t, err)
	g.Close()
}

// clock=wall stepping back in a running generator: with a backwards field
// the counter goes up (in the record first) and it goes on at once; the
// ids stay unique; at the last counter value the policy decides.
func TestWallClockStepsBackIntoNewEras(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	st := leasetest.New()
	cfg := bwLayout + " worker=lease clock=wall on_clock_back=error"
	spec, err := config.Parse(cfg)
	require.NoError(t, err)
	g := openWith(t, cfg, clk, st)
	seen := map[int64]bool{}
	take := func(n int) (first int64) {
		for i := range n {
			id, err := g.Next()
			require.NoError(t, err)
			require.False(t, seen[id], "duplicate %d", id)
			seen[id] = true
			if i == 0 {
				first = id
			}
			if i%1000 == 999 {
				clk.Add(time.Millisecond)
			}
		}
		return first
	}
	take(5000)
	for era := int64(1); era <= 3; era++ {
		clk.Add(-time.Second)
		d, err := g.Decode(take(3000))
		require.NoError(t, err)
		require.Equal(t, era, d.Epoch)
		require.Equal(t, clk.Now()/int64(time.Millisecond)-3, d.UnixMs, "goes on from the stepped-back clock")
		rec, _ := st.Record(poolOf(spec).Name, lease.Pair{})
		require.Equal(t, era, rec.Backwards, "written to the record before its first id")
	}
	clk.Add(-time.Second)
	_, err = g.Next()
	require.ErrorIs(t, err, errs.ErrClockBackwards, "the counter would wrap: the policy decides")
	require.Len(t, seen, 5000+3*3000)
}

func TestBackwardsRoundTripsThroughPartsEpoch(t *testing.T) {
	g := open(t, bwLayout+" worker=5", clock.NewManualClock(nowMs))
	id, err := g.Compose(Parts{UnixMs: nowMs, Epoch: 3, Datacenter: -1, Worker: 5, Sequence: 7})
	require.NoError(t, err)
	p, err := g.Decode(id)
	require.NoError(t, err)
	require.Equal(t, Parts{ID: id, UnixMs: nowMs, Time: nowMs - 1288834974657, Epoch: 3, Datacenter: -1, Worker: 5, Sequence: 7}, p)
	_, err = g.Compose(Parts{UnixMs: nowMs, Epoch: 4, Datacenter: -1, Worker: 5})
	require.ErrorIs(t, err, errs.ErrRange)
	for cfg, key := range map[string]string{
		"layout=time:41,backwards:0,worker:8,seq:12":                "layout",
		"layout=time:41,backwards:5,worker:8,seq:12":                "layout",
		"preset=snowflake worker=3 on_clock_back=switch clock=wall": "on_clock_back",
		"preset=zxid layout=epoch:30,backwards:2,counter:32":        "layout",
	} {
		_, err := config.Parse(cfg)
		require.ErrorIs(t, err, errs.ErrInvalid, cfg)
		require.Contains(t, err.Error(), key+":", cfg)
	}
}

// A running clock=wall generator whose clock steps back by 1 ms .. 1 h,
// under each policy, with and without a backwards field (injected clock
// that otherwise runs in real time; injected lease store).
func TestWallClockStepBackUnderEachPolicy(t *testing.T) {
	type outcome int
	const (
		goesOn  outcome = iota // waits or tolerates: same era, ids increase
		era                    // counter + 1, at once
		refuses                // ErrClockBackwards
	)
	steps := []time.Duration{time.Millisecond, 14 * time.Millisecond, 16 * time.Millisecond, time.Second, time.Hour}
	cases := []struct {
		layout, policy string
		want           func(time.Duration) outcome
	}{
		{"layout=time:41,worker:3,seq:12", "error", func(time.Duration) outcome { return refuses }},
		{"layout=time:41,worker:3,seq:12", "wait:15ms", func(d time.Duration) outcome {
			if d <= 15*time.Millisecond {
				return goesOn
			}
			return refuses
		}},
		{"layout=time:41,worker:3,seq:12", "tolerate:1s", func(d time.Duration) outcome {
			if d <= time.Second {
				return goesOn
			}
			return refuses
		}},
		{bwLayout, "error", func(time.Duration) outcome { return era }},
		{bwLayout, "wait:15ms", func(d time.Duration) outcome {
			if d <= 15*time.Millisecond {
				return goesOn
			}
			return era
		}},
	}
	for _, c := range cases {
		for _, step := range steps {
			t.Run(fmt.Sprintf("%s/%s/%s", c.layout[7:], c.policy, step), func(t *testing.T) {
				clk := clock.NewManualClock(nowMs)
				stop := make(chan struct{})
				defer close(stop)
				go func() { // real time passes
					last := time.Now()
					for {
						select {
						case <-stop:
							return
						case <-time.After(500 * time.Microsecond):
						}
						now := time.Now()
						clk.Add(now.Sub(last))
						last = now
					}
				}()
				g := openWith(t, c.layout+" worker=lease clock=wall on_clock_back="+c.policy, clk, leasetest.New())
				before := next(t, g)
				clk.Add(-step)
				id, err := g.Next()
				switch c.want(step) {
				case refuses:
					require.ErrorIs(t, err, errs.ErrClockBackwards)
					require.Contains(t, err.Error(), "on_clock_back="+c.policy)
				case goesOn:
					require.NoError(t, err)
					require.Greater(t, id, before)
				case era:
					require.NoError(t, err)
					d, _ := g.Decode(id)
					b, _ := g.Decode(before)
					require.Equal(t, b.Epoch+1, d.Epoch)
					require.Less(t, d.Time, b.Time, "dated by the stepped-back clock")
				}
			})
		}
	}
}
