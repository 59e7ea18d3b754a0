package gen

import (
	"errors"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/idgen/idgen/internal/clock"
	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/layout"
)

func openText(t *testing.T, cfg string, clk clock.Clock) Generator {
	t.Helper()
	c, err := config.Parse(cfg)
	require.NoError(t, err)
	g, err := Open(c, Options{Clock: clk})
	require.NoError(t, err)
	t.Cleanup(func() { g.Close() })
	return g
}

func nextText(t *testing.T, g Generator) string {
	t.Helper()
	buf := make([]byte, g.TextLen())
	n, err := NextText(g, buf)
	require.NoError(t, err)
	return string(buf[:n])
}

func TestRocketMQFixedKeysGiveUpstreamBytes(t *testing.T) {
	// 2026-11-22T00:00:00Z is 21 days into November (UTC): 21*86400000 ms
	// after the month's start.
	clk := clock.NewManualClock(nowMs + 1234)
	g := openText(t, "preset=rocketmq ip=10.1.2.3 pid=4660 loader_hash=305419896 tz=UTC", clk)
	span := uint32(21*86400000 + 1234)
	want := func(seq int) string {
		return strings.ToUpper("0a010203" + "1234" + "12345678" + hex8(span) + hex4(uint16(seq)))
	}
	require.Equal(t, want(0), nextText(t, g))
	require.Equal(t, want(1), nextText(t, g))
	p, err := g.DecodeText(want(1))
	require.NoError(t, err)
	require.Equal(t, TextParts{ID: -1, UnixMs: nowMs + 1234, Sequence: 1, PID: 4660, LoaderHash: 305419896, Addr: []byte{10, 1, 2, 3}}, p)
	p2, err := g.DecodeText(strings.ToLower(want(1)))
	require.NoError(t, err, "hex in either case")
	require.Equal(t, p, p2)
	require.Equal(t, "preset=rocketmq ip=10.1.2.3 pid=4660 loader_hash=305419896 tz=UTC", g.Config())

	// In Shanghai the month started 8 hours earlier.
	gs := openText(t, "preset=rocketmq ip=10.1.2.3 pid=4660 loader_hash=1 tz=Asia/Shanghai", clk)
	s := nextText(t, gs)
	require.Equal(t, hex8(span+8*3600000), s[20:28])
	ps, err := gs.DecodeText(s)
	require.NoError(t, err)
	require.Equal(t, nowMs+1234, ps.UnixMs)
}

func hex8(v uint32) string { return fmtHex(uint64(v), 8) }
func hex4(v uint16) string { return fmtHex(uint64(v), 4) }

func fmtHex(v uint64, n int) string {
	b := make([]byte, n)
	for i := n - 1; i >= 0; i-- {
		b[i] = "0123456789ABCDEF"[v&15]
		v >>= 4
	}
	return string(b)
}

func TestRocketMQIPv6AndRandomHash(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := openText(t, "preset=rocketmq ip=fd00::2 pid=7", clk)
	s := nextText(t, g)
	require.Len(t, s, 56)
	require.True(t, strings.HasPrefix(s, "FD000000000000000000000000000002"+"0007"))
	p, err := g.DecodeText(s)
	require.NoError(t, err)
	require.Equal(t, net.ParseIP("fd00::2"), net.IP(p.Addr))
	require.Contains(t, g.Config(), "loader_hash=random", "reopening draws a new hash")
	g2 := openText(t, g.Config(), clk)
	p2, err := g2.DecodeText(nextText(t, g2))
	require.NoError(t, err)
	require.NotEqual(t, p.LoaderHash, p2.LoaderHash, "two generators of one process differ in the hash (1 in 2^32 to fail)")
}

