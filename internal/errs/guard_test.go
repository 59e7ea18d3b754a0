package errs

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func panicky() { panic("boom") }

func TestGuardTurnsAPanicIntoAnInternalErrorNamingItsSite(t *testing.T) {
	var got error
	Guard("the filler", panicky, func(err error) { got = err })
	require.Error(t, got)
	require.True(t, errors.Is(got, ErrInternal))
	require.Contains(t, got.Error(), "the filler: internal error in idgen")
	require.Contains(t, got.Error(), "boom")
	require.Contains(t, got.Error(), "errs.panicky (guard_test.go:")
}

func TestGuardWithoutAPanicReportsNothing(t *testing.T) {
	ran := false
	Guard("x", func() { ran = true }, func(error) { t.Fatal("failed called without a panic") })
	require.True(t, ran)
}
