//! Strings across the C boundary: the library's to Rust, and Rust's checked for NUL bytes.
use crate::{ffi, Error, ErrorKind, Result};
use std::ffi::{CStr, CString};
use std::os::raw::c_char;

pub(crate) fn text(raw: *const c_char) -> Option<String> {
    if raw.is_null() {
        None
    } else {
        Some(unsafe { CStr::from_ptr(raw) }.to_string_lossy().into_owned())
    }
}

pub(crate) fn c_string(value: &str, what: &str) -> Result<CString> {
    CString::new(value).map_err(|_| Error {
        kind: ErrorKind::InvalidArgument,
        status: ffi::OC_ERROR_INVALID_ARGUMENT,
        message: format!("{} contains a NUL byte", what),
    })
}
