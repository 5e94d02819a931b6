//! What every callback shares: a panic in an app's closure never unwinds into C.
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs an app's closure for a C trampoline. A panic must not unwind into the library's
/// thread (undefined behaviour across `extern "C"`): it is contained and reported on stderr,
/// and the library goes on. Every trampoline goes through here.
pub(crate) fn contain_panic(what: &str, closure: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(closure)).is_err() {
        eprintln!("ocellus: {what} panicked; the panic was contained");
    }
}
