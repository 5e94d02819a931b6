//! Depth cameras: depth formats, depth data outputs and the output synchronizer (behaviour §4, depth).
use crate::{check, contain_panic, ffi, CaptureSession, Device, Format, Frame, Result, VideoDataOutput};
use std::os::raw::c_void;
use std::ptr::{self, NonNull};

impl Device {
    /// A depth camera's depth formats (empty for other cameras).
    pub fn depth_formats(&self) -> Result<Vec<Format>> {
        let count = unsafe { ffi::oc_device_depth_format_count(self.ptr()) };
        (0..count).map(|index| self.describe_format(index, ffi::oc_device_get_depth_format)).collect()
    }

    /// Whether depth format `depth_index` can stream while the camera runs format `format_index`
    /// (every depth format when depth has a function of its own; on a depth-only camera, the same format).
    pub fn depth_format_runs_beside(&self, format_index: usize, depth_index: usize) -> bool {
        unsafe { ffi::oc_device_depth_format_runs_beside(self.ptr(), format_index, depth_index) }
    }
}

/// A depth map's samples, viewed without a copy.
pub enum DepthSamples<'a> {
    /// One word per pixel (Z16, Y16, Y12), in `Frame::depth_unit` metres; 0 where nothing was measured.
    Words(&'a [u16]),
    /// Float32 metres (when the output asked for `"Z32F"`); 0.0 where nothing was measured.
    Metres(&'a [f32]),
}

impl Frame<'_> {
    /// Metres per unit of a depth map's samples (0.001 unless the camera says otherwise; 1 for
    /// float metres); 0 for a picture.
    pub fn depth_unit(&self) -> f32 {
        unsafe { ffi::oc_frame_depth_unit(self.raw) }
    }

    /// A depth map's samples and the row stride in samples, or None for a picture.
    pub fn depth(&self) -> Option<(DepthSamples<'_>, usize)> {
        let code = unsafe { ffi::oc_frame_pixel_format(self.raw) };
        let (bytes, stride) = self.plane(0)?;
        // Camera buffers are page-aligned and strides even, so the views are aligned.
        match code {
            ffi::OC_PIXEL_FORMAT_Z16 | ffi::OC_PIXEL_FORMAT_Y16 | ffi::OC_PIXEL_FORMAT_Y12 => {
                let words = unsafe { std::slice::from_raw_parts(bytes.as_ptr() as *const u16, bytes.len() / 2) };
                Some((DepthSamples::Words(words), stride as usize / 2))
            }
            ffi::OC_PIXEL_FORMAT_DEPTH32F => {
                let metres = unsafe { std::slice::from_raw_parts(bytes.as_ptr() as *const f32, bytes.len() / 4) };
                Some((DepthSamples::Metres(metres), stride as usize / 4))
            }
            _ => None,
        }
    }
}

type FrameClosure = Box<dyn FnMut(&Frame<'_>) + Send + 'static>;
type PairClosure = Box<dyn FnMut(&Frame<'_>, &Frame<'_>) + Send + 'static>;

/// Depth maps for one consumer; destroyed on drop (after leaving its session).
pub struct DepthDataOutput {
    pub(crate) raw: NonNull<ffi::oc_depth_data_output>,
    callback: Option<Box<FrameClosure>>,
}

// SAFETY: as `VideoDataOutput`: no thread affinity, and its closure is `Send`.
unsafe impl Send for DepthDataOutput {}

impl DepthDataOutput {
    /// `pixel_format`: None for the camera's, `"Z32F"` for float metres; `size`: one the camera
    /// offers (depth is never scaled), None for the session's pick beside the picture.
    pub fn new(pixel_format: Option<&str>, size: Option<(u32, u32)>) -> Result<DepthDataOutput> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_depth_data_output_create(&mut raw) })?;
        let output = DepthDataOutput { raw: NonNull::new(raw).expect("depth output handle"), callback: None };
        let code = match pixel_format {
            Some(name) => crate::pixel_format_code(name)?,
            None => 0,
        };
        let (width, height) = size.unwrap_or((0, 0));
        check(unsafe { ffi::oc_depth_data_output_set_format(output.raw.as_ptr(), code, width, height) })?;
        Ok(output)
    }

    /// Calls `callback` on the depth stream's thread for each map (panics are contained).
    pub fn set_frame_callback<F>(&mut self, callback: F) -> Result<()>
    where
        F: FnMut(&Frame<'_>) + Send + 'static,
    {
        let mut boxed: Box<FrameClosure> = Box::new(Box::new(callback));
        let user_data = &mut *boxed as *mut FrameClosure as *mut c_void;
        check(unsafe { ffi::oc_depth_data_output_set_frame_callback(self.raw.as_ptr(), Some(depth_trampoline), user_data) })?;
        self.callback = Some(boxed);
        Ok(())
    }

    /// Depth maps delivered so far.
    pub fn delivered_frames(&self) -> u64 {
        unsafe { ffi::oc_depth_data_output_delivered_frames(self.raw.as_ptr()) }
    }

    /// Depth maps dropped, all reasons together.
    pub fn dropped_frames(&self) -> u64 {
        (ffi::OC_DROP_LATE..=ffi::OC_DROP_CORRUPT)
            .map(|reason| unsafe { ffi::oc_depth_data_output_dropped_frames(self.raw.as_ptr(), reason) })
            .sum()
    }
}

