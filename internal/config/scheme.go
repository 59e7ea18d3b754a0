package config

// Scheme is the kind of generator a layout is driven by.
type Scheme int

const (
	// SchemeTime is the Snowflake family: time, optional datacenter and
	// worker, sequence.
	SchemeTime Scheme = iota
	// SchemeSession is ZooKeeper's session id: worker, then a counter that
	// starts at the time of opening and carries from seq into time.
	SchemeSession
	// SchemeZxid is ZooKeeper's transaction id: epoch and counter.
	SchemeZxid
	// SchemeRocketMQ is RocketMQ's UNIQ_KEY text id (MessageClientIDSetter).
	SchemeRocketMQ
	// SchemeRocketV1 is rocketmq-clients 5.x's V1 text id (MessageIdCodec).
	SchemeRocketV1
	// SchemeUUIDv7 is RFC 9562's version-7 UUID, as canonical text.
	SchemeUUIDv7
	// SchemeULID is a ULID, as Crockford base32 text.
	SchemeULID
	// SchemeSegment is a dense counter from a store (preset=segment).
	SchemeSegment
)

func (s Scheme) String() string {
	return [...]string{"time", "session", "zxid", "rocketmq", "rocketmq-v1", "uuidv7", "ulid", "segment"}[s]
}

// IsText reports whether the scheme makes text ids only.
func (s Scheme) IsText() bool { return s >= SchemeRocketMQ && s <= SchemeULID }

// Source says where a worker or datacenter id comes from.
type Source int

const (
	SourceUnset   Source = iota // datacenter not given: leased with the worker, or 0
	SourceValue                 // a number, trusted as given
	SourcePID                   // worker=pid: the preset's derivation from datacenter and pid
	SourceMAC                   // datacenter=mac: the preset's derivation from a MAC address
	SourceLease                 // worker=lease: the host lease directory
	SourceStore                 // worker=<scheme>://...: the store Spec.Store names (internal/lease/stores)
	SourceOrdinal               // worker=ordinal: the host name's trailing -N, or $IDGEN_ORDINAL
)

// Leasing reports whether the source takes a lease.
func (s Source) Leasing() bool { return s == SourceLease || s.Fleet() }

// Fleet reports whether the source is a coordinator shared by many hosts.
func (s Source) Fleet() bool { return s == SourceStore }
