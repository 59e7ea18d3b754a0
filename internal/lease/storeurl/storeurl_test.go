package storeurl

import (
	"errors"
	"testing"

	"github.com/idgen/idgen/internal/errs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestHostsGiveTheDefaultPort(t *testing.T) {
	hs, err := Hosts("x", "a,b:2,[::1],[::1]:3", "9")
	require.NoError(t, err)
	assert.Equal(t, []string{"a:9", "b:2", "[::1]:9", "[::1]:3"}, hs)
	for _, bad := range []string{"", "a:0", "a:70000", ":1"} {
		_, err := Hosts("x", bad, "9")
		require.Error(t, err, bad)
		assert.True(t, errors.Is(err, errs.ErrInvalid), bad)
	}
}

func TestRedactionLeavesOutPasswords(t *testing.T) {
	u, _, err := ParseStd("k", "x://u:pw-one@h/db?password=pw-two&b=1", "9")
	require.NoError(t, err)
	u.Secrets = []string{"pw-two"}
	assert.Equal(t, "x://u@h/db?b=1", RedactStd(u, "password"))
	assert.Equal(t, "a *** b ***", u.Scrub("a pw-one b pw-two"))
	u = &StoreURL{Raw: "y://u:p@h:1/r", User: "u", Servers: []string{"h:1"}, Root: "/r"}
	assert.Equal(t, "y://u@h:1/r", RedactHosts(u))
}
