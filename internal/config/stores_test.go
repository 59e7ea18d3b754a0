package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/idgen/idgen/internal/errs"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewStoreURLs(t *testing.T) {
	for _, tc := range []struct {
		in, redacted, where string
		kind                StoreKind
	}{
		{"mysql://idgen:s3cret@127.0.0.1:3306/ids?tls=true", "mysql://idgen@127.0.0.1:3306/ids?tls=true", `MySQL 127.0.0.1:3306 database "ids"`, "mysql"},
		{"mariadb://idgen:s3cret@db/ids", "mariadb://idgen@db/ids", `MySQL db:3306 database "ids"`, "mysql"},
		{"redis://:s3cret@127.0.0.1:6380/2?wait=1", "redis://@127.0.0.1:6380/2?wait=1", "Redis 127.0.0.1:6380 db 2", "redis"},
		{"rediss://app:s3cret@cache", "rediss://app@cache", "Redis cache:6379 db 0", "redis"},
		{"etcd://root:s3cret@127.0.0.1:2379,127.0.0.1:2380/ids/a", "etcd://root@127.0.0.1:2379,127.0.0.1:2380/ids/a", "etcd cluster 127.0.0.1:2379,127.0.0.1:2380", "etcd"},
		{"etcds://e1,e2:23790", "etcds://e1:2379,e2:23790/idgen", "etcd cluster e1:2379,e2:23790", "etcd"},
	} {
		u, err := ParseStoreURL(tc.in)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.kind, u.Kind, tc.in)
		assert.Equal(t, tc.redacted, u.Redacted, tc.in)
		assert.Equal(t, tc.where, u.Where, tc.in)
		assert.NotContains(t, u.Redacted+u.Where, "s3cret")
	}
	u, err := ParseStoreURL("redis://h:1/3?wait=2")
	require.NoError(t, err)
	assert.Equal(t, 3, u.DB)
	assert.Equal(t, 2, u.Wait)
	u, err = ParseStoreURL("etcds://h:1")
	require.NoError(t, err)
	assert.True(t, u.TLS)
	assert.Equal(t, "/idgen", u.Root)
}

func TestNewStoreURLsRefused(t *testing.T) {
	for _, in := range []string{
		"mysql://s3cret@h:3306/", "mysql://u:s3cret@h:3306", "mysql://u:s3cret@h:99999/db",
		"mysql://u:s3cret@h1,h2/db", "mysql://u:s3cret@h/db?tls=maybe", "mysql://u:s3cret@h/db?timeout=1s",
		"redis://:s3cret@h/x", "redis://:s3cret@h/1?wait=-1", "redis://:s3cret@h?wait=100", "redis://:s3cret@h1,h2",
		"redis://:s3cret@", "etcd://u:s3cret@", "etcd://u:s3cret@h/", "etcd://u:s3cret@h//x", "etcd://u:s3cret@h?x=1",
		"etcd://:s3cret@h", "etcd://u:s3cret@h:0",
	} {
		_, err := ParseStoreURL(in)
		require.Error(t, err, in)
		assert.True(t, errors.Is(err, errs.ErrInvalid), in)
		assert.Contains(t, err.Error(), "worker", in)
		assert.NotContains(t, err.Error(), "s3cret", in)
	}
}

func TestNewStoresConfigString(t *testing.T) {
	c, err := Parse("worker=redis://:s3cret@127.0.0.1:6379")
	require.NoError(t, err)
	assert.Equal(t, SourceStore, c.WorkerSrc)
	assert.Equal(t, StoreKind("redis"), c.Store.Kind)
	assert.Equal(t, DefaultFleetTTL, c.LeaseTTL)
	assert.True(t, c.WorkerSrc.Fleet())
	assert.NotContains(t, c.String(), "s3cret")
	assert.Contains(t, c.String(), "redis://@127.0.0.1:6379")
	_, err = Parse("worker=redis://h:1 lease_table=t")
	require.Error(t, err)
	assert.Contains(t, err.Error(), "lease_table")
	_, err = Parse("worker=mysql://u:p@h/db lease_table=idgen_x")
	require.NoError(t, err)
}

func TestOrdinal(t *testing.T) {
	t.Setenv("IDGEN_ORDINAL", "7")
	c, err := Parse("worker=ordinal")
	require.NoError(t, err)
	assert.Equal(t, SourceOrdinal, c.WorkerSrc)
	assert.Equal(t, int64(7), c.Worker)
	assert.Contains(t, c.String(), "worker=ordinal")
	for _, bad := range []string{"x", "-1", "1024", ""} {
		t.Setenv("IDGEN_ORDINAL", bad)
		_, err = Parse("preset=snowflake worker=ordinal")
		require.Error(t, err, bad)
		assert.True(t, errors.Is(err, errs.ErrInvalid))
		assert.True(t, strings.Contains(err.Error(), "worker"), err.Error())
	}
}

func TestNameKey(t *testing.T) {
	for _, cfg := range []string{"worker=3 name=orders-api.v2", "preset=ulid name=x", "preset=rocketmq name=A_1"} {
		c, err := Parse(cfg)
		require.NoError(t, err, cfg)
		assert.Contains(t, c.String(), " name="+strings.Fields(cfg)[1][5:], cfg)
		again, err := Parse(c.String())
		require.NoError(t, err)
		assert.Equal(t, c.Name, again.Name)
	}
	for _, bad := range []string{"name=.x", "name='a b'", "name=" + strings.Repeat("a", 65), "name=é", "name=''"} {
		_, err := Parse("worker=3 " + bad)
		require.Error(t, err, bad)
		assert.Contains(t, err.Error(), "name", bad)
	}
}
