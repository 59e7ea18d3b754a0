//! The values a generator hands back: Parts (also compose's input),
//! TextParts, Stats, Info. Each carries its C struct's fields under the
//! same names; -1 stands where C has -1 (a field the layout lacks).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::ffi;

/// The fields of a numeric id (`idgen_parts`). A field the layout lacks is
/// -1 in [`Generator::decode`](crate::Generator::decode)'s answer, and must
/// be -1 or 0 in [`Generator::compose`](crate::Generator::compose)'s input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Parts {
    /// The id (ignored by compose).
    pub id: i64,
    /// Generation time in ms since 1970 UTC; -1 if the layout has no time.
    /// Compose uses it unless it is negative, then `time`.
    pub unix_ms: i64,
    /// The raw time field (units since the layout's epoch); -1 if none.
    pub time: i64,
    /// The zxid epoch, or the backwards (clock-rollback) counter; -1 if none.
    pub epoch: i64,
    /// -1 if none.
    pub datacenter: i64,
    /// -1 if none.
    pub worker: i64,
    /// The sequence / counter field.
    pub sequence: i64,
}

impl Default for Parts {
    /// `unix_ms` and `time` -1 (no time given), every other field 0, as
    /// Python's `compose` defaults: compose then needs only the fields one
    /// sets (`Parts { unix_ms, worker: 3, ..Parts::default() }`).
    fn default() -> Parts {
        Parts { id: 0, unix_ms: -1, time: -1, epoch: 0, datacenter: 0, worker: 0, sequence: 0 }
    }
}

impl From<ffi::Parts> for Parts {
    fn from(p: ffi::Parts) -> Parts {
        Parts {
            id: p.id,
            unix_ms: p.unix_ms,
            time: p.time,
            epoch: p.epoch,
            datacenter: p.datacenter,
            worker: p.worker,
            sequence: p.sequence,
        }
    }
}

impl From<&Parts> for ffi::Parts {
    fn from(p: &Parts) -> ffi::Parts {
        ffi::Parts {
            id: p.id,
            unix_ms: p.unix_ms,
            time: p.time,
            epoch: p.epoch,
            datacenter: p.datacenter,
            worker: p.worker,
            sequence: p.sequence,
        }
    }
}

/// The fields of a text id (`idgen_text_parts`): -1 where the form has
/// none. uuidv7 and ulid fill `unix_ms` only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TextParts {
    /// A numeric preset's id; -1 for text-only forms.
    pub id: i64,
    /// When it was made, ms since 1970 UTC; -1 if unknown.
    pub unix_ms: i64,
    /// The counter; -1 if none.
    pub sequence: i64,
    /// The process id bits the form keeps; -1 if none.
    pub pid: i64,
    /// rocketmq: the class-loader hash field; -1 if none.
    pub loader_hash: i64,
    /// The IP address the form carries (rocketmq: 4 or 16 bytes of `addr`).
    pub ip: Option<IpAddr>,
    /// The MAC address the form carries (rocketmq-v1: 6 bytes of `addr`).
    pub mac: Option<[u8; 6]>,
}

impl From<ffi::TextParts> for TextParts {
    fn from(p: ffi::TextParts) -> TextParts {
        let a = p.addr;
        let (ip, mac) = match p.addr_len {
            4 => (Some(IpAddr::V4(Ipv4Addr::new(a[0], a[1], a[2], a[3]))), None),
            16 => (Some(IpAddr::V6(Ipv6Addr::from(a))), None),
            6 => (None, Some([a[0], a[1], a[2], a[3], a[4], a[5]])),
            _ => (None, None),
        };
        TextParts {
            id: p.id,
            unix_ms: p.unix_ms,
            sequence: p.sequence,
            pid: p.pid,
            loader_hash: p.loader_hash,
            ip,
            mac,
        }
    }
}

/// Where a generator's lease stands (`IDGEN_LEASE_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum LeaseState {
    /// No lease: a fixed worker, a text preset, `lease=off`.
    None,
    /// Held, the last renewal acknowledged.
    Held,
    /// The store does not answer: issuing up to the fence.
    Riding,
    /// Past the fence or taken away: `Code::Worker` until leased again.
    Lost,
    /// A state this crate does not know yet.
    Other(i64),
}

