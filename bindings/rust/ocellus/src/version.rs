//! The library's version (header section "Version").
use crate::{ffi, text};

/// The version of the loaded library.
pub fn version() -> String {
    text(unsafe { ffi::oc_version() }).unwrap_or_default()
}
