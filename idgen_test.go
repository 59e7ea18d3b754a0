package idgen_test

import (
	"errors"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen"
)

// header is include/idgen.h, the contract this package mirrors.
func header(t *testing.T) string {
	b, err := os.ReadFile("include/idgen.h")
	require.NoError(t, err)
	return string(b)
}

// Every sentinel's Code is the number idgen.h gives its IDGEN_E* name.
func TestCodesMatchTheHeader(t *testing.T) {
	h := header(t)
	for name, err := range map[string]error{
		"EINVAL": idgen.ErrInvalid, "ECLOCK": idgen.ErrClock, "EOVERFLOW": idgen.ErrOverflow,
		"ECLOSED": idgen.ErrClosed, "EWORKER": idgen.ErrWorker, "ERANGE": idgen.ErrRange,
		"EFORKED": idgen.ErrForked, "EINTERNAL": idgen.ErrInternal,
	} {
		m := regexp.MustCompile(`#define IDGEN_` + name + ` \((-\d+)\)`).FindStringSubmatch(h)
		require.NotNil(t, m, name)
		want, _ := strconv.Atoi(m[1])
		require.Equal(t, want, idgen.Code(err), name)
		require.Equal(t, want, idgen.Code(errors.Join(errors.New("context"), err)), name+" wrapped")
	}
	require.Equal(t, 0, idgen.Code(nil))
	require.Equal(t, -99, idgen.Code(errors.New("not ours")))
}

// Parts and Stats mirror idgen_parts and idgen_stats field for field, in
// the header's order.
func TestStructsMirrorTheHeader(t *testing.T) {
	h := header(t)
	for cName, v := range map[string]any{"idgen_parts": idgen.Parts{}, "idgen_stats": idgen.Stats{}} {
		body := regexp.MustCompile(`(?s)typedef struct \{([^}]*)\} ` + cName + `;`).FindStringSubmatch(h)
		require.NotNil(t, body, cName)
		var cFields []string
		for _, m := range regexp.MustCompile(`int64_t (\w+);`).FindAllStringSubmatch(body[1], -1) {
			cFields = append(cFields, strings.ReplaceAll(m[1], "_", ""))
		}
		typ := reflect.TypeOf(v)
		var goFields []string
		for i := range typ.NumField() {
			goFields = append(goFields, strings.ToLower(typ.Field(i).Name))
		}
		require.Equal(t, cFields, goFields, cName)
	}
}

func TestGeneratorIssuesIncreasingIDsAndCloses(t *testing.T) {
	g, err := idgen.Open("preset=snowflake worker=3")
	require.NoError(t, err)
	last := int64(-1)
	for range 1000 {
		id, err := g.Next()
		require.NoError(t, err)
		require.Greater(t, id, last)
		last = id
	}
	batch := make([]int64, 5000)
	require.NoError(t, g.NextBatch(batch))
	for _, id := range batch {
		require.Greater(t, id, last)
		last = id
	}
	p, err := g.Decode(last)
	require.NoError(t, err)
	require.Equal(t, int64(3), p.Worker)
	again, err := g.Compose(p)
	require.NoError(t, err)
	require.Equal(t, last, again)
	require.Equal(t, int64(6000), g.Stats().Issued)
	require.Equal(t, idgen.LeaseNone, g.Stats().LeaseState)

	require.NoError(t, g.Close())
	require.NoError(t, g.Close(), "closing twice is harmless")
	_, err = g.Next()
	require.ErrorIs(t, err, idgen.ErrClosed)
	require.Equal(t, -4, idgen.Code(err))
}

// Every later call of a closed generator fails with ErrClosed, as Close
// says (and as a closed C handle does): the ones that need no clock or
// lease too.
func TestClosedGeneratorRefusesDecodeAndCompose(t *testing.T) {
	for _, conf := range []string{"preset=snowflake worker=3", "preset=uuidv7"} {
		g, err := idgen.Open(conf)
		require.NoError(t, err)
		text, err := g.NextText()
		require.NoError(t, err)
		_, err = g.DecodeText(text)
		require.NoError(t, err, conf)
		require.NoError(t, g.Close())

		_, err = g.DecodeText(text)
		require.ErrorIs(t, err, idgen.ErrClosed, conf)
		_, err = g.Decode(1)
		require.ErrorIs(t, err, idgen.ErrClosed, conf)
		_, err = g.Compose(idgen.Parts{UnixMs: -1, Time: 1, Epoch: -1, Datacenter: -1, Worker: -1})
		require.ErrorIs(t, err, idgen.ErrClosed, conf)
		_, _, err = g.NextRun(nil)
		require.ErrorIs(t, err, idgen.ErrClosed, conf)
	}
}

func TestConcurrentCallersNeverShareAnID(t *testing.T) {
	g, err := idgen.Open("preset=snowflake worker=1")
	require.NoError(t, err)
	defer g.Close()
	var mu sync.Mutex
	seen := map[int64]bool{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			ids := make([]int64, 0, 20000)
			for range 20000 {
				id, err := g.Next()
				if err != nil {
					t.Error(err)
					return
				}
				ids = append(ids, id)
			}
			mu.Lock()
			defer mu.Unlock()
			for _, id := range ids {
				if seen[id] {
					t.Errorf("duplicate %d", id)
				}
				seen[id] = true
			}
		})
	}
	wg.Wait()
	require.Len(t, seen, 80000)
}