func TestRocketMQNeverRepeatsPast65536InOneMillisecond(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := openText(t, "preset=rocketmq ip=10.0.0.1 pid=1 loader_hash=1 tz=UTC", clk)
	seen := make(map[string]bool, 1<<16+10)
	for range 1 << 16 {
		s := nextText(t, g)
		require.False(t, seen[s])
		seen[s] = true
	}
	done := make(chan string)
	go func() {
		buf := make([]byte, g.TextLen())
		n, _ := NextText(g, buf)
		done <- string(buf[:n])
	}()
	select {
	case s := <-done:
		t.Fatalf("id %d of one millisecond was issued (%s): the counter came round", 1<<16+1, s)
	case <-time.After(300 * time.Millisecond):
	}
	clk.Add(time.Millisecond)
	s := <-done
	require.False(t, seen[s], "the 65,537th id of a millisecond waits for the next one")
	p, err := g.DecodeText(s)
	require.NoError(t, err)
	require.Equal(t, nowMs+1, p.UnixMs)
	require.Equal(t, int64(0), p.Sequence, "the counter carries on: 65536 mod 2^16")
}

func TestRocketMQClockBackKeepsTime(t *testing.T) {
	clk := clock.NewManualClock(nowMs + 50)
	g := openText(t, "preset=rocketmq ip=10.0.0.1 pid=1 loader_hash=1 tz=UTC", clk)
	a := nextText(t, g)
	clk.Add(-40 * time.Millisecond)
	b := nextText(t, g)
	require.Equal(t, a[20:28], b[20:28], "the time field stays on the last millisecond")
	require.NotEqual(t, a, b)
}

func TestRocketMQAcrossMonthBoundaryInEveryZone(t *testing.T) {
	for _, tz := range []string{"UTC", "Asia/Shanghai", "America/New_York", "Pacific/Chatham", "-03:30"} {
		t.Run(tz, func(t *testing.T) {
			loc, err := config.ParseTZ(tz)
			require.NoError(t, err)
			// 2 ms before December 2026 begins in that zone.
			end := time.Date(2026, 12, 1, 0, 0, 0, 0, loc).UnixMilli()
			clk := clock.NewManualClock(end - 2)
			g := openText(t, "preset=rocketmq ip=10.0.0.1 pid=1 loader_hash=1 tz="+tz, clk)
			var ids []string
			for range 4 {
				ids = append(ids, nextText(t, g))
				clk.Add(time.Millisecond)
			}
			nov := end - time.Date(2026, 11, 1, 0, 0, 0, 0, loc).UnixMilli() // New York's November has 30 days and an hour
			wantSpan := []int64{nov - 2, nov - 1, 0, 1}
			for i, s := range ids {
				p, err := g.DecodeText(s)
				require.NoError(t, err)
				require.Equal(t, end-2+int64(i), p.UnixMs, "id %d (%s)", i, s)
				require.Equal(t, fmtHex(uint64(wantSpan[i]), 8), s[20:28])
			}
		})
	}
}

func TestRocketMQDecodeTakesTheLatestTimeNotAfterNow(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	g := openText(t, "preset=rocketmq ip=10.0.0.1 pid=1 loader_hash=1 tz=UTC", clk)
	s := nextText(t, g)
	p, err := g.DecodeText(s)
	require.NoError(t, err)
	require.Equal(t, nowMs, p.UnixMs, "an id of the present millisecond is not read a month early")
	clk.Add(5 * 24 * time.Hour) // read 5 days later, in the same month
	p, err = g.DecodeText(s)
	require.NoError(t, err)
	require.Equal(t, nowMs, p.UnixMs)
	clk.Add(35 * 24 * time.Hour) // 40 days later the form cannot tell: the latest fit wins
	p, err = g.DecodeText(s)
	require.NoError(t, err)
	require.Equal(t, time.UnixMilli(nowMs).UTC().AddDate(0, 1, 0).UnixMilli(), p.UnixMs)
	// A span longer than the month it would fall in is from an earlier
	// month: 30 days + 1 ms, read on 2026-12-02, is from October (31 days).
	ms, err := nearestMonth(30*86400000+1, time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC).UnixMilli(), time.UTC)
	require.NoError(t, err)
	require.Equal(t, time.Date(2026, 10, 31, 0, 0, 0, 1e6, time.UTC).UnixMilli(), ms)
	_, err = nearestMonth(32*86400000, nowMs, time.UTC)
	require.ErrorIs(t, err, errs.ErrInvalid)
}

