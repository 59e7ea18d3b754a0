package config

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// secretURLs are store URLs of every scheme with the password in each
// place a URL can carry one: its user info and its parameters.
var secretURLs = []string{
	"zk://app:Pw-Zk1@127.0.0.1:2181/idgen",
	"zk://127.0.0.1:2181/idgen?password=Pw-Zk2",
	"postgres://app:Pw-Pg1@127.0.0.1:5432/ids",
	"postgres://app@127.0.0.1:5432/ids?password=Pw-Pg2",
	"postgresql://app@127.0.0.1/ids?sslmode=disable&password=Pw-Pg3&sslpassword=Pw-Pg4",
	"mysql://app:Pw-My1@127.0.0.1:3306/ids",
	"mysql://app@127.0.0.1:3306/ids?password=Pw-My2",
	"mariadb://app:Pw-My3@127.0.0.1/ids?tls=false",
	"redis://:Pw-Rd1@127.0.0.1:6379/0",
	"rediss://app@127.0.0.1:6379/0?password=Pw-Rd2",
	"etcd://root:Pw-Et1@127.0.0.1:2379/idgen",
	"etcds://127.0.0.1:2379/idgen?password=Pw-Et2",
}

// TestNoPasswordInConfigOrErrors: for every store URL and both places a
// password sits, in worker= and in store=, the password appears neither
// in the configuration string nor in an error; where the URL is accepted
// the string still opens (it parses back to itself).
func TestNoPasswordInConfigOrErrors(t *testing.T) {
	for _, u := range secretURLs {
		for _, cfg := range []string{
			"preset=snowflake worker=" + Quote(u),
			"preset=segment name=orders store=" + Quote(u),
			"preset=snowflake datacenter=" + Quote(u),
			"preset=segment name=orders store=" + Quote(u) + " lease_dir=/tmp",
			"preset=snowflake worker=" + Quote(u) + " bogus_key=1",
			"preset=snowflake worker=" + Quote(u) + " worker=1",
			"preset=snowflake store=" + Quote(u),
			"preset=uuidv7 worker=" + Quote(u),
			"preset=segment name=orders worker=" + Quote(u),
		} {
			c, err := Parse(cfg)
			if err != nil {
				assert.NotContains(t, err.Error(), "Pw-", cfg)
				continue
			}
			s := c.String()
			assert.NotContains(t, s, "Pw-", cfg)
			back, err := Parse(s)
			require.NoError(t, err, s)
			assert.Equal(t, s, back.String(), "the string opens the same generator")
		}
	}
}

// A driver's message that echoes a password hides it, wherever the URL
// kept it.
func TestStoreURLScrub(t *testing.T) {
	u, err := ParseStoreURL("postgres://app:Pw-A@h/db?password=Pw-B&sslpassword=Pw-C")
	require.NoError(t, err)
	assert.Equal(t, "x *** y *** z ***", u.Scrub("x Pw-A y Pw-B z Pw-C"))
	assert.Equal(t, "postgres://app@h/db", u.Redacted)
}
