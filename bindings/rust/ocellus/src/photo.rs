//! Photo outputs (header section "Photo output").
use crate::{c_string, check, contain_panic, error, ffi, text, CaptureSession, Result};
use std::ffi::CString;
use std::os::raw::{c_char, c_void};
use std::ptr::{self, NonNull};

/// A finished photo: JPEG bytes with EXIF.
#[derive(Clone, Debug)]
pub struct Photo {
    /// The JPEG file's bytes.
    pub jpeg: Vec<u8>,
    /// Width in pixels, as stored.
    pub width: u32,
    /// Height in pixels, as stored.
    pub height: u32,
    /// The EXIF Orientation written (1–8).
    pub orientation: u16,
    /// The camera frame's sequence number.
    pub sequence: u64,
    /// CLOCK_MONOTONIC nanoseconds of the frame's capture.
    pub timestamp_ns: u64,
    /// The file written, if a path was asked for.
    pub path: Option<String>,
}

/// How to take one photo.
#[derive(Clone, Debug, Default)]
pub struct PhotoSettings {
    /// Turn the pixels instead of writing the angle as EXIF Orientation.
    pub apply_rotation_to_pixels: bool,
    /// 1–100; 0 for the default.
    pub quality: i32,
    /// Also write the JPEG to this file.
    pub path: Option<String>,
}

type PhotoClosure = Box<dyn FnOnce(Result<Photo>) + Send>;

/// Stills from a running session; each `capture` calls its closure once, on the output's thread.
pub struct PhotoOutput {
    pub(crate) raw: NonNull<ffi::oc_photo_output>,
}

// SAFETY: the header lets every `oc_photo_output_*` function run on any thread, concurrently (the
// output locks its own state); the closures it holds are `Send`.
unsafe impl Send for PhotoOutput {}
// SAFETY: the calls above may also run on several threads at once.
unsafe impl Sync for PhotoOutput {}

impl PhotoOutput {
    /// A new photo output; add it to a session with [`CaptureSession::add_photo_output`].
    pub fn new() -> Result<PhotoOutput> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_photo_output_create(&mut raw) })?;
        Ok(PhotoOutput { raw: NonNull::new(raw).expect("photo output handle") })
    }

    /// The capture angle (clockwise to upright), written as EXIF Orientation.
    pub fn set_rotation_angle(&self, degrees: i32) -> Result<()> {
        check(unsafe { ffi::oc_photo_output_set_rotation_angle(self.raw.as_ptr(), degrees) })
    }

    /// Mirrors photos about the vertical axis (after rotation).
    pub fn set_mirrored(&self, mirrored: bool) -> Result<()> {
        check(unsafe { ffi::oc_photo_output_set_mirrored(self.raw.as_ptr(), mirrored) })
    }

    /// Requests a photo from the next frame; `done` gets it (or why there is none).
    pub fn capture<F>(&self, settings: &PhotoSettings, done: F) -> Result<()>
    where
        F: FnOnce(Result<Photo>) + Send + 'static,
    {
        let path: Option<CString> = settings.path.as_deref().map(|p| c_string(p, "path")).transpose()?;
        let raw_settings = ffi::oc_photo_settings {
            struct_size: std::mem::size_of::<ffi::oc_photo_settings>() as u32,
            apply_rotation_to_pixels: settings.apply_rotation_to_pixels,
            quality: settings.quality,
            path: path.as_ref().map_or(ptr::null(), |p| p.as_ptr()),
        };
        let boxed: Box<PhotoClosure> = Box::new(Box::new(done));
        let user_data = Box::into_raw(boxed) as *mut c_void;
        let status = unsafe { ffi::oc_photo_output_capture(self.raw.as_ptr(), &raw_settings, Some(photo_trampoline), user_data) };
        if status < 0 {
            drop(unsafe { Box::from_raw(user_data as *mut PhotoClosure) }); // it will never be called
        }
        check(status)
    }
}

impl Drop for PhotoOutput {
    /// Leaves the session; closures of open requests are called (with an error) before this returns.
    fn drop(&mut self) {
        unsafe { ffi::oc_photo_output_destroy(self.raw.as_ptr()) }
    }
}

unsafe extern "C" fn photo_trampoline(
    _output: *mut ffi::oc_photo_output,
    status: i32,
    photo: *const ffi::oc_photo,
    message: *const c_char,
    user_data: *mut c_void,
) {
    let done = *Box::from_raw(user_data as *mut PhotoClosure);
    let result = if status < 0 || photo.is_null() {
        Err(error(status, text(message).unwrap_or_default()))
    } else {
        let p = &*photo;
        Ok(Photo {
            jpeg: std::slice::from_raw_parts(p.data, p.size).to_vec(),
            width: p.width,
            height: p.height,
            orientation: p.orientation,
            sequence: p.sequence,
            timestamp_ns: p.timestamp_ns,
            path: text(p.path),
        })
    };
    contain_panic("a photo closure", || done(result));
}

impl CaptureSession {
    /// Adds a photo output; keep it alive while the session uses it.
    pub fn add_photo_output(&self, output: &PhotoOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_add_photo_output(self.raw(), output.raw.as_ptr()) })
    }
    /// Removes a photo output.
    pub fn remove_photo_output(&self, output: &PhotoOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_remove_photo_output(self.raw(), output.raw.as_ptr()) })
    }
}
