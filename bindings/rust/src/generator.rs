//! Generator: one generator of the library, opened from a configuration
//! string and closed on drop. Each method is one C call (config and
//! metrics_text: one more when the first buffer was too small).

use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::c_char;
use std::ptr::{self, NonNull};

use crate::error::{check, Error, Result};
use crate::ffi;
use crate::types::{Info, Parts, Stats, TextParts};

/// An id generator of libidgen.so, opened from a configuration string
/// (README.md, "Configuration": the same string means the same generator
/// in every language).
///
/// Thread-safe: share it (`&Generator`, `Arc<Generator>`) across threads;
/// ids from one generator strictly increase across all of them. Dropping
/// it closes it and releases its lease, if any.
pub struct Generator {
    handle: NonNull<ffi::Handle>,
}

// SAFETY: the handle is a token the library looks up in its registry and
// never dereferences; every idgen_* function may be called from any thread,
// concurrently (include/idgen.h, THREADS).
unsafe impl Send for Generator {}
// SAFETY: as above: no method takes the token's state in Rust.
unsafe impl Sync for Generator {}

/// A Rust string as a C string; a NUL inside is `Code::Invalid`.
fn c_string(text: &str, what: &str) -> Result<CString> {
    CString::new(text).map_err(|e| Error::nul(what, e.nul_position()))
}

impl Generator {
    /// Opens a generator (`idgen_open`). `""` means the defaults:
    /// `preset=snowflake` with a host lease (`worker=lease`).
    ///
    /// May wait: a leased worker waits out a predecessor's recorded time
    /// (up to `max_wait`). Fails with `Code::Invalid` for a bad
    /// configuration (the message names the key), `Code::Worker` when no
    /// worker id can be had, `Code::Clock` when a predecessor's record is
    /// not passed within `max_wait`.
    pub fn open(config: &str) -> Result<Generator> {
        let config = c_string(config, "config")?;
        let mut out: *mut ffi::Handle = ptr::null_mut();
        // SAFETY: config is NUL-terminated and outlives the call; out is a
        // valid place for the handle.
        check(unsafe { ffi::idgen_open(config.as_ptr(), &mut out) })?;
        // The library stores a non-NULL token on success; were it ever NULL,
        // the next call would report it (never a crash), so make it Closed
        // here rather than keep a NULL.
        NonNull::new(out).map(|handle| Generator { handle }).ok_or_else(|| Error::last(ffi::ECLOSED))
    }

    fn h(&self) -> *mut ffi::Handle {
        self.handle.as_ptr()
    }

    /// The next id (`idgen_next`), >= 0. May wait for the next tick when
    /// the tick's sequence is used up. Fails with `Code::Clock`,
    /// `Code::Overflow`, `Code::Worker` (lease lost), `Code::Invalid` on a
    /// text preset or with `lease=off`.
    pub fn next(&self) -> Result<i64> {
        // SAFETY: a token of an open generator; the call reads nothing else.
        let id = unsafe { ffi::idgen_next(self.h()) };
        if id < 0 {
            // The statuses are small negative ints.
            return Err(Error::last(id as i32));
        }
        Ok(id)
    }

    /// Fills `out` with strictly increasing ids (`idgen_next_batch`),
    /// reserving a whole run per tick; an empty slice is fine. On failure
    /// before the first id nothing is written; a failure midway (the time
    /// range running out) leaves the ids consumed in a prefix.
    pub fn next_batch(&self, out: &mut [i64]) -> Result<()> {
        // SAFETY: out is valid for out.len() writes of i64 (for an empty
        // slice the library writes nothing and ignores the pointer).
        check(unsafe { ffi::idgen_next_batch(self.h(), out.as_mut_ptr(), out.len()) })
    }

    /// `n` strictly increasing ids in a new vector (see [`next_batch`](Self::next_batch)).
    pub fn next_ids(&self, n: usize) -> Result<Vec<i64>> {
        let mut ids = vec![0; n];
        self.next_batch(&mut ids)?;
        Ok(ids)
    }

    /// The next id as text (`idgen_next_text`): the text presets' form
    /// (rocketmq, rocketmq-v1, uuidv7, ulid), or a numeric preset's `text=`
    /// form (`dec`, `base36`, `base62`).
    pub fn next_text(&self) -> Result<String> {
        let mut buf = [0u8; ffi::TEXT_MAX];
        self.next_text_into(&mut buf).map(str::to_owned)
    }

