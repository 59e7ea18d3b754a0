package gen

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

// A panic in baidu-cached's filler goroutine must not crash the host: the
// callers that find the ring empty get IDGEN_EINTERNAL naming the bug,
// and the filler goes on once the fault is gone.
func TestAPanicInTheFillerIsReportedAndTheFillerGoesOn(t *testing.T) {
	fault := func() { panic("a bug in a fill") }
	fillFault.Store(&fault)
	defer fillFault.Store(nil)
	g := open(t, baidu29+" worker=1 boost=0", nil)
	_, err := g.Next()
	require.Error(t, err)
	require.True(t, errors.Is(err, errs.ErrInternal), "%v", err)
	require.Contains(t, err.Error(), "the baidu-cached filler: internal error in idgen")
	require.Contains(t, err.Error(), "a bug in a fill")
	fillFault.Store(nil)
	a, err := g.Next()
	require.NoError(t, err, "the filler goes on")
	b, err := g.Next()
	require.NoError(t, err)
	require.Greater(t, b, a)
}
