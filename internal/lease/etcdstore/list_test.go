package etcdstore

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/lease"
)

// A listing reads a pool's keys: records and locks by pair, the holder
// from a lock's value, other keys left alone, a record that is not one
// named; the range covers exactly the keys under the prefix.
func TestListingReadsRecordsAndLocks(t *testing.T) {
	byPair := map[lease.Pair]*lease.Entry{}
	require.NoError(t, addKey(byPair, "0.1", kv{Key: []byte("/idgen/p/0.1"), Value: lease.FormatText(lease.Record{IssuedUpTo: 7})}))
	require.NoError(t, addKey(byPair, "0.1.lock", kv{Value: lockValue(42)}))
	require.NoError(t, addKey(byPair, "2.3.lock", kv{Value: []byte("something else")}))
	require.NoError(t, addKey(byPair, ".clock", kv{Value: []byte("x")}))
	require.ErrorContains(t, addKey(byPair, "0.2", kv{Key: []byte("/idgen/p/0.2"), Value: []byte("junk")}), "not an idgen record")
	e := byPair[lease.Pair{DC: 0, Worker: 1}]
	require.True(t, e.Held)
	require.Equal(t, int64(7), e.Record.IssuedUpTo)
	require.Regexp(t, `^.+:\d+$`, e.Holder)
	require.True(t, byPair[lease.Pair{DC: 2, Worker: 3}].Held)
	require.Empty(t, byPair[lease.Pair{DC: 2, Worker: 3}].Holder)
	require.Len(t, byPair, 3) // 0.2 was noted before its record failed

	require.Equal(t, "/idgen/p0", string(prefixEnd("/idgen/p/")))
	require.Equal(t, "b", string(prefixEnd("a\xff")))
}