    /// [`next_text`](Self::next_text) without allocating: writes the text
    /// and its NUL into `buf` and returns the text. `buf` must hold the
    /// form's longest text and its NUL ([`TEXT_MAX`](crate::TEXT_MAX)
    /// always does); a smaller one is `Code::Range` and consumes no id.
    pub fn next_text_into<'a>(&self, buf: &'a mut [u8]) -> Result<&'a str> {
        // SAFETY: buf is valid for buf.len() bytes; the library writes at
        // most that many, only on success.
        let n = unsafe { ffi::idgen_next_text(self.h(), buf.as_mut_ptr().cast::<c_char>(), buf.len()) };
        check(n)?;
        // The library writes ASCII; n < buf.len() on success.
        let text = &buf[..n as usize];
        Ok(std::str::from_utf8(text).unwrap_or_default())
    }

    /// The fields of an id of this generator's layout (`idgen_decode_with`).
    /// `Code::Invalid` for a negative id or one with bits above the layout,
    /// `Code::Range` for one whose time lies beyond i64 ms.
    pub fn decode(&self, id: i64) -> Result<Parts> {
        let mut out = ffi::Parts::default();
        // SAFETY: out is a valid idgen_parts.
        check(unsafe { ffi::idgen_decode_with(self.h(), id, &mut out) })?;
        Ok(out.into())
    }

    /// Builds an id from its fields (`idgen_compose`), the inverse of
    /// [`decode`](Self::decode): `unix_ms` is used unless it is negative,
    /// then the raw `time`; `id` is ignored. A field the layout lacks must
    /// be -1 or 0 (`Code::Invalid`); a value that does not fit is
    /// `Code::Range`, never truncated.
    pub fn compose(&self, parts: &Parts) -> Result<i64> {
        let input = ffi::Parts::from(parts);
        let mut out = 0i64;
        // SAFETY: input and out are valid for the call.
        check(unsafe { ffi::idgen_compose(self.h(), &input, &mut out) })?;
        Ok(out)
    }

    /// The fields of a text id of this generator's form
    /// (`idgen_decode_text`). Text that is not exactly that form is
    /// `Code::Invalid`.
    pub fn decode_text(&self, text: &str) -> Result<TextParts> {
        let text = c_string(text, "text")?;
        let mut out = ffi::TextParts::default();
        // SAFETY: text is NUL-terminated; out is a valid idgen_text_parts.
        check(unsafe { ffi::idgen_decode_text(self.h(), text.as_ptr(), &mut out) })?;
        Ok(out.into())
    }

    /// What this generator has done and where its lease stands
    /// (`idgen_get_stats`). Never waits for a lease store.
    pub fn stats(&self) -> Result<Stats> {
        let mut out = ffi::Stats::default();
        // SAFETY: out is valid for size_of::<Stats>() bytes.
        check(unsafe { ffi::idgen_get_stats(self.h(), &mut out, std::mem::size_of::<ffi::Stats>()) })?;
        Ok(out.into())
    }

    /// What this generator is (`idgen_get_info`): its kind, whether it is
    /// leased, its tick, its text length, its longest run. Never waits.
    pub fn info(&self) -> Result<Info> {
        let mut out = ffi::Info::default();
        // SAFETY: out is valid for size_of::<Info>() bytes.
        check(unsafe { ffi::idgen_get_info(self.h(), &mut out, std::mem::size_of::<ffi::Info>()) })?;
        Ok(out.into())
    }

    /// The effective configuration (`idgen_config_string`): pid/mac
    /// resolved to numbers, a lease source kept as a source with the pair
    /// held as `leased=D/W`. Opening it gives a generator of the same
    /// layout (which leases again).
    pub fn config(&self) -> Result<String> {
        let mut cap = 256;
        loop {
            let mut buf = vec![0u8; cap];
            // SAFETY: buf is valid for cap bytes; written only on success.
            let rc = unsafe { ffi::idgen_config_string(self.h(), buf.as_mut_ptr().cast::<c_char>(), cap) };
            if rc == ffi::ERANGE && cap < 1 << 20 {
                cap *= 4;
                continue;
            }
            check(rc)?;
            return Ok(nul_terminated(&buf));
        }
    }
}

