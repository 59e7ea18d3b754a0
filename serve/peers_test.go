package serve_test

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Leaf's, tinyid's and CosId's URLs answer in their shapes.
func TestPeerShapes(t *testing.T) {
	dir := t.TempDir()
	url := start(t, nil, "orders=preset=snowflake worker=3", "uuids=preset=uuidv7",
		"seq=preset=segment name=serve-peers step=100 lease_dir="+dir)

	a := get(t, url+"/api/segment/get/seq", "")
	require.Equal(t, answer{200, "text/plain;charset=UTF-8", "1"}, a, "Leaf: the id, no newline")
	a = get(t, url+"/api/snowflake/get/orders", "")
	require.Equal(t, 200, a.status)
	require.Equal(t, "text/plain;charset=UTF-8", a.ctype)
	require.Regexp(t, `^[1-9][0-9]{15,18}$`, a.body)
	a = get(t, url+"/api/segment/get/nosuch", "")
	require.Equal(t, 404, a.status)

	a = get(t, url+"/tinyid/id/nextIdSimple?bizType=seq", "")
	require.Equal(t, answer{200, "text/plain;charset=UTF-8", "2"}, a)
	a = get(t, url+"/tinyid/id/nextIdSimple?bizType=seq&batchSize=3", "")
	require.Equal(t, answer{200, "text/plain;charset=UTF-8", "3,4,5"}, a)
	a = get(t, url+"/tinyid/id/nextId?bizType=seq&batchSize=2&token=ignored-without-a-token-file", "")
	require.Equal(t, answer{200, "application/json;charset=UTF-8", `{"data":[6,7],"code":200,"message":""}`}, a)
	a = get(t, url+"/tinyid/id/nextIdSimple?bizType=seq&batchSize=200000", "")
	require.Equal(t, 100000, strings.Count(a.body, ",")+1, "tinyid's cap: batchSize above 100000 gives 100000")
	for _, q := range []string{"bizType=seq&batchSize=0", "bizType=seq&batchSize=x", "batchSize=2"} {
		a = get(t, url+"/tinyid/id/nextId?"+q, "")
		require.Equal(t, 400, a.status, q)
		require.Equal(t, 1, strings.Count(a.body, "\n"), q)
	}
	a = get(t, url+"/tinyid/id/nextId?bizType=uuids", "")
	require.Equal(t, 400, a.status, "tinyid's data are numbers")
	a = get(t, url+"/tinyid/id/nextIdSimple?bizType=uuids", "")
	require.Equal(t, 200, a.status)
	require.Len(t, a.body, 36)

	a = get(t, url+"/ids/orders", "")
	require.Equal(t, 200, a.status)
	require.Equal(t, "application/json", a.ctype)
	var n json.Number
	require.NoError(t, json.Unmarshal([]byte(a.body), &n), "a bare JSON number")
	_, err := strconv.ParseInt(a.body, 10, 64)
	require.NoError(t, err)
	a = get(t, url+"/ids/as-string/uuids", "")
	require.Equal(t, 200, a.status)
	require.Equal(t, "text/plain;charset=UTF-8", a.ctype)
	require.True(t, regexp.MustCompile(`^[0-9a-f-]{36}$`).MatchString(a.body), a.body)
	a = get(t, url+"/ids/uuids", "")
	require.Equal(t, 400, a.status, "a text id is no JSON number")
	a = get(t, url+"/ids/nosuch", "")
	require.Equal(t, 404, a.status)
}

// Tokens: a missing or unknown one is 401 (saying nothing of the names),
// one that does not cover the name 403, tinyid's as token= with tinyid's
// bodies; /healthz and /metrics need none.
func TestTokens(t *testing.T) {
	const a1, all = "alpha-token-0123456789", "every-name-token-0123456789"
	tok := readTokens(t, writeTokens(t, "# tokens\n"+a1+" orders,seq\n\n"+all+" *  # the operator\n", 0o600))
	dir := t.TempDir()
	url := start(t, tok, "orders=preset=snowflake worker=3", "uuids=preset=uuidv7", "seq=preset=segment name=serve-tokens lease_dir="+dir)

	require.Equal(t, 401, get(t, url+"/v1/ids/orders", "").status)
	require.Equal(t, 401, get(t, url+"/v1/ids/orders", "wrong-token-0123456789").status)
	require.Equal(t, 401, get(t, url+"/v1/ids/nosuch", "").status, "no name is told to a caller without a token")
	require.Equal(t, 200, get(t, url+"/v1/ids/orders", a1).status)
	require.Equal(t, 403, get(t, url+"/v1/ids/uuids", a1).status)
	require.Equal(t, 403, get(t, url+"/v1/ids/nosuch", a1).status)
	require.Equal(t, 200, get(t, url+"/v1/ids/uuids", all).status)
	require.Equal(t, 404, get(t, url+"/v1/ids/nosuch", all).status)
	require.Equal(t, 200, get(t, url+"/api/segment/get/seq", a1).status)
	require.Equal(t, 200, get(t, url+"/ids/orders", a1).status)
	require.Equal(t, 200, get(t, url+"/healthz", "").status)
	require.Equal(t, 200, get(t, url+"/metrics", "").status)

	x := get(t, url+"/tinyid/id/nextId?bizType=seq&token="+a1, "")
	require.Equal(t, answer{200, "application/json;charset=UTF-8", `{"data":[2],"code":200,"message":""}`}, x)
	x = get(t, url+"/tinyid/id/nextId?bizType=uuids&token="+a1, "")
	require.Equal(t, answer{403, "application/json;charset=UTF-8", `{"data":null,"code":5,"message":"token is error"}`}, x)
	x = get(t, url+"/tinyid/id/nextId?bizType=seq", a1)
	require.Equal(t, 401, x.status, "tinyid's token is its parameter, not a header")
	x = get(t, url+"/tinyid/id/nextIdSimple?bizType=seq&token=nope-nope-nope-nope", "")
	require.Equal(t, answer{401, "text/plain;charset=UTF-8", ""}, x)
}
