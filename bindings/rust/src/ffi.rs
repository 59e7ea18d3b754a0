//! The C ABI of include/idgen.h: the functions this crate calls and the
//! structs they fill, field for field. Private: the safe API is in
//! generator.rs; nothing here is re-exported.

use std::os::raw::{c_char, c_int};

/// IDGEN_OK and the IDGEN_E* codes this crate names (error.rs maps them).
pub const OK: c_int = 0;
pub const EINVAL: c_int = -1;
pub const ECLOCK: c_int = -2;
pub const EOVERFLOW: c_int = -3;
pub const ECLOSED: c_int = -4;
pub const EWORKER: c_int = -5;
pub const ERANGE: c_int = -6;
pub const EFORKED: c_int = -7;
pub const EINTERNAL: c_int = -99;

/// IDGEN_TEXT_MAX: holds every text form and its NUL.
pub const TEXT_MAX: usize = 57;

/// idgen_t: an opaque token, never dereferenced.
#[repr(C)]
pub struct Handle {
    _private: [u8; 0],
}

/// idgen_parts.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct Parts {
    pub id: i64,
    pub unix_ms: i64,
    pub time: i64,
    pub epoch: i64,
    pub datacenter: i64,
    pub worker: i64,
    pub sequence: i64,
}

/// idgen_text_parts.
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct TextParts {
    pub id: i64,
    pub unix_ms: i64,
    pub sequence: i64,
    pub pid: i64,
    pub loader_hash: i64,
    pub addr_len: i32,
    pub addr: [u8; 16],
}

/// idgen_stats: fields are only ever appended (pass its size).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct Stats {
    pub issued: i64,
    pub tick_waits: i64,
    pub clock_backs: i64,
    pub drift_ms: i64,
    pub lease_state: i64,
    pub datacenter: i64,
    pub worker: i64,
    pub fence_unix_ms: i64,
    pub renewed_unix_ms: i64,
    pub renewals: i64,
    pub renewal_failures: i64,
    pub leases_taken: i64,
    pub skew_ms: i64,
    pub segment_left: i64,
}

/// idgen_info: fields are only ever appended (pass its size).
#[repr(C)]
#[derive(Clone, Copy, Default)]
pub struct Info {
    pub kind: i64,
    pub leased: i64,
    pub tick_ns: i64,
    pub text_len: i64,
    pub longest_run: i64,
}

// The sizes include/idgen.h gives these structs on LP64 (x86-64, aarch64).
const _: () = assert!(std::mem::size_of::<Parts>() == 56);
const _: () = assert!(std::mem::size_of::<TextParts>() == 64);
const _: () = assert!(std::mem::size_of::<Stats>() == 112);
const _: () = assert!(std::mem::size_of::<Info>() == 40);

extern "C" {
    pub fn idgen_version() -> *const c_char;
    pub fn idgen_strerror(status: c_int) -> *const c_char;
    pub fn idgen_last_error() -> *const c_char;
    pub fn idgen_open(config: *const c_char, out: *mut *mut Handle) -> c_int;
    pub fn idgen_close(g: *mut Handle);
    pub fn idgen_next(g: *mut Handle) -> i64;
    pub fn idgen_next_batch(g: *mut Handle, out: *mut i64, n: usize) -> c_int;
    pub fn idgen_decode_with(g: *mut Handle, id: i64, out: *mut Parts) -> c_int;
    pub fn idgen_compose(g: *mut Handle, parts: *const Parts, out: *mut i64) -> c_int;
    pub fn idgen_config_string(g: *mut Handle, buf: *mut c_char, cap: usize) -> c_int;
    pub fn idgen_get_stats(g: *mut Handle, out: *mut Stats, size: usize) -> c_int;
    pub fn idgen_get_info(g: *mut Handle, out: *mut Info, size: usize) -> c_int;
    pub fn idgen_metrics_text(buf: *mut c_char, cap: usize) -> i64;
    pub fn idgen_next_text(g: *mut Handle, buf: *mut c_char, cap: usize) -> c_int;
    pub fn idgen_decode_text(g: *mut Handle, text: *const c_char, out: *mut TextParts) -> c_int;
}