func TestRocketV1FixedKeys(t *testing.T) {
	clk := clock.NewManualClock(nowMs + 999)
	g := openText(t, "preset=rocketmq-v1 mac=02:fc:00:00:00:01 pid=70000", clk)
	sec := uint64(nowMs-1609459200000) / 1000
	require.Equal(t, "01"+"02FC00000001"+"1170"+fmtHex(sec, 8)+"00000000", nextText(t, g))
	s := nextText(t, g)
	p, err := g.DecodeText(s)
	require.NoError(t, err)
	require.Equal(t, TextParts{ID: -1, UnixMs: nowMs, Sequence: 1, PID: 0x1170, LoaderHash: -1, Addr: []byte{2, 0xfc, 0, 0, 0, 1}}, p)
	_, err = g.DecodeText("02" + s[2:])
	require.ErrorIs(t, err, errs.ErrInvalid, "version byte other than 01")
	require.Equal(t, "preset=rocketmq-v1 mac=02:fc:00:00:00:01 pid=70000", g.Config())
}

func TestTextOnlyPresetsRefuseNumbers(t *testing.T) {
	g := openText(t, "preset=rocketmq ip=10.0.0.1", nil)
	_, err := g.Next()
	require.ErrorIs(t, err, errs.ErrInvalid)
	require.Contains(t, err.Error(), "idgen_next_text")
	require.ErrorIs(t, g.NextBatch(make([]int64, 3)), errs.ErrInvalid)
	_, err = g.Decode(1)
	require.ErrorIs(t, err, errs.ErrInvalid)
	require.NoError(t, g.Close())
	_, err = NextText(g, make([]byte, 64))
	require.ErrorIs(t, err, errs.ErrClosed)
}

func TestTextDecodersRefuseWhatIsNotTheirForm(t *testing.T) {
	rq := openText(t, "preset=rocketmq ip=10.0.0.1 pid=1 loader_hash=1", nil)
	v1 := openText(t, "preset=rocketmq-v1 mac=02:00:00:00:00:01 pid=1", nil)
	good := nextText(t, rq)
	for _, s := range []string{"", "xyz", good[:31], good + "0", " " + good[1:], "0x" + good[2:], "-" + good[1:], good[:10] + "G" + good[11:], good[:31] + "\x00"} {
		_, err := rq.DecodeText(s)
		require.ErrorIs(t, err, errs.ErrInvalid, "%q", s)
	}
	goodV1 := nextText(t, v1)
	for _, s := range []string{"", goodV1[:33], goodV1 + "0", good, "+1" + goodV1[2:]} {
		_, err := v1.DecodeText(s)
		require.ErrorIs(t, err, errs.ErrInvalid, "%q", s)
	}
}

func TestNumericPresetsAsText(t *testing.T) {
	clk := clock.NewManualClock(nowMs)
	for _, form := range []string{"dec", "base36", "base62"} {
		g := openText(t, "preset=snowflake worker=3 text="+form, clk)
		s := nextText(t, g)
		p, err := g.DecodeText(s)
		require.NoError(t, err)
		require.Equal(t, nowMs, p.UnixMs)
		base := config.TextDec
		switch form {
		case "base36":
			base = config.TextBase36
			require.Len(t, s, 13)
		case "base62":
			base = config.TextBase62
			require.Len(t, s, 11)
		}
		id, err := layout.ParseID(s, base.Base())
		require.NoError(t, err)
		require.Equal(t, id, p.ID)
		require.Equal(t, int64(-1), p.PID)
		_, err = g.DecodeText("0" + s)
		require.ErrorIs(t, err, errs.ErrInvalid, "one character too many")
		_, err = NextText(g, make([]byte, g.TextLen()-1))
		require.ErrorIs(t, err, errs.ErrRange)
		next := nextText(t, g)
		n, err := g.DecodeText(next)
		require.NoError(t, err)
		require.Equal(t, p.ID+1, n.ID, "a too small buffer consumed no id")
		require.Contains(t, g.Config(), map[string]string{"dec": "", "base36": "text=base36", "base62": "text=base62"}[form])
	}
}

