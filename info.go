package idgen

import "github.com/idgen/idgen/internal/gen"

// Info is what idgen_get_info reports of a generator, field for field: what
// it is, so that a host asks rather than probes.
type Info struct {
	Kind       int64 // KindNumeric, KindUUIDv7, KindULID, KindRocketMQ, KindCounter or KindNumber; 0 once closed
	Leased     int64 // 1 when it holds a lease or takes segments from a store (not with lease=off)
	TickNs     int64 // the time field's unit in ns; 0 without a time field (zxid, segment)
	TextLen    int64 // the text form's length; 0 when it varies (text=dec)
	LongestRun int64 // N of runs=N; 1 without runs
}

// The kinds of Info.Kind (IDGEN_KIND_*).
const (
	KindNumeric  = gen.KindNumeric  // 64-bit ids: the Snowflake family, zk-session, zxid
	KindUUIDv7   = gen.KindUUIDv7   // preset=uuidv7
	KindULID     = gen.KindULID     // preset=ulid
	KindRocketMQ = gen.KindRocketMQ // preset=rocketmq and rocketmq-v1
	KindCounter  = gen.KindCounter  // preset=segment
	KindNumber   = gen.KindNumber   // business numbers: preset=segment with format= (text only with reset=)
)

// Info reports what g is: its kind, whether it leases, its tick, the
// length of its text form and the longest run it hands out. It never
// waits. Once g is closed it is the zero Info (Kind 0, no kind), as the C
// call is IDGEN_ECLOSED.
func (g *Generator) Info() Info {
	if g.closed.Load() {
		return Info{}
	}
	return Info(gen.InfoOf(g.g))
}
