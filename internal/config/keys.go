package config

// The one table of keys: for each key its name, where it applies, how it
// is read, its default and how it is printed. Parse, String, the refusals
// of keys that would configure nothing here and the documented key list
// (the tables of README.md and docs/ABI.md, checked by keys_test.go) all
// come from it.

// schemes is a set of schemes: the generators a key configures.
type schemes uint16

func on(s ...Scheme) schemes {
	var set schemes
	for _, x := range s {
		set |= 1 << x
	}
	return set
}

func (set schemes) has(s Scheme) bool { return set&(1<<s) != 0 }

var (
	everyone  = on(SchemeTime, SchemeSession, SchemeZxid, SchemeRocketMQ, SchemeRocketV1, SchemeUUIDv7, SchemeULID, SchemeSegment)
	numeric   = on(SchemeTime, SchemeSession, SchemeZxid)
	timed     = on(SchemeTime, SchemeSession)
	sequenced = on(SchemeTime)
	rocket    = on(SchemeRocketMQ, SchemeRocketV1)
	segment   = on(SchemeSegment)
)

// key is one row of the table. A row applies to the schemes of on (and,
// when preset is set, to that preset only); a name may have a row for
// numeric presets and another for preset=segment.
type key struct {
	name   string
	on     schemes
	preset string
	// only is why the key does not apply, said to a numeric preset it is
	// not for; "" leaves the reason to the scheme (zxid has no time field,
	// zk-session's counter has no sequence policy).
	only string
	// when is why the key does not apply given what else the string says
	// (a lease key without a lease); "" when it does. nil: always applies.
	when func(d *draft) string
	// parse reads a given value; def sets the default when the key is not
	// given (nil: the zero value, or the preset's).
	parse func(d *draft, v string) error
	def   func(d *draft) error
	// print is the value String shows and whether it shows one; held is
	// what a running generator adds (the pair it holds).
	print func(c *Spec) (string, bool)
	held  func(h Held) string
	// dflt is the default in words, for the key table a tool reads
	// (KeyTable: idgen explain --keys).
	dflt string
}

func (k *key) takes(c *Spec) bool {
	return k.on.has(c.Scheme) && (k.preset == "" || k.preset == c.Preset)
}