/// The text before the first NUL of a buffer the library filled.
fn nul_terminated(buf: &[u8]) -> String {
    match CStr::from_bytes_until_nul(buf) {
        Ok(s) => s.to_string_lossy().into_owned(),
        Err(_) => String::from_utf8_lossy(buf).into_owned(),
    }
}

impl Drop for Generator {
    /// Closes the generator and releases its lease (`idgen_close`).
    fn drop(&mut self) {
        // SAFETY: the token is this generator's; closing is harmless in
        // every state, and no call can use it after drop.
        unsafe { ffi::idgen_close(self.h()) }
    }
}

impl fmt::Debug for Generator {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Generator").field("handle", &self.handle).finish()
    }
}

/// The library's version, `"MAJOR.MINOR.PATCH"` (`idgen_version`).
pub fn version() -> &'static str {
    // SAFETY: static text, never NULL; the library is never unloaded.
    let v: &'static CStr = unsafe { CStr::from_ptr(ffi::idgen_version()) };
    v.to_str().unwrap_or_default()
}

/// Every open generator of the process in the Prometheus text format
/// 0.0.4 (`idgen_metrics_text`; docs/ABI.md, "Metrics").
pub fn metrics_text() -> Result<String> {
    // SAFETY: (NULL, 0) asks the length and writes nothing.
    let mut need = unsafe { ffi::idgen_metrics_text(ptr::null_mut(), 0) };
    loop {
        check_len(need)?;
        // Room to spare: the text changes between calls.
        let cap = need as usize + 1024;
        let mut buf = vec![0u8; cap];
        // SAFETY: buf is valid for cap bytes; written only when it fits.
        need = unsafe { ffi::idgen_metrics_text(buf.as_mut_ptr().cast::<c_char>(), cap) };
        check_len(need)?;
        if (need as usize) < cap {
            return Ok(nul_terminated(&buf));
        }
    }
}

/// Ok for a length (>= 0), else the error of its status.
fn check_len(n: i64) -> Result<()> {
    if n < 0 {
        return Err(Error::last(n as i32));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Code;

    /// A generator closed under its owner (only the C ABI can do this;
    /// Generator itself closes on drop only): every call is Closed, with
    /// the library's message, and drop's second close is harmless.
    #[test]
    fn closed_handle_is_closed_with_the_library_message() {
        let g = Generator::open("preset=snowflake worker=1").unwrap();
        // SAFETY: the token is valid; closing it twice is harmless.
        unsafe { ffi::idgen_close(g.h()) };
        let e = g.next().unwrap_err();
        assert_eq!(e.code(), Code::Closed);
        assert_eq!(e.status(), -4);
        assert!(!e.message().is_empty());
        assert_eq!(g.next_ids(3).unwrap_err().code(), Code::Closed);
        assert_eq!(g.decode(0).unwrap_err().code(), Code::Closed);
        assert_eq!(g.stats().unwrap_err().code(), Code::Closed);
        assert_eq!(g.info().unwrap_err().code(), Code::Closed);
        assert_eq!(g.config().unwrap_err().code(), Code::Closed);
        assert_eq!(g.next_text().unwrap_err().code(), Code::Closed);
        assert_eq!(g.compose(&Parts::default()).unwrap_err().code(), Code::Closed);
        drop(g);
    }

    #[test]
    fn every_status_maps_to_its_code_and_back() {
        for (status, code) in [
            (-1, Code::Invalid),
            (-2, Code::Clock),
            (-3, Code::Overflow),
            (-4, Code::Closed),
            (-5, Code::Worker),
            (-6, Code::Range),
            (-7, Code::Forked),
            (-99, Code::Internal),
        ] {
            assert_eq!(Code::from_status(status), code);
            assert_eq!(code.status(), status);
            assert!(!code.describe().is_empty() && code.describe() != "unknown status", "{code:?}");
        }
        assert_eq!(Code::from_status(-1234), Code::Internal);
        let e = Error::last(-1234);
        assert_eq!((e.code(), e.status()), (Code::Internal, -1234));
    }
}
