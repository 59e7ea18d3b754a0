//go:build abi

// Package abitest calls the built libidgen.so from Go through purego, as a
// host that dlopens the library would. Run with: make test-purego.
package abitest

import (
	"os"
	"sync"
	"testing"

	"github.com/ebitengine/purego"
	"github.com/stretchr/testify/require"
)

type parts struct {
	ID, UnixMs, Time, Epoch, Datacenter, Worker, Sequence int64
}

var lib struct {
	once sync.Once
	err  error

	version    func() string
	strerror   func(int32) string
	lastError  func() string
	open       func(string, *uintptr) int32
	close      func(uintptr)
	next       func(uintptr) int64
	nextBatch  func(uintptr, *int64, uintptr) int32
	decodeWith func(uintptr, int64, *parts) int32
	compose    func(uintptr, *parts, *int64) int32
	configStr  func(uintptr, *byte, uintptr) int32
	format     func(int64, int32, int32, *byte, uintptr) int32
	parse      func(string, int32, *int64) int32
}

func load(t *testing.T) {
	lib.once.Do(func() {
		path := os.Getenv("IDGEN_LIBRARY")
		if path == "" {
			path = "../build/libidgen.so"
		}
		h, err := purego.Dlopen(path, purego.RTLD_NOW|purego.RTLD_GLOBAL)
		if err != nil {
			lib.err = err
			return
		}
		for name, fn := range map[string]any{
			"idgen_version": &lib.version, "idgen_strerror": &lib.strerror, "idgen_last_error": &lib.lastError,
			"idgen_open": &lib.open, "idgen_close": &lib.close, "idgen_next": &lib.next,
			"idgen_next_batch": &lib.nextBatch, "idgen_decode_with": &lib.decodeWith, "idgen_compose": &lib.compose,
			"idgen_config_string": &lib.configStr, "idgen_format": &lib.format, "idgen_parse": &lib.parse,
		} {
			purego.RegisterLibFunc(fn, h, name)
		}
	})
	require.NoError(t, lib.err, "build the library first: make lib")
}

func TestVersionAndErrors(t *testing.T) {
	load(t)
	require.Equal(t, "0.1.0", lib.version())
	require.Equal(t, "generator handle is closed or unknown", lib.strerror(-4))
	var g uintptr
	require.Equal(t, int32(-1), lib.open("preset=bogus", &g))
	require.Contains(t, lib.lastError(), "preset")
}

func TestGenerateDecodeCompose(t *testing.T) {
	load(t)
	var g uintptr
	require.Equal(t, int32(0), lib.open("preset=snowflake datacenter=17 worker=25", &g))
	defer lib.close(g)
	a, b := lib.next(g), lib.next(g)
	require.Greater(t, b, a)
	buf := make([]int64, 5000)
	require.Equal(t, int32(0), lib.nextBatch(g, &buf[0], uintptr(len(buf))))
	for i := 1; i < len(buf); i++ {
		require.Greater(t, buf[i], buf[i-1])
	}
	var p parts
	require.Equal(t, int32(0), lib.decodeWith(g, 910499571847892992, &p))
	require.Equal(t, parts{910499571847892992, 1505914988849, 1505914988849 - 1288834974657, -1, 17, 25, 0}, p)
	var id int64
	p.ID = 0
	require.Equal(t, int32(0), lib.compose(g, &p, &id))
	require.Equal(t, int64(910499571847892992), id)
	cfg := make([]byte, 256)
	require.Equal(t, int32(0), lib.configStr(g, &cfg[0], uintptr(len(cfg))))
	require.Contains(t, string(cfg), "datacenter=17 worker=25")
}

func TestTextAndClosedHandles(t *testing.T) {
	load(t)
	buf := make([]byte, 16)
	require.Equal(t, int32(0), lib.format(910499571847892992, 62, 1, &buf[0], uintptr(len(buf))))
	require.Equal(t, "15G63YLn9Ae", string(buf[:11]))
	require.Equal(t, int32(-6), lib.format(910499571847892992, 62, 1, &buf[0], 5))
	var v int64
	require.Equal(t, int32(0), lib.parse("15G63YLn9Ae", 62, &v))
	require.Equal(t, int64(910499571847892992), v)
	require.Equal(t, int32(-6), lib.parse("zzzzzzzzzzzz", 62, &v))

	var g uintptr
	require.Equal(t, int32(0), lib.open("", &g))
	lib.close(g)
	lib.close(g)
	require.Equal(t, int64(-4), lib.next(g))
	var p parts
	require.Equal(t, int32(-4), lib.decodeWith(g, 1, &p))
}
