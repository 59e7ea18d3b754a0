#![doc = include_str!("../README.md")]
#![deny(missing_docs)]
#![forbid(unsafe_op_in_unsafe_fn)]
// README.md's examples are whole programs (one is a build.rs), as a reader
// copies them; their fn main is not needless there.
#![allow(clippy::needless_doctest_main)]

mod error;
mod ffi;
mod generator;
mod types;

pub use error::{Code, Error, Result};
pub use generator::{metrics_text, version, Generator};
pub use types::{Info, Kind, LeaseState, Parts, Stats, TextParts};

/// A buffer length that holds every text form and its NUL
/// (`IDGEN_TEXT_MAX`), for [`Generator::next_text_into`].
pub const TEXT_MAX: usize = ffi::TEXT_MAX;
