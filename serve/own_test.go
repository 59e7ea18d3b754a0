package serve_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/serve"
)

// answer is one HTTP answer, as a client reads it.
type answer struct {
	status int
	ctype  string
	body   string
}

func get(t *testing.T, url, token string) answer {
	t.Helper()
	req, err := http.NewRequest("GET", url, nil)
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return answer{resp.StatusCode, resp.Header.Get("Content-Type"), string(b)}
}

// start serves gens over real HTTP on loopback; the server and its
// generators close when the test ends.
func start(t *testing.T, tokens *serve.Tokens, gens ...string) string {
	t.Helper()
	var gs []serve.Gen
	for _, g := range gens {
		sg, err := serve.ParseGen(g)
		require.NoError(t, err)
		gs = append(gs, sg)
	}
	s, err := serve.New(gs, tokens)
	require.NoError(t, err)
	hs := httptest.NewServer(s)
	t.Cleanup(func() {
		hs.Close()
		require.NoError(t, s.Close())
	})
	return hs.URL
}

// fixed-worker generators: no lease directory is touched.
var testGens = []string{
	"orders=preset=snowflake worker=3 datacenter=1",
	"uuids=preset=uuidv7",
	"seq=preset=segment name=serve-test step=100 lease_dir=",
}

func TestOwnIDs(t *testing.T) {
	dir := t.TempDir()
	gens := append([]string(nil), testGens[:2]...)
	gens = append(gens, "seq=preset=segment name=serve-test step=100 lease_dir="+dir)
	url := start(t, nil, gens...)

	a := get(t, url+"/v1/ids/orders?n=1000", "")
	require.Equal(t, 200, a.status, a.body)
	require.Equal(t, "application/json", a.ctype)
	var got struct{ IDs []string }
	require.NoError(t, json.Unmarshal([]byte(a.body), &got))
	require.Len(t, got.IDs, 1000)
	last := int64(-1)
	for _, s := range got.IDs {
		id, err := strconv.ParseInt(s, 10, 64)
		require.NoError(t, err)
		require.Greater(t, id, last, "ids increase")
		last = id
	}
	require.True(t, strings.HasPrefix(a.body, `{"ids":["`) && strings.HasSuffix(a.body, "\"]}\n"), a.body[:20])

	a = get(t, url+"/v1/ids/uuids", "")
	require.Equal(t, 200, a.status)
	require.Regexp(t, `^\{"ids":\["[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"\]\}\n$`, a.body)

	a = get(t, url+"/v1/ids/seq?n=3", "")
	require.Equal(t, `{"ids":["1","2","3"]}`+"\n", a.body)

	for _, bad := range []string{"0", "-1", "100001", "x", "1.5"} {
		a = get(t, url+"/v1/ids/orders?n="+bad, "")
		require.Equal(t, 400, a.status, bad)
		require.Equal(t, "text/plain; charset=utf-8", a.ctype)
		require.Equal(t, 1, strings.Count(a.body, "\n"), "one line: %q", a.body)
		require.Contains(t, a.body, "n must be a whole number from 1 to 100000")
	}
	a = get(t, url+"/v1/ids/nosuch", "")
	require.Equal(t, answer{404, "text/plain; charset=utf-8", "no generator named \"nosuch\" is served\n"}, a)
	a = get(t, url+"/v2/whatever", "")
	require.Equal(t, 404, a.status)
}

func TestOwnDecodeMetricsHealth(t *testing.T) {
	url := start(t, nil, testGens[:2]...)
	a := get(t, url+"/v1/ids/orders", "")
	var got struct{ IDs []string }
	require.NoError(t, json.Unmarshal([]byte(a.body), &got))
	a = get(t, url+"/v1/decode/orders/"+got.IDs[0], "")
	require.Equal(t, 200, a.status, a.body)
	var d map[string]any
	require.NoError(t, json.Unmarshal([]byte(a.body), &d))
	require.Equal(t, got.IDs[0], d["id"])
	require.EqualValues(t, 3, d["worker"])
	require.EqualValues(t, 1, d["datacenter"])
	require.Contains(t, d, "unix_ms")

	a = get(t, url+"/v1/decode/orders/abc", "")
	require.Equal(t, 400, a.status)
	a = get(t, url+"/v1/decode/orders/-5", "")
	require.Equal(t, 400, a.status, "a negative id is refused: %s", a.body)

	a = get(t, url+"/v1/ids/uuids", "")
	require.NoError(t, json.Unmarshal([]byte(a.body), &got))
	a = get(t, url+"/v1/decode/uuids/"+got.IDs[0], "")
	require.Equal(t, 200, a.status, a.body)
	require.Contains(t, a.body, `"unix_ms":`)
	a = get(t, url+"/v1/decode/uuids/not-a-uuid", "")
	require.Equal(t, 400, a.status)

	a = get(t, url+"/metrics", "")
	require.Equal(t, 200, a.status)
	require.Equal(t, "text/plain; version=0.0.4; charset=utf-8", a.ctype)
	require.Contains(t, a.body, `idgen_ids_issued_total{`)

	a = get(t, url+"/healthz", "")
	require.Equal(t, 200, a.status, a.body)
	require.JSONEq(t, `{"status":"UP","generators":{
		"orders":{"lease":"none","issued":1,"fence_unix_ms":-1,"segment_left":-1},
		"uuids":{"lease":"none","issued":1,"fence_unix_ms":-1,"segment_left":-1}}}`, a.body)
}

