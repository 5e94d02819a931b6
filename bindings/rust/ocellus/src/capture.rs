//! Capture sessions, video data outputs and frames (behaviour §4).
use crate::{check, contain_panic, ffi, Context, Device, Result};
use std::os::raw::c_void;
use std::ptr::{self, NonNull};

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
    raw: NonNull<ffi::oc_frame>,
}

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

type FrameClosure = Box<dyn FnMut(&Frame<'_>) + Send + 'static>;

/// Frames for one consumer; destroyed on drop (after leaving its session).
pub struct VideoDataOutput {
    raw: NonNull<ffi::oc_video_data_output>,
    callback: Option<Box<FrameClosure>>,
}

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

unsafe extern "C" fn frame_trampoline(_output: *mut ffi::oc_video_data_output, frame: *const ffi::oc_frame, user_data: *mut c_void) {
    let callback = &mut *(user_data as *mut FrameClosure);
    let view = Frame::view(frame);
    contain_panic("a frame callback", || callback(&view));
}

/// An input camera, outputs and one stream feeding them; stopped and destroyed on drop.
pub struct CaptureSession<'ctx> {
    raw: NonNull<ffi::oc_capture_session>,
    _context: &'ctx Context,
}

unsafe impl Send for CaptureSession<'_> {}

impl Context {
    /// A new capture session on this context's cameras.
    pub fn capture_session(&self) -> Result<CaptureSession<'_>> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_capture_session_create(self.raw.as_ptr(), &mut raw) })?;
        Ok(CaptureSession { raw: NonNull::new(raw).expect("session handle"), _context: self })
    }
}

impl CaptureSession<'_> {
    pub(crate) fn raw(&self) -> *mut ffi::oc_capture_session {
        self.raw.as_ptr()
    }
    /// Makes `camera` the session's input (switching a running session).
    pub fn set_input(&self, camera: &Device) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_set_input(self.raw.as_ptr(), camera.raw.as_ptr()) })
    }
    /// Adds an output; keep the `VideoDataOutput` alive while the session uses it.
    pub fn add_output(&self, output: &VideoDataOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_add_output(self.raw.as_ptr(), output.raw.as_ptr()) })
    }
    /// Removes an output added with [`CaptureSession::add_output`].
    pub fn remove_output(&self, output: &VideoDataOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_remove_output(self.raw.as_ptr(), output.raw.as_ptr()) })
    }
    /// Starts a batch of changes applied together by [`CaptureSession::commit_configuration`].
    pub fn begin_configuration(&self) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_begin_configuration(self.raw.as_ptr()) })
    }
    /// Applies the batch started by [`CaptureSession::begin_configuration`].
    pub fn commit_configuration(&self) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_commit_configuration(self.raw.as_ptr()) })
    }
    /// Starts the stream; returns once frames flow. Not from a frame callback.
    pub fn start_running(&self) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_start_running(self.raw.as_ptr()) })
    }
    /// Stops the stream; returns after the last frame callback. Not from a frame callback.
    pub fn stop_running(&self) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_stop_running(self.raw.as_ptr()) })
    }
    /// Whether the stream runs.
    pub fn is_running(&self) -> bool {
        unsafe { ffi::oc_capture_session_is_running(self.raw.as_ptr()) }
    }
}

impl Drop for CaptureSession<'_> {
    fn drop(&mut self) {
        unsafe { ffi::oc_capture_session_destroy(self.raw.as_ptr()) }
    }
}

/// behaviour §3 preview and capture angles (clockwise degrees) for one camera; destroyed on drop.
pub struct RotationCoordinator<'ctx> {
    raw: NonNull<ffi::oc_rotation_coordinator>,
    _context: &'ctx Context,
}

impl Context {
    /// A coordinator for `camera`; `mirrored` None for the camera's default.
    pub fn rotation_coordinator(&self, camera: &Device, mirrored: Option<bool>) -> Result<RotationCoordinator<'_>> {
        let mut raw = ptr::null_mut();
        let mode = mirrored.map_or(-1, |m| m as i32);
        check(unsafe { ffi::oc_rotation_coordinator_create(self.raw.as_ptr(), camera.raw.as_ptr(), mode, &mut raw) })?;
        Ok(RotationCoordinator { raw: NonNull::new(raw).expect("coordinator handle"), _context: self })
    }
}

impl RotationCoordinator<'_> {
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

impl Drop for RotationCoordinator<'_> {
    fn drop(&mut self) {
        unsafe { ffi::oc_rotation_coordinator_destroy(self.raw.as_ptr()) }
    }
}
