//! Errors: each `oc_status` below zero as an [`Error`] with the library's message (header
//! section "Status codes and errors").
use crate::{ffi, text};
use std::fmt;

/// What kind of failure an [`Error`] is; mirrors `oc_status` (new statuses may be added).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An argument was missing, out of range or malformed.
    InvalidArgument,
    /// A handle was already destroyed or released.
    InvalidHandle,
    /// A backend (the PipeWire daemon) could not be reached or went away.
    BackendUnavailable,
    /// The device, format or registration asked for does not exist.
    NotFound,
    /// The call is not allowed in the object's current state.
    WrongState,
    /// An operation did not complete in time.
    Timeout,
    /// Memory or another resource ran out (including USB bandwidth).
    NoResources,
    /// The device is in use by another client.
    Busy,
    /// The device went away.
    Disconnected,
    /// Reading or writing a file failed, or data was corrupt.
    Io,
    /// An optional library Ocellus loads on first use (FFmpeg) is not installed.
    LibraryUnavailable,
    /// The app may not use the camera: the portal or the user refused, or the system's permissions.
    PermissionDenied,
    /// Anything else; the message says what.
    Other,
}

/// A failed library call, with the library's own message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The kind of failure.
    pub kind: ErrorKind,
    /// The library's `oc_status` code (negative).
    pub status: i32,
    /// What went wrong, in the library's words.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({:?})", self.message, self.kind)
    }
}

impl std::error::Error for Error {}

/// The result of a fallible call.
pub type Result<T> = std::result::Result<T, Error>;

pub(crate) fn last_error(status: i32) -> Error {
    error(status, text(unsafe { ffi::oc_last_error_message() }).unwrap_or_default())
}

/// The error for a status code and its message (as callbacks report them).
pub(crate) fn error(status: i32, message: String) -> Error {
    let kind = match status {
        ffi::OC_ERROR_INVALID_ARGUMENT => ErrorKind::InvalidArgument,
        ffi::OC_ERROR_INVALID_HANDLE => ErrorKind::InvalidHandle,
        ffi::OC_ERROR_BACKEND_UNAVAILABLE => ErrorKind::BackendUnavailable,
        ffi::OC_ERROR_NOT_FOUND => ErrorKind::NotFound,
        ffi::OC_ERROR_WRONG_STATE => ErrorKind::WrongState,
        ffi::OC_ERROR_TIMEOUT => ErrorKind::Timeout,
        ffi::OC_ERROR_NO_RESOURCES => ErrorKind::NoResources,
        ffi::OC_ERROR_BUSY => ErrorKind::Busy,
        ffi::OC_ERROR_DISCONNECTED => ErrorKind::Disconnected,
        ffi::OC_ERROR_IO => ErrorKind::Io,
        ffi::OC_ERROR_LIBRARY_UNAVAILABLE => ErrorKind::LibraryUnavailable,
        ffi::OC_ERROR_PERMISSION_DENIED => ErrorKind::PermissionDenied,
        _ => ErrorKind::Other,
    };
    Error { kind, status, message }
}

pub(crate) fn check(status: i32) -> Result<()> {
    if status < 0 {
        Err(last_error(status))
    } else {
        Ok(())
    }
}
