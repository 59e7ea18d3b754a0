package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// uuidv7 and ulid take name= (every generator's metrics label): the
// refusal of another key says so rather than "no key but preset".
func TestTextPresetsTakeNameAndSaySo(t *testing.T) {
	for _, p := range []string{"uuidv7", "ulid"} {
		_, err := Parse("preset=" + p + " name=orders")
		require.NoError(t, err, p)
		_, err = Parse("preset=" + p + " worker=0")
		require.ErrorContains(t, err, "no key but preset and name", p)
	}
}