// writeTokens writes a token file of mode perm.
func writeTokens(t *testing.T, text string, perm os.FileMode) string {
	p := filepath.Join(t.TempDir(), "tokens")
	require.NoError(t, os.WriteFile(p, []byte(text), perm))
	require.NoError(t, os.Chmod(p, perm))
	return p
}

func readTokens(t *testing.T, path string) *serve.Tokens {
	tok, err := serve.ReadTokens(path)
	require.NoError(t, err)
	return tok
}

// A token file is refused unless it is this user's regular file that no
// one else may read or write, and its lines are well formed; no message
// holds a token.
func TestTokenFileChecks(t *testing.T) {
	const tok = "secret-token-0123456789"
	for perm, ok := range map[os.FileMode]bool{0o600: true, 0o400: true, 0o640: false, 0o604: false, 0o666: false} {
		_, err := serve.ReadTokens(writeTokens(t, tok+" *\n", perm))
		if ok {
			require.NoError(t, err, "%o", perm)
		} else {
			require.ErrorContains(t, err, "chmod 600", "%o", perm)
		}
	}
	good := writeTokens(t, tok+" *\n", 0o600)
	link := filepath.Join(t.TempDir(), "link")
	require.NoError(t, os.Symlink(good, link))
	_, err := serve.ReadTokens(link)
	require.ErrorContains(t, err, "symlink is not followed")
	_, err = serve.ReadTokens(t.TempDir())
	require.Error(t, err)
	for _, bad := range []string{"short *\n", tok + "\n", tok + " a b\n", tok + " a,,b\n", "# nothing\n"} {
		_, err := serve.ReadTokens(writeTokens(t, bad, 0o600))
		require.Error(t, err, "%q", bad)
		require.NotContains(t, err.Error(), tok)
	}
}

// /healthz is 503 DOWN once a generator's lease is lost: its lease file
// removed under it (the holder stops at its next renewal), the others UP.
func TestHealthzDownWhenALeaseIsLost(t *testing.T) {
	dir := t.TempDir()
	url := start(t, nil, "snow=preset=snowflake worker=lease lease_ttl=1s max_outage=1s lease_dir="+dir, "uuids=preset=uuidv7")
	a := get(t, url+"/healthz", "")
	require.Equal(t, 200, a.status, a.body)
	require.Contains(t, a.body, `"snow":{"lease":"held"`)
	files, err := filepath.Glob(filepath.Join(dir, "*.lease"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		require.NoError(t, os.Remove(f))
	}
	// The Keeper renews every lease_ttl/3 and stops at once on a removed
	// record; the bound only keeps a broken build from hanging.
	deadline := time.Now().Add(60 * time.Second)
	for a = get(t, url+"/healthz", ""); a.status == 200 && time.Now().Before(deadline); a = get(t, url+"/healthz", "") {
		time.Sleep(20 * time.Millisecond)
	}
	require.Equal(t, 503, a.status, a.body)
	require.Equal(t, "application/json", a.ctype)
	require.Contains(t, a.body, `"status":"DOWN"`)
	require.Contains(t, a.body, `"snow":{"lease":"lost"`)
	require.Contains(t, a.body, `"uuids":{"lease":"none"`)
	a = get(t, url+"/v1/ids/snow", "")
	require.Equal(t, 503, a.status, "a lost lease gives no ids: %s", a.body)
	require.Equal(t, 1, strings.Count(a.body, "\n"))
}

// --gen-file: NAME=CONFIG lines from a private file, comments and blank
// lines skipped; the checks of a token file apply.
func TestReadGens(t *testing.T) {
	p := writeTokens(t, "# the service's generators\n\norders=preset=segment name=orders\n  uuids=preset=uuidv7  \n", 0o600)
	gens, err := serve.ReadGens(p)
	require.NoError(t, err)
	require.Equal(t, []serve.Gen{{Name: "orders", Config: "preset=segment name=orders"}, {Name: "uuids", Config: "preset=uuidv7"}}, gens)
	_, err = serve.ReadGens(writeTokens(t, "orders=preset=uuidv7\n", 0o640))
	require.ErrorContains(t, err, "chmod 600")
	_, err = serve.ReadGens(writeTokens(t, "orders=x\nno equals sign here\n", 0o600))
	require.ErrorContains(t, err, "line 2")
	require.NotContains(t, err.Error(), "no equals sign here", "the line's text may hold a password")
}
