package idgen_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen"
)

// Explain draws the layout and its limits, describes a text preset and a
// counter without a store; ExplainSVG draws only bit layouts; a bad
// configuration is ErrInvalid naming the key, as Open says it.
func TestExplain(t *testing.T) {
	text, err := idgen.Explain("preset=snowflake worker=lease")
	require.NoError(t, err)
	require.True(t, strings.HasPrefix(text, "preset=snowflake layout=time:41,datacenter:5,worker:5,seq:12 unit=1ms epoch=2010-11-04T01:42:54.657Z\n"), text)
	require.Contains(t, text, "workers: 1024 (32 datacenters x 32 workers)\n")
	text, err = idgen.Explain("preset=segment name=orders store=zk://127.0.0.1:1")
	require.NoError(t, err, "no store contacted")
	require.Contains(t, text, `counter "orders"`)
	require.NotContains(t, text, ", table ", "ZooKeeper keeps no table")
	for _, store := range []string{"postgres://u:secret@127.0.0.1:1/db", "mysql://u:secret@127.0.0.1:1/db"} {
		text, err = idgen.Explain("preset=segment name=orders store=" + store)
		require.NoError(t, err)
		require.Regexp(t, `kept in +\S+.*, table \w+\n`, text, "a SQL store names its counters' table")
		require.NotContains(t, text, "secret")
	}
	text, err = idgen.Explain("preset=segment name=orders store=mysql://u:secret@127.0.0.1:1/db?format=leaf")
	require.NoError(t, err)
	require.Contains(t, text, ", table leaf_alloc (leaf's, taken with its SQL)")
	text, err = idgen.Explain("preset=ulid")
	require.NoError(t, err)
	require.Contains(t, text, "26 Crockford base32 characters")
	svg, err := idgen.ExplainSVG("preset=snowflake")
	require.NoError(t, err)
	require.Equal(t, 5, strings.Count(svg, "<rect"))
	for _, cfg := range []string{"preset=ulid", "preset=segment name=x"} {
		_, err = idgen.ExplainSVG(cfg)
		require.ErrorIs(t, err, idgen.ErrInvalid)
		require.Contains(t, err.Error(), "no bit layout")
	}
	_, err = idgen.Explain("bogus=1")
	require.ErrorIs(t, err, idgen.ErrInvalid)
	require.Contains(t, err.Error(), "bogus: unknown key")
	_, err = idgen.Explain("epoch=4102444800000 worker=1")
	require.ErrorIs(t, err, idgen.ErrInvalid)
	require.Contains(t, err.Error(), "epoch: ")

	rows := idgen.KeyTable()
	require.Equal(t, "preset\tsnowflake,hutool,mybatis-plus,leaf,baidu,baidu-cached,sonyflake,sonyflake-v2,js53,zk-session,zxid,rocketmq,rocketmq-v1,uuidv7,ulid,segment\tsnowflake", rows[0])
	require.Contains(t, rows, "step\tsegment\t1000")
}

// OpenDecoder takes no lease and contacts no store (a store URL on a
// closed port opens), refuses to issue naming lease=off, and decodes as
// Open's generator does; a text preset opens as it is. AppendID writes an
// id in the text= form without issuing one.
func TestOpenDecoderAndAppendID(t *testing.T) {
	d, err := idgen.OpenDecoder("preset=snowflake worker=zk://127.0.0.1:1 text=base62")
	require.NoError(t, err)
	defer d.Close()
	_, err = d.Next()
	require.ErrorIs(t, err, idgen.ErrInvalid)
	require.Contains(t, err.Error(), "lease=off")
	require.Equal(t, int64(0), d.Info().Leased)
	p, err := d.Decode(910499571847892992)
	require.NoError(t, err)
	require.Equal(t, int64(25), p.Worker)
	b, err := d.AppendID([]byte("id "), 910499571847892992)
	require.NoError(t, err)
	require.Equal(t, "id 15G63YLn9Ae", string(b))
	tp, err := d.DecodeText("15G63YLn9Ae")
	require.NoError(t, err)
	require.Equal(t, int64(910499571847892992), tp.ID)

	u, err := idgen.OpenDecoder("preset=uuidv7")
	require.NoError(t, err)
	defer u.Close()
	require.Equal(t, int64(idgen.KindUUIDv7), u.Info().Kind)
	_, err = u.AppendID(nil, 1)
	require.ErrorIs(t, err, idgen.ErrInvalid)

	g, err := idgen.Open("worker=3")
	require.NoError(t, err)
	id, err := g.Next()
	require.NoError(t, err)
	b, err = g.AppendID(nil, id)
	require.NoError(t, err)
	require.Equal(t, strconv.FormatInt(id, 10), string(b), "text=dec: the number")
	require.NoError(t, g.Close())
	_, err = g.AppendID(nil, id)
	require.ErrorIs(t, err, idgen.ErrClosed)
}
