package config

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// Every whole number of a value may be written as 0x hex (DESIGN:
// "Whole numbers may be written in decimal or as 0x hex"): seq_start's 0
// and leased='s pair too, as worker= and random:N take it.
func TestEveryWholeNumberTakesHex(t *testing.T) {
	for _, pair := range [][2]string{
		{"seq_start=0x0", "seq_start=0"},
		{"seq_start=random:0x10", "seq_start=random:16"},
		{"worker=lease leased=0x0/0x1f", "worker=lease leased=0/31"},
		{"worker=0x1f datacenter=0x1", "worker=31 datacenter=1"},
	} {
		hex, err := Parse("preset=snowflake " + pair[0])
		require.NoError(t, err, pair[0])
		dec, err := Parse("preset=snowflake " + pair[1])
		require.NoError(t, err, pair[1])
		require.Equal(t, dec.String(), hex.String(), pair[0])
	}
	for _, bad := range []string{"seq_start=0x", "seq_start=0x1", "seq_start=-0x0", "worker=lease leased=0x-1/0", "worker=lease leased=0x20/0"} {
		_, err := Parse("preset=snowflake " + bad)
		require.Error(t, err, bad)
	}
}
