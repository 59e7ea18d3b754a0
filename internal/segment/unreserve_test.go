package segment

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Unreserve takes the tail of the last Reserve back while nothing above it
// was drawn: the next values are the tail's, and Close gives back from
// there. A tail with a value drawn above it stays consumed.
func TestUnreserve(t *testing.T) {
	st := NewMemStore()
	c, err := NewCounter(st, Config{Name: "u", Start: 1, Step: 1000, Padding: 20, MaxWait: time.Second})
	require.NoError(t, err)
	first, got, err := c.Reserve(1024)
	require.NoError(t, err)
	require.Equal(t, int64(1), first)
	require.Equal(t, int64(1000), got, "a reservation stays in one segment")
	require.True(t, c.Unreserve(11, 990), "the tail of the last reservation goes back")
	require.Equal(t, int64(10), c.Issued())
	v, err := c.Next()
	require.NoError(t, err)
	require.Equal(t, int64(11), v, "the next value is the tail's first")

	first, got, err = c.Reserve(5)
	require.NoError(t, err)
	_, err = c.Next() // a value drawn above the reservation
	require.NoError(t, err)
	require.False(t, c.Unreserve(first+2, got-2), "a value above the tail was drawn: it stays consumed")
	require.False(t, c.Unreserve(-5, 3), "not in the current segment")
	require.True(t, c.Unreserve(first, 0), "an empty tail is nothing to do")
	require.NoError(t, c.Close())
	require.Equal(t, int64(v+6), st.Get("u"), "close gives back above the last value drawn")
}
