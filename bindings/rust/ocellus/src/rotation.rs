//! The rotation coordinator (header section "Rotation coordinator").
use crate::{check, ffi, Context, Device, Result};
use std::ptr::{self, NonNull};

/// behaviour §3 preview and capture angles (clockwise degrees) for one camera; destroyed on drop.
pub struct RotationCoordinator {
    pub(crate) raw: NonNull<ffi::oc_rotation_coordinator>,
    _context: Context,
}

impl Context {
    /// A coordinator for `camera`; `mirrored` None for the camera's default.
    pub fn rotation_coordinator(&self, camera: &Device, mirrored: Option<bool>) -> Result<RotationCoordinator> {
        let mut raw = ptr::null_mut();
        let mode = mirrored.map_or(-1, |m| m as i32);
        check(unsafe { ffi::oc_rotation_coordinator_create(self.raw.as_ptr(), camera.raw.as_ptr(), mode, &mut raw) })?;
        Ok(RotationCoordinator { raw: NonNull::new(raw).expect("coordinator handle"), _context: self.clone() })
    }
}

impl RotationCoordinator {
    /// (preview, capture).
    pub fn angles(&self) -> (i32, i32) {
        let (mut preview, mut capture) = (0, 0);
        unsafe { ffi::oc_rotation_coordinator_get_angles(self.raw.as_ptr(), &mut preview, &mut capture) };
        (preview, capture)
    }
    /// Whether the coordinator computes for a mirrored preview.
    pub fn is_mirrored(&self) -> bool {
        unsafe { ffi::oc_rotation_coordinator_is_mirrored(self.raw.as_ptr()) }
    }
    /// How the device holding the camera is turned, clockwise degrees (0, 90, 180, 270).
    pub fn set_host_orientation(&self, degrees: i32) -> Result<()> {
        check(unsafe { ffi::oc_rotation_coordinator_set_host_orientation(self.raw.as_ptr(), degrees) })
    }
    /// None: the UI follows the device.
    pub fn set_interface_orientation(&self, degrees: Option<i32>) -> Result<()> {
        let value = degrees.unwrap_or(ffi::OC_INTERFACE_FOLLOWS_DEVICE);
        check(unsafe { ffi::oc_rotation_coordinator_set_interface_orientation(self.raw.as_ptr(), value) })
    }
    /// An external camera's correction, kept for the camera across restarts.
    pub fn set_mounting_correction(&self, degrees: i32) -> Result<()> {
        check(unsafe { ffi::oc_rotation_coordinator_set_mounting_correction(self.raw.as_ptr(), degrees) })
    }
}

impl Drop for RotationCoordinator {
    fn drop(&mut self) {
        unsafe { ffi::oc_rotation_coordinator_destroy(self.raw.as_ptr()) }
    }
}