func TestTextIDs(t *testing.T) {
	g, err := idgen.Open("preset=uuidv7")
	require.NoError(t, err)
	defer g.Close()
	s, err := g.NextText()
	require.NoError(t, err)
	require.Len(t, s, 36)
	require.LessOrEqual(t, g.TextLen(), 56, "IDGEN_TEXT_MAX - 1")
	p, err := g.DecodeText(s)
	require.NoError(t, err)
	require.InDelta(t, float64(g.Stats().Issued), 1, 0)
	require.Positive(t, p.UnixMs)
	_, err = g.DecodeText("not a uuid")
	require.ErrorIs(t, err, idgen.ErrInvalid)

	buf := make([]byte, 0, 64)
	allocs := testing.AllocsPerRun(100, func() {
		var err error
		buf, err = g.AppendText(buf[:0])
		if err != nil {
			t.Fatal(err)
		}
	})
	require.Zero(t, allocs, "AppendText into a buffer with room allocates nothing")
	require.Len(t, buf, 36)
}

// NextUUIDs: the UUIDs NextText would give, as 16 bytes each in order
// with the text ones; another preset, a length that is not whole UUIDs and
// a closed generator are refused.
func TestNextUUIDs(t *testing.T) {
	g, err := idgen.Open("preset=uuidv7")
	require.NoError(t, err)
	before, err := g.NextText()
	require.NoError(t, err)
	out := make([]byte, 3*16)
	require.NoError(t, g.NextUUIDs(out))
	after, err := g.NextText()
	require.NoError(t, err)
	hexOf := func(b []byte) string {
		const digits = "0123456789abcdef"
		var s []byte
		for i, c := range b {
			if i == 4 || i == 6 || i == 8 || i == 10 {
				s = append(s, '-')
			}
			s = append(s, digits[c>>4], digits[c&15])
		}
		return string(s)
	}
	prev := before
	for i := 0; i < 3; i++ {
		u := hexOf(out[16*i : 16*i+16])
		require.Equal(t, byte('7'), u[14], "version 7: %s", u)
		require.Contains(t, "89ab", string(u[19]), "RFC variant: %s", u)
		require.Greater(t, u, prev)
		prev = u
	}
	require.Greater(t, after, prev)
	require.ErrorIs(t, g.NextUUIDs(make([]byte, 17)), idgen.ErrInvalid)
	require.NoError(t, g.NextUUIDs(nil))
	require.NoError(t, g.Close())
	require.ErrorIs(t, g.NextUUIDs(out), idgen.ErrClosed)

	u, err := idgen.Open("preset=ulid")
	require.NoError(t, err)
	defer u.Close()
	require.ErrorIs(t, u.NextUUIDs(out), idgen.ErrInvalid)
}

func TestFormatAndParse(t *testing.T) {
	for _, base := range []int{10, 16, 36, 62} {
		s, err := idgen.Format(1<<62, base, true)
		require.NoError(t, err)
		v, err := idgen.Parse(s, base)
		require.NoError(t, err)
		require.Equal(t, int64(1<<62), v)
	}
	_, err := idgen.Format(-1, 62, false)
	require.ErrorIs(t, err, idgen.ErrInvalid)
	_, err = idgen.Parse("12!", 36)
	require.ErrorIs(t, err, idgen.ErrInvalid)
}

// A generator opened from Go is in the process's metrics text until it is
// closed, as one opened through the C ABI is.
func TestMetricsTextListsGoGenerators(t *testing.T) {
	g, err := idgen.Open("preset=snowflake worker=9 name=go-orders")
	require.NoError(t, err)
	_, err = g.Next()
	require.NoError(t, err)
	require.Contains(t, idgen.MetricsText(), `name="go-orders"`)
	require.NoError(t, g.Close())
	require.NotContains(t, idgen.MetricsText(), `name="go-orders"`)
}

// The default generator (idgen_next_id's) from Go.
func TestDefaultGenerator(t *testing.T) {
	require.NoError(t, idgen.Configure("preset=snowflake worker=4"))
	a, err := idgen.NextID()
	require.NoError(t, err)
	ids := make([]int64, 3)
	require.NoError(t, idgen.NextIDs(ids))
	require.Greater(t, ids[0], a)
	p, err := idgen.Decode(ids[2])
	require.NoError(t, err)
	require.Equal(t, int64(4), p.Worker)
	require.ErrorIs(t, idgen.Configure("preset=nope"), idgen.ErrInvalid)
}

// NextRun: with runs=N a whole run and its freshness (at most 1 ms), the
// ids after every id handed out before; an empty buffer says N. Without
// runs one id and no freshness; a text preset is refused as Next is.
func TestNextRun(t *testing.T) {
	g, err := idgen.Open("layout=time:41,seq:22 worker=0 runs=32")
	require.NoError(t, err)
	defer g.Close()
	n, fresh, err := g.NextRun(nil)
	require.NoError(t, err)
	require.Equal(t, 32, n)
	require.Zero(t, fresh)
	last, err := g.Next()
	require.NoError(t, err)
	buf := make([]int64, 1024)
	for i := 0; i < 10; i++ {
		n, fresh, err := g.NextRun(buf)
		require.NoError(t, err)
		require.True(t, n >= 1 && n <= 32, "n=%d", n)
		require.True(t, fresh > 0 && fresh <= time.Millisecond, "fresh=%v", fresh)
		for _, id := range buf[:n] {
			require.Greater(t, id, last)
			last = id
		}
	}

	plain, err := idgen.Open("layout=time:41,seq:22 worker=0")
	require.NoError(t, err)
	defer plain.Close()
	n, _, err = plain.NextRun(nil)
	require.NoError(t, err)
	require.Equal(t, 1, n)
	n, fresh, err = plain.NextRun(buf[:4])
	require.NoError(t, err)
	require.Equal(t, 1, n)
	require.Zero(t, fresh)

	text, err := idgen.Open("preset=rocketmq")
	require.NoError(t, err)
	defer text.Close()
	_, _, err = text.NextRun(buf)
	require.ErrorIs(t, err, idgen.ErrInvalid)
}
