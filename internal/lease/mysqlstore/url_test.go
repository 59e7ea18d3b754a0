package mysqlstore

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// format= names a peer's table (its usual name, or table=); anything else
// is refused naming worker, without the password.
func TestPeerFormatParams(t *testing.T) {
	const base = "mysql://u:pw-secret@127.0.0.1:3306/db"
	for raw, want := range map[string][2]string{
		base:                                 {"", ""},
		base + "?format=leaf":                {storeurl.FormatLeaf, "leaf_alloc"},
		base + "?format=tinyid":              {storeurl.FormatTinyid, "tiny_id_info"},
		base + "?format=leaf&table=my_alloc": {storeurl.FormatLeaf, "my_alloc"},
		base + "?tls=false&format=tinyid&table=T1": {storeurl.FormatTinyid, "T1"},
	} {
		u, err := ParseURL(raw)
		require.NoError(t, err, raw)
		require.Equal(t, want[0], u.Format, raw)
		require.Equal(t, want[1], u.Table, raw)
		require.NotContains(t, u.Redacted, "pw-secret")
	}
	for _, raw := range []string{base + "?format=cosid", base + "?table=x", base + "?format=leaf&table=a;drop", base + "?format=leaf&table=1x", base + "?format=leaf&table=" + string(make([]byte, 65))} {
		_, err := ParseURL(raw)
		require.ErrorIs(t, err, errs.ErrInvalid, raw)
		require.NotContains(t, err.Error(), "pw-secret")
	}
	u, err := ParseURL(base + "?format=leaf")
	require.NoError(t, err)
	_, err = Open(u, "", 0)
	require.ErrorIs(t, err, errs.ErrInvalid, "a peer's counter table is no lease pool")
	require.ErrorContains(t, err, "applies to store= of preset=segment")
}
