package gen

// RocketMQ's client-made message ids, as text: the UNIQ_KEY of
// MessageClientIDSetter (preset rocketmq) and the V1 id of rocketmq-clients'
// MessageIdCodec (preset rocketmq-v1). Both are a fixed host part, a time
// and a counter that counts up across time units; idgen adds what upstream
// lacks: the time never goes back, and the counter never comes round to a
// value already used in the same time unit (the generator waits for the
// next one instead).

import (
	"math/rand/v2"
	"sync"
	"time"

	"github.com/idgen/idgen/internal/config"
	"github.com/idgen/idgen/internal/errs"
	"github.com/idgen/idgen/internal/hostid"
	"github.com/idgen/idgen/internal/layout"
)

// v1EpochMs is MessageIdCodec's custom epoch, 2021-01-01T00:00:00Z.
const v1EpochMs = 1609459200000

type rocketGen struct {
	randText // the clock, closing, the numeric calls' refusals
	v1       bool
	prefix   []byte // the fixed part, upper hex
	textN    int    // length of an id
	unitMs   int64  // 1 (rocketmq) or 1000 (rocketmq-v1)
	perUnit  uint64 // counter values per time unit: 1<<16 or 1<<32
	loc      *time.Location

	mu       sync.Mutex
	last     int64  // time unit of the last id (unix ms or unix s)
	inUnit   uint64 // ids issued in that unit
	counter  uint64 // the next counter value (taken modulo perUnit)
	issued   int64  // ids made (stats)
	monStart int64  // rocketmq: the month that holds last, unix ms
	monEnd   int64
}

// newRocket resolves the host part (ip/mac, pid, loader hash) and builds
// the generator of sh's configuration (the resolved copy Open made).
func newRocket(sh *shape) (*rocketGen, error) {
	c := sh.cfg
	g := &rocketGen{v1: c.Scheme == config.SchemeRocketV1, loc: time.Local}
	g.init(sh)
	t := &c.TextKeys
	randomHash := !g.v1 && t.LoaderHash < 0
	if t.PID < 0 {
		t.PID = int64(hostid.PID())
	}
	if g.v1 {
		if t.MAC == nil {
			if t.MAC = hostid.RocketV1MAC(); t.MAC == nil {
				return nil, errs.New(errs.ErrWorker, "mac=auto: no interface of this host has a hardware address (upstream would make up random bytes); give mac=xx:xx:xx:xx:xx:xx")
			}
		}
		g.prefix = append([]byte("01"), layout.AppendHex(nil, t.MAC)...)
		g.prefix = layout.AppendHex(g.prefix, []byte{byte(t.PID >> 8), byte(t.PID)})
		g.textN, g.unitMs, g.perUnit = 34, 1000, 1<<32
	} else {
		if t.IP == nil {
			if t.IP = hostid.RocketMQIP(); t.IP == nil {
				return nil, errs.New(errs.ErrWorker, "ip=auto: this host has no IP address (upstream would make up one from the clock); give ip=<address>")
			}
		}
		if t.LoaderHash < 0 {
			t.LoaderHash = int64(rand.Uint32()) // random per generator: tells apart generators of one process
		}
		h := uint32(t.LoaderHash)
		g.prefix = layout.AppendHex(nil, t.IP)
		g.prefix = layout.AppendHex(g.prefix, []byte{byte(t.PID >> 8), byte(t.PID), byte(h >> 24), byte(h >> 16), byte(h >> 8), byte(h)})
		g.textN, g.unitMs, g.perUnit = len(g.prefix)+12, 1, 1<<16
		if t.TZ != nil {
			g.loc = t.TZ
		}
	}
	shown := *c // loader_hash=random stays random when reopened
	if randomHash {
		shown.TextKeys.LoaderHash = -1
	}
	g.cfgStr = shown.String()
	g.last = -1
	return g, nil
}

// TextLen is the length of an id.
func (g *rocketGen) TextLen() int { return g.textN }

func (g *rocketGen) now(precise bool) int64 {
	var ns int64
	if precise || g.recent == nil {
		ns = g.clock.Now()
	} else {
		ns = g.recent.Recent()
	}
	return ns / int64(time.Millisecond) / g.unitMs
}

