package main

import (
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// closedPort is a local port nothing listens on.
func closedPort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	return strconv.Itoa(port)
}

// TestNoPasswordInOutput: every store scheme, the password in the URL's
// user info and in its parameters, in worker= and store=, pointed at a
// closed port: no word of the CLI (next, leases, explain, decode) shows
// the password, on stdout or in the error.
func TestNoPasswordInOutput(t *testing.T) {
	port := closedPort(t)
	urls := []string{
		"zk://app:Pw-Zk1@127.0.0.1:PORT/idgen", "zk://127.0.0.1:PORT/idgen?password=Pw-Zk2",
		"postgres://app:Pw-Pg1@127.0.0.1:PORT/ids", "postgres://app@127.0.0.1:PORT/ids?password=Pw-Pg2",
		"postgresql://app@127.0.0.1:PORT/ids?sslpassword=Pw-Pg3&password=Pw-Pg4",
		"mysql://app:Pw-My1@127.0.0.1:PORT/ids", "mariadb://app@127.0.0.1:PORT/ids?password=Pw-My2",
		"redis://:Pw-Rd1@127.0.0.1:PORT/0", "rediss://app@127.0.0.1:PORT/0?password=Pw-Rd2",
		"etcd://root:Pw-Et1@127.0.0.1:PORT/idgen", "etcds://127.0.0.1:PORT/idgen?password=Pw-Et2",
	}
	for _, u := range urls {
		u = strings.ReplaceAll(u, "PORT", port)
		t.Run(strings.SplitN(u, ":", 2)[0], func(t *testing.T) {
			t.Parallel()
			noPasswordShown(t, u)
		})
	}
}

// noPasswordShown runs every word on configurations with store URL u.
func noPasswordShown(t *testing.T, u string) {
	for _, cfg := range []string{
		"preset=snowflake lease_ttl=1s max_outage=1s worker='" + u + "'",
		"preset=segment name=orders max_wait=1s store='" + u + "'",
		"preset=segment name=orders store='" + u + "' lease_dir=/tmp",
		"preset=snowflake datacenter='" + u + "'",
	} {
		for _, word := range [][]string{{"next"}, {"leases"}, {"explain"}, {"decode", "1"}} {
			t.Run(word[0], func(t *testing.T) {
				t.Parallel()
				code, out, errOut := cli(t, "", append(word, "-c", cfg)...)
				assert.NotContains(t, out+errOut, "Pw-", "%v %s", word, cfg)
				opens := word[0] == "next" || word[0] == "leases"
				refused := !strings.Contains(cfg, "max_wait") && !strings.Contains(cfg, "lease_ttl")
				if opens || refused {
					assert.Equal(t, 1, code, "%v %s: %s", word, cfg, out+errOut)
				}
			})
		}
	}
}
