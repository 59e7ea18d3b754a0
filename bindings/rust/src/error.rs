//! Error and Code: a failed call's IDGEN_E* status and the library's own
//! words for it (idgen_last_error, read in the failing thread).

use std::ffi::CStr;
use std::fmt;
use std::os::raw::{c_char, c_int};

use crate::ffi;

/// What kind of failure an [`Error`] is: one variant per `IDGEN_E*` status
/// of include/idgen.h.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Code {
    /// `IDGEN_EINVAL`: a bad argument or configuration (the message names
    /// the key), bad text, an id of the wrong layout.
    Invalid,
    /// `IDGEN_ECLOCK`: the clock went back beyond tolerance, or a lease
    /// predecessor's record lies ahead of the clock by more than `max_wait`.
    Clock,
    /// `IDGEN_EOVERFLOW`: the layout's time or epoch range is used up.
    Overflow,
    /// `IDGEN_ECLOSED`: the handle is closed or unknown.
    Closed,
    /// `IDGEN_EWORKER`: no worker id could be had, or its lease was lost.
    Worker,
    /// `IDGEN_ERANGE`: a value or a buffer does not fit.
    Range,
    /// `IDGEN_EFORKED`: called in a child forked after the library was loaded.
    Forked,
    /// `IDGEN_EINTERNAL` (a bug in idgen), and any status this crate does
    /// not know yet ([`Error::status`] keeps the number).
    Internal,
}

impl Code {
    /// The code of a C status (a negative `IDGEN_E*`).
    pub fn from_status(status: i32) -> Code {
        match status {
            ffi::EINVAL => Code::Invalid,
            ffi::ECLOCK => Code::Clock,
            ffi::EOVERFLOW => Code::Overflow,
            ffi::ECLOSED => Code::Closed,
            ffi::EWORKER => Code::Worker,
            ffi::ERANGE => Code::Range,
            ffi::EFORKED => Code::Forked,
            _ => Code::Internal,
        }
    }

    /// The C status of this code (`IDGEN_EINVAL` is -1, ...).
    pub fn status(self) -> i32 {
        match self {
            Code::Invalid => ffi::EINVAL,
            Code::Clock => ffi::ECLOCK,
            Code::Overflow => ffi::EOVERFLOW,
            Code::Closed => ffi::ECLOSED,
            Code::Worker => ffi::EWORKER,
            Code::Range => ffi::ERANGE,
            Code::Forked => ffi::EFORKED,
            Code::Internal => ffi::EINTERNAL,
        }
    }

    /// The library's name for the code (`idgen_strerror`).
    pub fn describe(self) -> &'static str {
        strerror(self.status())
    }
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// A failed call: its [`Code`] and the library's message (what
/// `idgen_last_error` said in the failing thread, else `idgen_strerror`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    status: i32,
    message: String,
}

/// `std::result::Result` with this crate's [`Error`].
pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// What kind of failure this is.
    pub fn code(&self) -> Code {
        Code::from_status(self.status)
    }

    /// The C status as the library returned it (a negative `IDGEN_E*`).
    pub fn status(&self) -> i32 {
        self.status
    }

    /// The library's message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The error of a failed call that returned `status` (< 0), taken in
    /// the failing thread right after the call.
    pub(crate) fn last(status: i32) -> Error {
        // SAFETY: idgen_last_error never returns NULL; its text is valid
        // until this thread's next failing call, and is copied at once.
        let text = unsafe { text_of(ffi::idgen_last_error()) };
        let message = if text.is_empty() { strerror(status).to_owned() } else { text.into_owned() };
        Error { status, message }
    }

    /// An argument this crate cannot hand to C at all: a string with a NUL
    /// byte inside (C would read it as ending there). The one message that
    /// is not the library's.
    pub(crate) fn nul(what: &str, at: usize) -> Error {
        Error {
            status: ffi::EINVAL,
            message: format!("{what} has a NUL byte at offset {at}, which C strings cannot carry"),
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Ok for IDGEN_OK (and any count >= 0), else the thread's last error.
pub(crate) fn check(status: c_int) -> Result<()> {
    if status < ffi::OK {
        Err(Error::last(status))
    } else {
        Ok(())
    }
}

/// The static text of a status code (`idgen_strerror`).
fn strerror(status: i32) -> &'static str {
    // SAFETY: idgen_strerror returns static text, never NULL; the library
    // is never unloaded, so the text lives as long as the process.
    let text: &'static CStr = unsafe { CStr::from_ptr(ffi::idgen_strerror(status)) };
    text.to_str().unwrap_or("unknown status")
}

/// A library-owned C string as text (lossy: the library writes UTF-8).
///
/// # Safety
/// `p` must be NULL or point at a NUL-terminated string that stays valid
/// while the result is borrowed.
pub(crate) unsafe fn text_of<'a>(p: *const c_char) -> std::borrow::Cow<'a, str> {
    if p.is_null() {
        return std::borrow::Cow::Borrowed("");
    }
    // SAFETY: as the caller promises.
    unsafe { CStr::from_ptr(p) }.to_string_lossy()
}