impl From<i64> for LeaseState {
    fn from(v: i64) -> LeaseState {
        match v {
            0 => LeaseState::None,
            1 => LeaseState::Held,
            2 => LeaseState::Riding,
            3 => LeaseState::Lost,
            v => LeaseState::Other(v),
        }
    }
}

/// What a generator has done and where its lease stands (`idgen_stats`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Ids (numbers or text) handed out.
    pub issued: i64,
    /// Calls that waited for the next tick (a tick's sequence was used up).
    pub tick_waits: i64,
    /// Steps back of the clock handled.
    pub clock_backs: i64,
    /// How far the newest id's time runs ahead of the clock (borrowing), else 0.
    pub drift_ms: i64,
    /// Where the lease stands.
    pub lease_state: LeaseState,
    /// The pair held now (or fixed); -1 if none.
    pub datacenter: i64,
    /// The pair held now (or fixed); -1 if none.
    pub worker: i64,
    /// The highest time it may issue, ms since 1970; -1 without a lease.
    pub fence_unix_ms: i64,
    /// The last acknowledged fence write; -1 if none.
    pub renewed_unix_ms: i64,
    /// Acknowledged renewals.
    pub renewals: i64,
    /// Failed renewals.
    pub renewal_failures: i64,
    /// 1 at open, +1 for each re-lease or switch (0 without a lease).
    pub leases_taken: i64,
    /// This host's clock minus the store's (estimate); `i64::MIN` if unknown.
    pub skew_ms: i64,
    /// segment: values left in hand; -1 otherwise.
    pub segment_left: i64,
}

impl From<ffi::Stats> for Stats {
    fn from(s: ffi::Stats) -> Stats {
        Stats {
            issued: s.issued,
            tick_waits: s.tick_waits,
            clock_backs: s.clock_backs,
            drift_ms: s.drift_ms,
            lease_state: s.lease_state.into(),
            datacenter: s.datacenter,
            worker: s.worker,
            fence_unix_ms: s.fence_unix_ms,
            renewed_unix_ms: s.renewed_unix_ms,
            renewals: s.renewals,
            renewal_failures: s.renewal_failures,
            leases_taken: s.leases_taken,
            skew_ms: s.skew_ms,
            segment_left: s.segment_left,
        }
    }
}

/// What kind of ids a generator makes (`IDGEN_KIND_*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// 64-bit ids (`next`): the Snowflake family, zk-session, zxid.
    Numeric,
    /// `preset=uuidv7`: text only.
    Uuidv7,
    /// `preset=ulid`: text only.
    Ulid,
    /// `preset=rocketmq` and `rocketmq-v1`: text only.
    Rocketmq,
    /// `preset=segment`: a dense counter.
    Counter,
    /// Business numbers (reserved).
    Number,
    /// A kind this crate does not know yet.
    Other(i64),
}

impl From<i64> for Kind {
    fn from(v: i64) -> Kind {
        match v {
            1 => Kind::Numeric,
            2 => Kind::Uuidv7,
            3 => Kind::Ulid,
            4 => Kind::Rocketmq,
            5 => Kind::Counter,
            6 => Kind::Number,
            v => Kind::Other(v),
        }
    }
}

/// What a generator is (`idgen_get_info`), so that a host asks rather
/// than probes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Info {
    /// What it makes.
    pub kind: Kind,
    /// Whether it holds a lease or takes segments from a store.
    pub leased: bool,
    /// The unit of its time field in ns (1000000 for 1 ms); 0 without one.
    pub tick_ns: i64,
    /// The length of its text form; 0 when it varies (`text=dec`).
    pub text_len: i64,
    /// N of `runs=N`; 1 without runs.
    pub longest_run: i64,
}

impl From<ffi::Info> for Info {
    fn from(i: ffi::Info) -> Info {
        Info {
            kind: i.kind.into(),
            leased: i.leased != 0,
            tick_ns: i.tick_ns,
            text_len: i.text_len,
            longest_run: i.longest_run,
        }
    }
}
