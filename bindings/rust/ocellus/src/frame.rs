//! Frames: views valid during a callback, and retained copies (header section "Capture
//! sessions and video data outputs").
use crate::ffi;
use std::ptr::NonNull;

/// A frame: a view valid during the callback (`Frame<'_>`), or a retained copy (`RetainedFrame`).
pub struct Frame<'a> {
    pub(crate) raw: *const ffi::oc_frame,
    _callback: std::marker::PhantomData<&'a ()>,
}

impl Frame<'_> {
    /// The view of a frame being delivered to a callback.
    pub(crate) fn view(raw: *const ffi::oc_frame) -> Self {
        Frame { raw, _callback: std::marker::PhantomData }
    }
    /// Width in pixels.
    pub fn width(&self) -> u32 {
        unsafe { ffi::oc_frame_width(self.raw) }
    }
    /// Height in pixels.
    pub fn height(&self) -> u32 {
        unsafe { ffi::oc_frame_height(self.raw) }
    }
    /// The pixel format's name, e.g. "NV12".
    pub fn pixel_format(&self) -> String {
        crate::pixel_format_name(unsafe { ffi::oc_frame_pixel_format(self.raw) })
    }
    /// The camera's sequence number (gaps mean the camera or the library dropped frames).
    pub fn sequence(&self) -> u64 {
        unsafe { ffi::oc_frame_sequence(self.raw) }
    }
    /// CLOCK_MONOTONIC nanoseconds of the capture.
    pub fn timestamp_ns(&self) -> u64 {
        unsafe { ffi::oc_frame_timestamp_ns(self.raw) }
    }
    /// True for full-range samples (0–255, decoded JPEG), false for limited range (16–235).
    pub fn is_full_range(&self) -> bool {
        unsafe { ffi::oc_frame_is_full_range(self.raw) }
    }
    /// Number of planes (2 for NV12, 1 for packed and compressed formats).
    pub fn plane_count(&self) -> u32 {
        unsafe { ffi::oc_frame_plane_count(self.raw) }
    }
    /// Plane `index` as bytes and its stride, without a copy.
    pub fn plane(&self, index: u32) -> Option<(&[u8], u32)> {
        let (mut size, mut stride) = (0usize, 0u32);
        let data = unsafe { ffi::oc_frame_plane_data(self.raw, index, &mut size, &mut stride) };
        if data.is_null() {
            None
        } else {
            Some((unsafe { std::slice::from_raw_parts(data, size) }, stride))
        }
    }
    /// A copy that stays valid after the callback.
    pub fn retain(&self) -> Option<RetainedFrame> {
        NonNull::new(unsafe { ffi::oc_frame_retain(self.raw) }).map(|raw| RetainedFrame { raw })
    }
}

/// A frame kept beyond its callback; released on drop.
pub struct RetainedFrame {
    pub(crate) raw: NonNull<ffi::oc_frame>,
}

// SAFETY: a retained frame owns a copy of its bytes, released once by `oc_frame_release` on
// whichever thread drops it (not `Sync`: no shared access is needed).
unsafe impl Send for RetainedFrame {}

impl RetainedFrame {
    /// A view of the kept frame.
    pub fn frame(&self) -> Frame<'_> {
        Frame { raw: self.raw.as_ptr(), _callback: std::marker::PhantomData }
    }
}

impl Drop for RetainedFrame {
    fn drop(&mut self) {
        unsafe { ffi::oc_frame_release(self.raw.as_ptr()) }
    }
}
