package pgstore

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/lease/storeurl"
)

// format= and table= name a peer's table; they stay in the configuration
// string (Redacted) but are not sent to the server (Raw), which would take
// them for settings; a lease pool refuses them.
func TestPeerFormatParams(t *testing.T) {
	u, err := ParseURL("postgres://u:pw-secret@127.0.0.1/db?sslmode=disable&format=tinyid&table=ids")
	require.NoError(t, err)
	require.Equal(t, storeurl.FormatTinyid, u.Format)
	require.Equal(t, "ids", u.Table)
	require.NotContains(t, u.Raw, "format=")
	require.NotContains(t, u.Raw, "table=")
	require.Contains(t, u.Raw, "sslmode=disable")
	require.Contains(t, u.Redacted, "format=tinyid")
	require.Contains(t, u.Redacted, "table=ids")
	require.NotContains(t, u.Redacted, "pw-secret")
	back, err := ParseURL(u.Redacted)
	require.NoError(t, err, "the configuration string opens the same table")
	require.Equal(t, [2]string{u.Format, u.Table}, [2]string{back.Format, back.Table})

	u, err = ParseURL("postgres://u@127.0.0.1/db?format=leaf")
	require.NoError(t, err)
	require.Equal(t, "leaf_alloc", u.Table)
	_, err = Open(u, "", 0)
	require.ErrorIs(t, err, errs.ErrInvalid)
	for _, raw := range []string{"postgres://u@h/db?format=x", "postgres://u@h/db?table=t", "postgres://u@h/db?format=leaf&table=a-b"} {
		_, err := ParseURL(raw)
		require.ErrorIs(t, err, errs.ErrInvalid, raw)
	}
}
