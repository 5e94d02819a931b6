//! Photo and movie file outputs (behaviour §4).
use crate::{c_string, check, contain_panic, error, ffi, text, CaptureSession, Error, Result};
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
    raw: NonNull<ffi::oc_photo_output>,
}

unsafe impl Send for PhotoOutput {}
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
            drop(unsafe { Box::from_raw(user_data as *mut PhotoClosure) });   // it will never be called
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

/// A finished movie file; `error` says why it ended early (the file plays up to then).
#[derive(Clone, Debug)]
pub struct Recording {
    /// The file written.
    pub path: String,
    /// Its size in bytes.
    pub bytes: i64,
    /// Video width in pixels.
    pub width: u32,
    /// Video height in pixels.
    pub height: u32,
    /// Seconds of video.
    pub duration: f64,
    /// Video frames written.
    pub frames: u64,
    /// Frames dropped because the writer fell behind.
    pub dropped_frames: u64,
    /// Clockwise degrees in the file's display matrix.
    pub rotation: i32,
    /// "mjpeg", "libx264" or "mpeg4".
    pub video_codec: String,
    /// Seconds of sound (0 without a microphone).
    pub audio_duration: f64,
    /// Why the recording ended early; `None` when it stopped as asked.
    pub error: Option<Error>,
}

type RecordingClosure = Box<dyn FnOnce(Recording) + Send>;

/// Records the session's camera into .mp4/.mov; a recording in progress is finished on drop.
pub struct MovieFileOutput {
    raw: NonNull<ffi::oc_movie_file_output>,
}

unsafe impl Send for MovieFileOutput {}
unsafe impl Sync for MovieFileOutput {}

impl MovieFileOutput {
    /// A new movie file output; add it with [`CaptureSession::add_movie_file_output`].
    pub fn new() -> Result<MovieFileOutput> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_movie_file_output_create(&mut raw) })?;
        Ok(MovieFileOutput { raw: NonNull::new(raw).expect("movie file output handle") })
    }

    /// The capture angle for the next recording's display matrix.
    pub fn set_rotation_angle(&self, degrees: i32) -> Result<()> {
        check(unsafe { ffi::oc_movie_file_output_set_rotation_angle(self.raw.as_ptr(), degrees) })
    }

    /// Starts recording; `done` runs once the file is finished.
    pub fn start_recording<F>(&self, path: &str, done: F) -> Result<()>
    where
        F: FnOnce(Recording) + Send + 'static,
    {
        let path = c_string(path, "path")?;
        let boxed: Box<RecordingClosure> = Box::new(Box::new(done));
        let user_data = Box::into_raw(boxed) as *mut c_void;
        let status = unsafe {
            ffi::oc_movie_file_output_start_recording(self.raw.as_ptr(), path.as_ptr(), Some(recording_trampoline), user_data)
        };
        if status < 0 {
            drop(unsafe { Box::from_raw(user_data as *mut RecordingClosure) });
        }
        check(status)
    }

    /// Finishes the recording (asynchronously: the closure follows).
    pub fn stop_recording(&self) -> Result<()> {
        check(unsafe { ffi::oc_movie_file_output_stop_recording(self.raw.as_ptr()) })
    }

    /// Whether a recording is in progress.
    pub fn is_recording(&self) -> bool {
        unsafe { ffi::oc_movie_file_output_is_recording(self.raw.as_ptr()) }
    }

    /// Seconds recorded so far in the current recording.
    pub fn recorded_duration(&self) -> f64 {
        unsafe { ffi::oc_movie_file_output_recorded_duration(self.raw.as_ptr()) }
    }
}

impl Drop for MovieFileOutput {
    fn drop(&mut self) {
        unsafe { ffi::oc_movie_file_output_destroy(self.raw.as_ptr()) }
    }
}

unsafe extern "C" fn recording_trampoline(
    _output: *mut ffi::oc_movie_file_output,
    status: i32,
    message: *const c_char,
    summary: *const ffi::oc_recording_summary,
    user_data: *mut c_void,
) {
    let done = *Box::from_raw(user_data as *mut RecordingClosure);
    let s = &*summary;
    let recording = Recording {
        path: text(s.path).unwrap_or_default(),
        bytes: s.bytes,
        width: s.width,
        height: s.height,
        duration: s.duration,
        frames: s.frames,
        dropped_frames: s.dropped_frames,
        rotation: s.rotation,
        video_codec: text(s.video_codec).unwrap_or_default(),
        audio_duration: s.audio_duration,
        error: if status < 0 { Some(error(status, text(message).unwrap_or_default())) } else { None },
    };
    contain_panic("a recording closure", || done(recording));
}

impl CaptureSession<'_> {
    /// Adds a photo output; keep it alive while the session uses it.
    pub fn add_photo_output(&self, output: &PhotoOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_add_photo_output(self.raw(), output.raw.as_ptr()) })
    }
    /// Removes a photo output.
    pub fn remove_photo_output(&self, output: &PhotoOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_remove_photo_output(self.raw(), output.raw.as_ptr()) })
    }
    /// Adds a movie file output; keep it alive while the session uses it.
    pub fn add_movie_file_output(&self, output: &MovieFileOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_add_movie_file_output(self.raw(), output.raw.as_ptr()) })
    }
    /// Removes a movie file output.
    pub fn remove_movie_file_output(&self, output: &MovieFileOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_remove_movie_file_output(self.raw(), output.raw.as_ptr()) })
    }
}