// NextText writes one id; dst holds at least TextLen bytes.
func (g *rocketGen) NextText(dst []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.closed.Load() {
		return 0, errClosed
	}
	now := g.now(false)
	for {
		if now > g.last {
			g.last, g.inUnit = now, 0
			break
		}
		// The clock is in the last unit, or behind it (an injected clock;
		// the default one never goes back): keep to the last unit while
		// the counter has values left in it.
		if g.inUnit < g.perUnit {
			break
		}
		g.sleepPast(g.last)
		if g.closed.Load() {
			return 0, errClosed
		}
		now = g.now(true)
	}
	t := g.last
	var field uint64
	if g.v1 {
		field = uint64(t*1000-v1EpochMs) / 1000
	} else {
		if t >= g.monEnd || t < g.monStart {
			g.monStart, g.monEnd = monthOf(t, g.loc)
		}
		field = uint64(t - g.monStart)
	}
	seq := g.counter % g.perUnit
	g.counter++
	g.inUnit++
	g.issued++
	n := copy(dst, g.prefix)
	layout.PutHex(dst[n:], field, 4)
	if g.v1 {
		layout.PutHex(dst[n+8:], seq, 4)
	} else {
		layout.PutHex(dst[n+8:], seq, 2)
	}
	return g.textN, nil
}

// sleepPast waits until the clock has passed unit last.
func (g *rocketGen) sleepPast(last int64) {
	next := (last + 1) * g.unitMs * int64(time.Millisecond)
	if d := time.Duration(next - g.clock.Now()); d > 0 {
		time.Sleep(min(d, 100*time.Millisecond))
	}
}

// monthOf is the month that holds unix ms t in loc: its first and the next
// month's first millisecond.
func monthOf(t int64, loc *time.Location) (int64, int64) {
	tm := time.UnixMilli(t).In(loc)
	start := time.Date(tm.Year(), tm.Month(), 1, 0, 0, 0, 0, loc)
	end := time.Date(tm.Year(), tm.Month()+1, 1, 0, 0, 0, 0, loc)
	return start.UnixMilli(), end.UnixMilli()
}

// DecodeText reads an id of the preset's form.
func (g *rocketGen) DecodeText(s string) (TextParts, error) {
	if g.v1 {
		return g.decodeV1(s)
	}
	var b [28]byte
	var raw []byte
	switch len(s) {
	case 32:
		raw = b[:16]
	case 56:
		raw = b[:28]
	default:
		return TextParts{}, badText("rocketmq", s, "32 hex characters (an IPv4 host) or 56 (IPv6)")
	}
	if !layout.DecodeHex(raw, s) {
		return TextParts{}, badText("rocketmq", s, "hex characters only")
	}
	ipLen := len(raw) - 12
	r := raw[ipLen:]
	span := int64(r[6])<<24 | int64(r[7])<<16 | int64(r[8])<<8 | int64(r[9])
	ms, err := nearestMonth(span, g.clock.Now()/int64(time.Millisecond), g.loc)
	if err != nil {
		return TextParts{}, err
	}
	return TextParts{
		ID:         -1,
		UnixMs:     ms,
		Sequence:   int64(r[10])<<8 | int64(r[11]),
		PID:        int64(r[0])<<8 | int64(r[1]),
		LoaderHash: int64(r[2])<<24 | int64(r[3])<<16 | int64(r[4])<<8 | int64(r[5]),
		Addr:       append([]byte(nil), raw[:ipLen]...),
	}, nil
}

// nearestMonth is the latest time not after now + 1 s that lies span ms
// after the start of its month in loc (upstream's getNearlyTimeFromID
// reads an id of the present millisecond a month early).
func nearestMonth(span, nowMs int64, loc *time.Location) (int64, error) {
	limit := nowMs + 1000
	start, end := monthOf(limit, loc)
	for range 14 {
		if t := start + span; t <= limit && span < end-start {
			return t, nil
		}
		prev, _ := monthOf(start-1, loc)
		start, end = prev, start
	}
	return 0, errs.New(errs.ErrInvalid, "the time field (%d ms after the 1st of a month) fits no month of the past year", span)
}

func (g *rocketGen) decodeV1(s string) (TextParts, error) {
	var raw [17]byte
	if len(s) != 34 || !layout.DecodeHex(raw[:], s) {
		return TextParts{}, badText("rocketmq-v1", s, "34 hex characters")
	}
	if raw[0] != 1 {
		return TextParts{}, badText("rocketmq-v1", s, "version 01 in the first two characters")
	}
	sec := int64(raw[9])<<24 | int64(raw[10])<<16 | int64(raw[11])<<8 | int64(raw[12])
	return TextParts{
		ID:         -1,
		UnixMs:     v1EpochMs + sec*1000,
		Sequence:   int64(raw[13])<<24 | int64(raw[14])<<16 | int64(raw[15])<<8 | int64(raw[16]),
		PID:        int64(raw[7])<<8 | int64(raw[8]),
		LoaderHash: -1,
		Addr:       append([]byte(nil), raw[1:7]...),
	}, nil
}

// LastValue is the time unit of the last id.
func (g *rocketGen) LastValue() int64 { g.mu.Lock(); defer g.mu.Unlock(); return g.last }

func (g *rocketGen) stats(s *Stats) {
	g.mu.Lock()
	s.Issued = g.issued
	g.mu.Unlock()
}