func TestRocketMQFourThreadsMillionDistinct(t *testing.T) {
	g := openText(t, "preset=rocketmq ip=10.0.0.1 pid=1", nil)
	const per = 250000
	out := make([][]string, 4)
	var wg sync.WaitGroup
	for w := range out {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, g.TextLen())
			for range per {
				n, err := NextText(g, buf)
				if err != nil {
					panic(err)
				}
				out[w] = append(out[w], string(buf[:n]))
			}
		}()
	}
	wg.Wait()
	seen := make(map[string]struct{}, 4*per)
	for _, ids := range out {
		for _, s := range ids {
			seen[s] = struct{}{}
		}
	}
	require.Len(t, seen, 4*per)
}

func TestTextKeysApplyOnlyWhereTheyMeanSomething(t *testing.T) {
	for cfg, key := range map[string]string{
		"preset=snowflake ip=10.0.0.1":           "ip",
		"preset=snowflake tz=UTC":                "tz",
		"preset=rocketmq text=base62":            "text",
		"preset=rocketmq worker=3":               "worker",
		"preset=rocketmq mac=02:00:00:00:00:01":  "mac",
		"preset=rocketmq-v1 ip=10.0.0.1":         "ip",
		"preset=rocketmq-v1 loader_hash=3":       "loader_hash",
		"preset=rocketmq ip=10.0.0":              "ip",
		"preset=rocketmq ip=fe80::1%eth0":        "ip",
		"preset=rocketmq tz=Mars/Olympus":        "tz",
		"preset=rocketmq tz=/etc/passwd":         "tz",
		"preset=rocketmq pid=-1":                 "pid",
		"preset=rocketmq loader_hash=4294967296": "loader_hash",
		"preset=rocketmq-v1 mac=02:00:00:00:00":  "mac",
		"preset=snowflake text=hex":              "text",
	} {
		_, err := config.Parse(cfg)
		require.ErrorIs(t, err, errs.ErrInvalid, cfg)
		require.True(t, strings.HasPrefix(err.Error(), key+":"), "%s: %v", cfg, err)
	}
	c, err := config.Parse("preset=rocketmq loader_hash=-2147483648")
	require.NoError(t, err, "Java's negative int hashes are accepted")
	require.Equal(t, int64(0x80000000), c.TextKeys.LoaderHash)
}

func TestClosedTextGeneratorIsClosed(t *testing.T) {
	g := openText(t, "preset=snowflake worker=1 text=base36", nil)
	require.NoError(t, g.Close())
	_, err := NextText(g, make([]byte, 32))
	require.True(t, errors.Is(err, errs.ErrClosed))
}

func FuzzDecodeText(f *testing.F) {
	rq := openTextF(f, "preset=rocketmq ip=fd00::2 pid=1 loader_hash=2")
	v1 := openTextF(f, "preset=rocketmq-v1 mac=02:00:00:00:00:01 pid=1")
	b62 := openTextF(f, "preset=snowflake worker=1 text=base62")
	for _, g := range []Generator{rq, v1, b62} {
		buf := make([]byte, g.TextLen())
		n, err := NextText(g, buf)
		require.NoError(f, err)
		f.Add(string(buf[:n]))
	}
	f.Add("")
	f.Add("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz")
	f.Fuzz(func(t *testing.T, s string) {
		for _, g := range []Generator{rq, v1, b62} {
			p, err := g.DecodeText(s)
			if err != nil {
				require.ErrorIs(t, err, errs.ErrInvalid)
				continue
			}
			require.Contains(t, []int{0, 4, 6, 16}, len(p.Addr))
		}
	})
}

func openTextF(f *testing.F, cfg string) Generator {
	c, err := config.Parse(cfg)
	require.NoError(f, err)
	g, err := Open(c, Options{})
	require.NoError(f, err)
	f.Cleanup(func() { g.Close() })
	return g
}
