//! Discovery sessions (header section "Discovery sessions").
use crate::{check, ffi, Context, Device, Result};
use std::ptr::{self, NonNull};

/// A live, filtered view of a context's devices; destroyed on drop.
pub struct DiscoverySession {
    pub(crate) raw: NonNull<ffi::oc_discovery_session>,
    pub(crate) _context: Context,
}

impl DiscoverySession {
    /// The matching connected devices now, in the default order.
    pub fn devices(&self) -> Result<Vec<Device>> {
        let mut list = ptr::null_mut();
        check(unsafe { ffi::oc_discovery_session_copy_devices(self.raw.as_ptr(), &mut list) })?;
        let count = unsafe { ffi::oc_device_list_count(list) };
        let devices = (0..count).map(|i| Device::retain(unsafe { ffi::oc_device_list_get(list, i) })).collect();
        unsafe { ffi::oc_device_list_free(list) };
        devices
    }
}

impl Drop for DiscoverySession {
    fn drop(&mut self) {
        unsafe { ffi::oc_discovery_session_destroy(self.raw.as_ptr()) }
    }
}
