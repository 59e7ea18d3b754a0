package config

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/errs"
)

// README's and docs/ABI.md's key tables list exactly the keys of the
// table.
func TestDocumentedKeyTablesAreTheTable(t *testing.T) {
	keys := Keys()
	sort.Strings(keys)
	for file, header := range map[string]string{
		"../../README.md":   "| key | values | default |",
		"../../docs/ABI.md": "| key | values | default | applies to |",
	} {
		require.Equal(t, keys, documentedKeys(t, file, header), "%s's key table and internal/config's table of keys list the same keys", file)
	}
}

// documentedKeys are the `keys` of the first column of the table under
// header in file.
func documentedKeys(t *testing.T, file, header string) []string {
	b, err := os.ReadFile(file)
	require.NoError(t, err)
	text := string(b)
	start := strings.Index(text, header)
	require.GreaterOrEqual(t, start, 0, "%s has a key table", file)
	cell := regexp.MustCompile("`([a-z_]+)`")
	seen := map[string]bool{}
	var doc []string
	for _, line := range strings.Split(text[start:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		for _, m := range cell.FindAllStringSubmatch(strings.Split(line, "|")[1], -1) {
			if !seen[m[1]] {
				seen[m[1]] = true
				doc = append(doc, m[1])
			}
		}
	}
	sort.Strings(doc)
	return doc
}

// leased= and switched= are accepted (a pair of the layout) and ignored:
// a Spec holds no pair. A running generator shows its pairs, last, in a
// string that parses again.
func TestHeldPairsAcceptedAndIgnored(t *testing.T) {
	for cfg, held := range map[string]Held{
		"worker=lease leased=0/5":                    {Leased: "0/5"},
		"worker=lease switched=31/31 leased=0/0":     {Leased: "0/0", Switched: "31/31"},
		"preset=zxid switched=0/0":                   {Leased: "0/0", Switched: "0/0"},
		"datacenter=3 worker=lease leased=3/31":      {Leased: "3/31"},
		"worker=zk://u:pw@127.0.0.1:2181 leased=1/2": {Leased: "1/2"},
	} {
		c, err := Parse(cfg)
		require.NoError(t, err, cfg)
		s := c.String()
		require.NotContains(t, s, "leased=", cfg)
		require.NotContains(t, s, "switched=", cfg)
		shown := c.StringHeld(held)
		want := s + " leased=" + held.Leased
		if held.Switched != "" {
			want += " switched=" + held.Switched
		}
		require.Equal(t, want, shown, cfg)
		again, err := Parse(shown)
		require.NoError(t, err, shown)
		require.Equal(t, s, again.String())
	}
	c, err := Parse("worker=3")
	require.NoError(t, err)
	require.Equal(t, c.String(), c.StringHeld(Held{Leased: "0/3"}), "no lease, no pair")
}

// A segment's keys configure nothing elsewhere: refused by name.
func TestSegmentKeysOnlyForSegment(t *testing.T) {
	for _, cfg := range []string{"store=zk://127.0.0.1:2181", "preset=leaf worker=3 step=10", "preset=zxid start=5"} {
		_, err := Parse(cfg)
		require.ErrorIs(t, err, errs.ErrInvalid, cfg)
		require.Contains(t, err.Error(), "applies only to preset segment", cfg)
	}
}

// Unleased keeps the layout, unit and epoch and takes no lease.
func TestUnleased(t *testing.T) {
	for cfg, want := range map[string]string{
		"": "preset=snowflake layout=time:41,datacenter:5,worker:5,seq:12 unit=1ms epoch=1288834974657 worker=0 clock=mono on_exhausted=wait seq_start=0",
		"preset=hutool worker=pid datacenter=mac":      "preset=hutool layout=time:41,datacenter:5,worker:5,seq:12 unit=1ms epoch=1288834974657 datacenter=0 worker=0 clock=mono on_exhausted=wait seq_start=0",
		"worker=zk://u:pw@127.0.0.1:2181 datacenter=2": "preset=snowflake layout=time:41,datacenter:5,worker:5,seq:12 unit=1ms epoch=1288834974657 datacenter=2 worker=0 clock=mono on_exhausted=wait seq_start=0",
		"worker=7 datacenter=1 unit=10ms":              "preset=snowflake layout=time:41,datacenter:5,worker:5,seq:12 unit=10ms epoch=1288834974657 datacenter=1 worker=7 clock=mono on_exhausted=wait seq_start=0",
	} {
		c, err := Parse(cfg)
		require.NoError(t, err, cfg)
		before := c.String()
		u := c.Unleased()
		require.False(t, u.WorkerSrc.Leasing(), cfg)
		require.Nil(t, u.Store, cfg)
		require.Equal(t, want, u.String(), cfg)
		require.Equal(t, before, c.String(), "the Spec itself is unchanged")
	}
}
