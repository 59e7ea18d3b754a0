package segment

// Issue 32 item 2: a counter deleted or gone back under a live generator
// never makes it hand out values twice.

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

// drawUntil draws values until a call fails, checking that they increase.
func drawUntil(t *testing.T, c *Counter, last int64) (int64, error) {
	for {
		v, err := c.Next()
		if err != nil {
			return last, err
		}
		require.Greater(t, v, last, "values never go back")
		last = v
	}
}

func TestCounterDeletedUnderAGeneratorIsRefusedUntilRestored(t *testing.T) {
	for _, backstop := range []bool{false, true} {
		st := NewMemStore()
		st.NoMarkCheck = backstop // a store that does not check: the Counter refuses
		c := open(t, st, Config{Step: 10, MaxWait: 50e6})
		last := int64(0)
		for range 30 {
			v, err := c.Next()
			require.NoError(t, err)
			last = v
		}
		// The prefetch of 31..40 runs in the background once the padding is
		// reached: wait for it to land (a busy host runs it late).
		require.Eventually(t, func() bool { return c.mark.Load() == 40 }, 10*time.Second, time.Millisecond,
			"the end of the last segment taken: the prefetch's 40, not %d", c.mark.Load())
		st.Delete("orders") // systemd-tmpfiles, an operator's DELETE
		last, err := drawUntil(t, c, last)
		require.ErrorIs(t, err, errs.ErrWorker)
		require.Equal(t, int64(40), last, "the values in hand, never 1 again")
		what := "counter orders is missing"
		if backstop {
			what = "counter orders went back to " // made again at start by the store, refused by the Counter
		}
		for _, want := range []string{what, "values up to 40", "restore the counter to at least 40"} {
			require.Contains(t, err.Error(), want)
		}
		if !backstop {
			_, found, _ := st.Read(nil, "orders")
			require.False(t, found, "a refusal creates nothing")
		}
		st.Set("orders", 40) // the operator restores it: not sticky
		v, err := c.Next()
		require.NoError(t, err)
		require.Equal(t, int64(41), v)
	}
}

func TestCounterThatWentBackIsRefused(t *testing.T) {
	st := NewMemStore()
	c := open(t, st, Config{Step: 10, MaxWait: 50e6})
	v, err := c.Next()
	require.NoError(t, err)
	st.Set("orders", 5) // an older copy restored
	_, err = drawUntil(t, c, v)
	require.ErrorIs(t, err, errs.ErrWorker)
	require.Contains(t, err.Error(), "went back to 5")
	require.Contains(t, err.Error(), "restore the counter to at least 10")
	require.Equal(t, int64(5), st.Get("orders"), "moved nowhere")

	other := open(t, st, Config{Step: 10}) // knows no mark: the gap an operator must close
	v, err = other.Next()
	require.NoError(t, err)
	require.Equal(t, int64(6), v)
}

func TestGiveBackMovesTheMarkDown(t *testing.T) {
	st := NewMemStore()
	c, err := NewCounter(st, Config{Name: "orders", Start: 1, Step: 10, Padding: 50, MaxWait: 50e6})
	require.NoError(t, err)
	_, err = c.Next()
	require.NoError(t, err)
	require.Equal(t, int64(10), c.mark.Load())
	require.NoError(t, c.Close())
	require.Equal(t, int64(1), st.Get("orders"))
	require.Equal(t, int64(1), c.mark.Load(), "given back to 1")
}
