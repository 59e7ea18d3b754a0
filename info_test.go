package idgen_test

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen"
)

// Info mirrors idgen_info field for field, and the kinds are the numbers
// idgen.h gives IDGEN_KIND_*.
func TestInfoMirrorsTheHeader(t *testing.T) {
	h := header(t)
	body := regexp.MustCompile(`(?s)typedef struct \{([^}]*)\} idgen_info;`).FindStringSubmatch(h)
	require.NotNil(t, body, "idgen_info in idgen.h")
	var cFields []string
	for _, m := range regexp.MustCompile(`int64_t (\w+);`).FindAllStringSubmatch(body[1], -1) {
		cFields = append(cFields, strings.ReplaceAll(m[1], "_", ""))
	}
	typ := reflect.TypeOf(idgen.Info{})
	var goFields []string
	for i := range typ.NumField() {
		goFields = append(goFields, strings.ToLower(typ.Field(i).Name))
	}
	require.Equal(t, cFields, goFields)
	for name, v := range map[string]int{"NUMERIC": idgen.KindNumeric, "UUIDV7": idgen.KindUUIDv7, "ULID": idgen.KindULID,
		"ROCKETMQ": idgen.KindRocketMQ, "COUNTER": idgen.KindCounter, "NUMBER": idgen.KindNumber} {
		m := regexp.MustCompile(`IDGEN_KIND_` + name + ` = (\d+)`).FindStringSubmatch(h)
		require.NotNil(t, m, name)
		want, _ := strconv.Atoi(m[1])
		require.Equal(t, want, v, name)
	}
}

// Every kind, tick, text length and longest run a configuration gives.
func TestInfoOfEachKind(t *testing.T) {
	dir := t.TempDir()
	ms := int64(time.Millisecond)
	for cfg, want := range map[string]idgen.Info{
		"worker=3":                               {Kind: idgen.KindNumeric, TickNs: ms, LongestRun: 1},
		"worker=3 text=base36":                   {Kind: idgen.KindNumeric, TickNs: ms, TextLen: 13, LongestRun: 1},
		"worker=3 text=base62 runs=8":            {Kind: idgen.KindNumeric, TickNs: ms, TextLen: 11, LongestRun: 8},
		"preset=sonyflake worker=1":              {Kind: idgen.KindNumeric, TickNs: 10 * ms, LongestRun: 1},
		"preset=baidu-cached worker=1":           {Kind: idgen.KindNumeric, TickNs: 1000 * ms, LongestRun: 1},
		"preset=zk-session worker=1":             {Kind: idgen.KindNumeric, TickNs: ms, LongestRun: 1},
		"preset=zxid worker=0":                   {Kind: idgen.KindNumeric, LongestRun: 1},
		"preset=uuidv7":                          {Kind: idgen.KindUUIDv7, TickNs: ms, TextLen: 36, LongestRun: 1},
		"preset=ulid":                            {Kind: idgen.KindULID, TickNs: ms, TextLen: 26, LongestRun: 1},
		"preset=rocketmq ip=10.0.0.1":            {Kind: idgen.KindRocketMQ, TickNs: ms, TextLen: 32, LongestRun: 1},
		"preset=rocketmq ip=::1":                 {Kind: idgen.KindRocketMQ, TickNs: ms, TextLen: 56, LongestRun: 1},
		"preset=rocketmq-v1":                     {Kind: idgen.KindRocketMQ, TickNs: 1000 * ms, TextLen: 34, LongestRun: 1},
		"worker=lease lease_dir=" + dir:          {Kind: idgen.KindNumeric, Leased: 1, TickNs: ms, LongestRun: 1},
		"preset=segment name=o lease_dir=" + dir: {Kind: idgen.KindCounter, Leased: 1, LongestRun: 1},
		"preset=segment name=o text=base62 lease_dir=" + dir + " lease=off": {Kind: idgen.KindCounter, TextLen: 11, LongestRun: 1},
		"worker=lease lease=off lease_dir=" + dir:                           {Kind: idgen.KindNumeric, TickNs: ms, LongestRun: 1},
	} {
		g, err := idgen.Open(cfg)
		require.NoError(t, err, cfg)
		require.Equal(t, want, g.Info(), cfg)
		require.NoError(t, g.Close())
		require.Equal(t, idgen.Info{}, g.Info(), "closed: %s", cfg)
	}
}

// lease=off takes no lease (a fleet store that is not there is never
// contacted), refuses every issuing call naming the key, and decodes,
// composes and reads text as the same configuration with a lease does.
func TestLeaseOffDecodesOnly(t *testing.T) {
	dir := t.TempDir()
	real, err := idgen.Open("preset=leaf worker=lease text=base62 lease_dir=" + dir)
	require.NoError(t, err)
	defer real.Close()
	id, err := real.Next()
	require.NoError(t, err)
	text, err := real.NextText()
	require.NoError(t, err)

	for _, cfg := range []string{"preset=leaf worker=lease text=base62 lease=off lease_dir=" + dir,
		"preset=leaf worker=zk://127.0.0.1:1 text=base62 lease=off"} {
		g, err := idgen.Open(cfg)
		require.NoError(t, err, cfg)
		require.Equal(t, idgen.LeaseNone, g.Stats().LeaseState, cfg)
		_, err = g.Next()
		require.ErrorIs(t, err, idgen.ErrInvalid, cfg)
		require.ErrorContains(t, err, "lease=off", cfg)
		require.ErrorIs(t, g.NextBatch(make([]int64, 4)), idgen.ErrInvalid, cfg)
		_, err = g.NextText()
		require.ErrorContains(t, err, "lease=off", cfg)
		_, _, err = g.NextRun(make([]int64, 4))
		require.ErrorContains(t, err, "lease=off", cfg)
		want, err := real.Decode(id)
		require.NoError(t, err)
		got, err := g.Decode(id)
		require.NoError(t, err, cfg)
		require.Equal(t, want, got, cfg)
		again, err := g.Compose(got)
		require.NoError(t, err, cfg)
		require.Equal(t, id, again, cfg)
		tp, err := g.DecodeText(text)
		require.NoError(t, err, cfg)
		require.Greater(t, tp.ID, id, cfg)
		require.Contains(t, g.Config(), "lease=off", cfg)
		require.NoError(t, g.Close())
		_, err = g.Next()
		require.ErrorIs(t, err, idgen.ErrClosed, cfg)
	}
	require.Equal(t, int64(1), real.Info().Leased, "the real one still holds its lease")
}