// keys is the table, in the order String prints and Parse reads (a key
// after those its reading depends on). preset is read first, by Parse: it
// decides which rows apply.
var keys = []key{
	{name: "preset", on: everyone, print: func(c *Spec) (string, bool) { return c.Preset, true }, dflt: "snowflake"},

	{name: "layout", on: numeric, parse: readLayout, def: defLayout, print: printLayout, dflt: "the preset's"},
	{name: "zxid_epoch", on: on(SchemeZxid), only: "only preset zxid has an epoch counter", parse: readZxidEpoch, print: printZxidEpoch, dflt: "0"},
	{name: "unit", on: timed, parse: readUnit, print: printUnit, dflt: "the preset's"},
	{name: "epoch", on: timed, parse: readEpoch, print: printEpoch, dflt: "the preset's"},
	{name: "datacenter", on: timed, parse: readDatacenter, print: printDatacenter, dflt: "leased with the worker; 0 with a fixed worker"},
	{name: "worker", on: numeric, parse: readWorker, def: defWorker, print: printWorker, dflt: "lease"},
	{name: "clock", on: timed, parse: readClock, print: printClock, dflt: "mono"},
	{name: "on_clock_back", on: sequenced, when: clockCanGoBack, parse: readOnClockBack, def: defOnClockBack, print: printOnClockBack, dflt: "the preset's"},
	{name: "boost", on: sequenced, preset: "baidu-cached", only: onlyCached, parse: readBoost, def: defBoost, print: printBoost, dflt: "3"},
	{name: "padding", on: sequenced, preset: "baidu-cached", only: onlyCached, parse: readPadding, def: defPadding(DefaultPadding), print: printPadding, dflt: "50"},
	{name: "on_exhausted", on: sequenced, parse: readOnExhausted, def: defOnExhausted, print: printOnExhausted, dflt: "wait"},
	{name: "max_drift", on: sequenced, when: borrowing, parse: readMaxDrift, def: defMaxDrift, print: printMaxDrift, dflt: "1s with borrow; baidu-cached: 1s << boost"},
	{name: "seq_start", on: sequenced, parse: readSeqStart, def: (*draft).checkSeqStart, print: printSeqStart, dflt: "the preset's"},
	{name: "runs", on: sequenced, parse: readRuns, print: printRuns, dflt: "1"},

	{name: "ip", on: on(SchemeRocketMQ), parse: readIP, print: printIP, dflt: "auto"},
	{name: "mac", on: on(SchemeRocketV1), parse: readMAC, print: printMAC, dflt: "auto"},
	{name: "pid", on: rocket, parse: readPID, print: printPID, dflt: "auto"},
	{name: "loader_hash", on: on(SchemeRocketMQ), parse: readLoaderHash, print: printLoaderHash, dflt: "random"},
	{name: "tz", on: on(SchemeRocketMQ), parse: readTZ, print: printTZ, dflt: "local"},

	{name: "text", on: numeric, parse: readText, print: printText, dflt: "dec"},
	{name: "name", on: everyone &^ segment, parse: readName, print: printName, dflt: "the preset"},
	{name: "lease_dir", on: numeric, when: hostLease, parse: readLeaseDir, print: printLeaseDir, dflt: "/var/tmp/idgen"},
	{name: "lease_table", on: numeric, when: sqlLease, parse: readLeaseTable, print: printLeaseTable, dflt: "idgen_lease"},
	{name: "lease_ttl", on: numeric, when: leasing, parse: readLeaseTTL, def: defLeaseTTL, print: printLeaseTTL, dflt: "1s host, 10s fleet stores"},
	{name: "max_outage", on: numeric, when: leasing, parse: readMaxOutage, def: defMaxOutage, print: printMaxOutage, dflt: "1s host, 60s fleet stores"},
	{name: "max_wait", on: numeric, when: leasing, parse: readMaxWait, def: defMaxWait, print: printMaxWait, dflt: "max_outage + max_drift + 1s"},
	{name: "max_skew", on: numeric, when: storeClock, parse: readMaxSkew, print: printMaxSkew, dflt: "none (the skew is only reported)"},
	{name: "leased", on: numeric, when: holdsNoLease("shows a leased pair"), parse: checkPair("leased"), held: func(h Held) string { return h.Leased }, dflt: "none"},
	{name: "switched", on: numeric, when: holdsNoLease("shows a pair given up by on_clock_back=switch"), parse: checkPair("switched"), held: func(h Held) string { return h.Switched }, dflt: "none"},

	{name: "name", on: segment, parse: readName, def: needName, print: printSegmentName, dflt: "none: required"},
	{name: "store", on: segment, only: onlySegment, parse: readStore, print: printStore, dflt: "the host directory"},
	{name: "step", on: segment, only: onlySegment, parse: readStep, def: defStep, print: printStep, dflt: "1000"},
	{name: "start", on: segment, only: onlySegment, parse: readStart, def: defStart, print: printStart, dflt: "1"},
	{name: "padding", on: segment, parse: readSegmentPadding, def: defPadding(DefaultSegmentPadding), print: printPadding, dflt: "50"},
	{name: "max_wait", on: segment, parse: readSegmentWait, def: defSegmentWait, print: printSegmentWait, dflt: "2s"},
	{name: "reset", on: segment, only: onlySegment, parse: readReset, print: printReset, dflt: "none"},
	{name: "tz", on: segment, when: resetting, parse: readNumbersTZ, def: defNumbersTZ, print: printNumbersTZ, dflt: "UTC with reset="},
	{name: "format", on: segment, only: onlySegment, parse: readFormat, def: needFormat, print: printFormat, dflt: "none: the value in the text= form"},
	{name: "text", on: segment, when: noFormat, parse: readText, print: printText, dflt: "dec"},
	{name: "lease_dir", on: segment, when: hostDirectory, parse: readLeaseDir, print: printSegmentDir, dflt: "/var/tmp/idgen"},
	{name: "lease_table", on: segment, when: sqlStore, parse: readSegmentTable, print: printSegmentTable, dflt: "idgen_segment"},

	{name: "lease", on: numeric | segment, parse: readLease, print: printLease, dflt: "on"},
}

// Why the keys of one preset are refused by the others.
const (
	onlySegment = "applies only to preset segment"
	onlyCached  = "applies only to preset baidu-cached"
)

// Held is what a running generator adds to its configuration string: the
// pair it holds and the one it gave up switching (D/W; "" for none).
// Parse accepts both keys and opening ignores them.
type Held struct {
	Leased, Switched string
}

// Keys lists the keys a configuration string may hold, in the table's
// order.
func Keys() []string { return append([]string(nil), keyNames...) }

// keyNames are the names of the table's rows, each once.
var keyNames = func() []string {
	var names []string
	for _, k := range keys {
		if !contains(names, k.name) {
			names = append(names, k.name)
		}
	}
	return names
}()

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
