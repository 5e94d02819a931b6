//! Video data outputs (header section "Capture sessions and video data outputs").
use crate::{check, contain_panic, ffi, Frame, Result, RetainedFrame};
use std::os::raw::c_void;
use std::ptr::{self, NonNull};

type FrameClosure = Box<dyn FnMut(&Frame<'_>) + Send + 'static>;

/// Frames for one consumer; destroyed on drop (after leaving its session).
pub struct VideoDataOutput {
    pub(crate) raw: NonNull<ffi::oc_video_data_output>,
    callback: Option<Box<FrameClosure>>,
}

// SAFETY: the output handle has no thread affinity (the header lets its functions run on any
// thread), and the closure it owns is `Send`.
unsafe impl Send for VideoDataOutput {}

impl VideoDataOutput {
    pub(crate) fn raw(&self) -> *mut ffi::oc_video_data_output {
        self.raw.as_ptr()
    }

    /// `pixel_format` by name, e.g. "NV12", "BGR24", "MJPEG" (None: the camera's); `size` (None: the camera's).
    pub fn new(pixel_format: Option<&str>, size: Option<(u32, u32)>) -> Result<VideoDataOutput> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_video_data_output_create(&mut raw) })?;
        let output = VideoDataOutput { raw: NonNull::new(raw).expect("output handle"), callback: None };
        let code = match pixel_format {
            Some(name) => crate::pixel_format_code(name)?,
            None => 0,
        };
        let (width, height) = size.unwrap_or((0, 0));
        check(unsafe { ffi::oc_video_data_output_set_format(output.raw.as_ptr(), code, width, height) })?;
        Ok(output)
    }

    /// The newest frame not yet taken, waiting up to `timeout` for one: one frame is kept,
    /// never a queue, so a slow reader gets the latest. A `Timeout` error when none came; the
    /// error that stopped the session when it stopped on its own (`Disconnected` for an
    /// unplugged camera, `Timeout` for a stalled one); `WrongState` when no frame can come.
    /// Not from a frame callback of the same session (it would wait for itself).
    pub fn next_frame(&self, timeout: std::time::Duration) -> Result<RetainedFrame> {
        let mut raw = ptr::null_mut();
        let milliseconds = u32::try_from(timeout.as_millis()).unwrap_or(u32::MAX);
        let status = unsafe { ffi::oc_video_data_output_copy_next_frame(self.raw.as_ptr(), milliseconds, &mut raw) };
        if status == ffi::OC_ERROR_WRONG_STATE {
            check(unsafe { ffi::oc_video_data_output_get_stop_status(self.raw.as_ptr()) })?;
        }
        check(status)?;
        Ok(RetainedFrame { raw: NonNull::new(raw).expect("pulled frame") })
    }

    /// Every frame as it comes (the newest when the loop body is slow), until the output
    /// stops delivering for `timeout` or fails.
    pub fn frames(&self, timeout: std::time::Duration) -> impl Iterator<Item = RetainedFrame> + '_ {
        std::iter::from_fn(move || self.next_frame(timeout).ok())
    }

    /// A descriptor readable while a frame waits for `next_frame` (for poll/epoll or an async
    /// reactor); owned by the output.
    pub fn pollable_fd(&self) -> Result<std::os::raw::c_int> {
        let mut fd = -1;
        check(unsafe { ffi::oc_video_data_output_get_pollable_fd(self.raw.as_ptr(), &mut fd) })?;
        Ok(fd)
    }

    /// Calls `callback` for each frame, one at a time, on a library thread: the stream's while this
    /// is the session's only output, else the output's own, so a slow callback holds up only this
    /// output (panics are contained).
    pub fn set_frame_callback<F>(&mut self, callback: F) -> Result<()>
    where
        F: FnMut(&Frame<'_>) + Send + 'static,
    {
        let mut boxed: Box<FrameClosure> = Box::new(Box::new(callback));
        let user_data = &mut *boxed as *mut FrameClosure as *mut c_void;
        // The library waits for a call in flight before replacing, so the old box can go after.
        check(unsafe { ffi::oc_video_data_output_set_frame_callback(self.raw.as_ptr(), Some(frame_trampoline), user_data) })?;
        self.callback = Some(boxed);
        Ok(())
    }

    /// Turns the pixels clockwise by a right angle (costly; prefer rotating the display layer).
    pub fn set_rotation_angle(&self, degrees: i32) -> Result<()> {
        check(unsafe { ffi::oc_video_data_output_set_rotation_angle(self.raw.as_ptr(), degrees) })
    }

    /// Flips the pixels (None: the default, unflipped).
    pub fn set_mirrored(&self, mirrored: Option<bool>) -> Result<()> {
        check(unsafe { ffi::oc_video_data_output_set_mirrored(self.raw.as_ptr(), mirrored.map_or(-1, |m| m as i32)) })
    }

    /// Whether YUV frames (NV12, I420, YUYV, UYVY) come in full range (0–255) instead of video
    /// range (luma 16–235, what OpenCV's `COLOR_YUV2BGR_*` codes expect; the default). RGB is
    /// always full range and GRAY8 full-range luma. Takes effect at the next commit or start.
    pub fn set_full_range(&self, full: bool) -> Result<()> {
        let range = if full { ffi::OC_COLOR_RANGE_FULL } else { ffi::OC_COLOR_RANGE_VIDEO };
        check(unsafe { ffi::oc_video_data_output_set_color_range(self.raw.as_ptr(), range) })
    }

    /// Whether YUV frames come in full range (see [`VideoDataOutput::set_full_range`]).
    pub fn full_range(&self) -> bool {
        unsafe { ffi::oc_video_data_output_get_color_range(self.raw.as_ptr()) == ffi::OC_COLOR_RANGE_FULL }
    }

    /// Frames delivered to this output so far.
    pub fn delivered_frames(&self) -> u64 {
        unsafe { ffi::oc_video_data_output_delivered_frames(self.raw.as_ptr()) }
    }
}

impl Drop for VideoDataOutput {
    fn drop(&mut self) {
        unsafe { ffi::oc_video_data_output_destroy(self.raw.as_ptr()) }
    }
}

unsafe extern "C" fn frame_trampoline(
    _output: *mut ffi::oc_video_data_output,
    frame: *const ffi::oc_frame,
    user_data: *mut c_void,
) {
    let callback = &mut *(user_data as *mut FrameClosure);
    let view = Frame::view(frame);
    contain_panic("a frame callback", || callback(&view));
}