impl Drop for DepthDataOutput {
    fn drop(&mut self) {
        unsafe { ffi::oc_depth_data_output_destroy(self.raw.as_ptr()) }
    }
}

unsafe extern "C" fn depth_trampoline(
    _output: *mut ffi::oc_depth_data_output,
    frame: *const ffi::oc_frame,
    user_data: *mut c_void,
) {
    let callback = &mut *(user_data as *mut FrameClosure);
    let view = Frame::view(frame);
    contain_panic("a depth callback", || callback(&view));
}

impl CaptureSession {
    /// Adds a depth output (the input must be a depth camera); keep it alive while the session uses it.
    pub fn add_depth_output(&self, output: &DepthDataOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_add_depth_output(self.raw(), output.raw.as_ptr()) })
    }
    /// Removes a depth output.
    pub fn remove_depth_output(&self, output: &DepthDataOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_remove_depth_output(self.raw(), output.raw.as_ptr()) })
    }
}

/// Pairs a video output's frames with a depth output's maps of the same instant; while it
/// lives the outputs' own callbacks are not called. Destroyed on drop (before the outputs).
pub struct OutputSynchronizer<'a> {
    pub(crate) raw: NonNull<ffi::oc_output_synchronizer>,
    callback: Option<Box<PairClosure>>,
    _outputs: std::marker::PhantomData<(&'a VideoDataOutput, &'a DepthDataOutput)>,
}

// SAFETY: the synchronizer handle has no thread affinity (its functions run on any thread), and
// the closure it owns is `Send`; the borrow of its outputs keeps them alive.
unsafe impl Send for OutputSynchronizer<'_> {}

impl<'a> OutputSynchronizer<'a> {
    /// Synchronizes `video` and `depth`.
    pub fn new(video: &'a VideoDataOutput, depth: &'a DepthDataOutput) -> Result<OutputSynchronizer<'a>> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_output_synchronizer_create(video.raw(), depth.raw.as_ptr(), &mut raw) })?;
        Ok(OutputSynchronizer {
            raw: NonNull::new(raw).expect("synchronizer handle"),
            callback: None,
            _outputs: std::marker::PhantomData,
        })
    }

    /// Synchronizes the video outputs of two cameras, each in its own session (since 0.3): the
    /// callback gets the first output's frame, then the second's; `unmatched_frames` counts them
    /// in that order.
    pub fn for_cameras(first: &'a VideoDataOutput, second: &'a VideoDataOutput) -> Result<OutputSynchronizer<'a>> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_output_synchronizer_create_for_cameras(first.raw(), second.raw(), &mut raw) })?;
        Ok(OutputSynchronizer {
            raw: NonNull::new(raw).expect("synchronizer handle"),
            callback: None,
            _outputs: std::marker::PhantomData,
        })
    }

    /// Calls `callback(video, depth)` with each pair on the thread delivering one of the two outputs (panics are contained).
    pub fn set_callback<F>(&mut self, callback: F) -> Result<()>
    where
        F: FnMut(&Frame<'_>, &Frame<'_>) + Send + 'static,
    {
        let mut boxed: Box<PairClosure> = Box::new(Box::new(callback));
        let user_data = &mut *boxed as *mut PairClosure as *mut c_void;
        check(unsafe { ffi::oc_output_synchronizer_set_callback(self.raw.as_ptr(), Some(pair_trampoline), user_data) })?;
        self.callback = Some(boxed);
        Ok(())
    }

    /// Pairs delivered so far.
    pub fn delivered_pairs(&self) -> u64 {
        unsafe { ffi::oc_output_synchronizer_delivered_pairs(self.raw.as_ptr()) }
    }

    /// (video, depth) frames that found no partner.
    pub fn unmatched_frames(&self) -> (u64, u64) {
        unsafe {
            (
                ffi::oc_output_synchronizer_unmatched_frames(self.raw.as_ptr(), ffi::OC_SYNC_STREAM_VIDEO),
                ffi::oc_output_synchronizer_unmatched_frames(self.raw.as_ptr(), ffi::OC_SYNC_STREAM_DEPTH),
            )
        }
    }
}

impl Drop for OutputSynchronizer<'_> {
    fn drop(&mut self) {
        unsafe { ffi::oc_output_synchronizer_destroy(self.raw.as_ptr()) }
    }
}

unsafe extern "C" fn pair_trampoline(
    _synchronizer: *mut ffi::oc_output_synchronizer,
    video: *const ffi::oc_frame,
    depth: *const ffi::oc_frame,
    user_data: *mut c_void,
) {
    let callback = &mut *(user_data as *mut PairClosure);
    let (video, depth) = (Frame::view(video), Frame::view(depth));
    contain_panic("a synchronizer callback", || callback(&video, &depth));
}
