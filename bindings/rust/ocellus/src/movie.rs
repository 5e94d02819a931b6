//! Movie file outputs (header section "Movie file output").
use crate::{c_string, check, contain_panic, error, ffi, text, CaptureSession, Error, Result};
use std::os::raw::{c_char, c_void};
use std::ptr::{self, NonNull};

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
    /// Sound frames left out (the writer fell two seconds behind, or the microphone changed format).
    pub dropped_audio_frames: u64,
    /// Why the recording ended early; `None` when it stopped as asked.
    pub error: Option<Error>,
}

type RecordingClosure = Box<dyn FnOnce(Recording) + Send>;

/// Records the session's camera into .mp4/.mov; a recording in progress is finished on drop.
pub struct MovieFileOutput {
    pub(crate) raw: NonNull<ffi::oc_movie_file_output>,
}

// SAFETY: the header lets every `oc_movie_file_output_*` function run on any thread, concurrently
// (the output locks its own state); the closures it holds are `Send`.
unsafe impl Send for MovieFileOutput {}
// SAFETY: the calls above may also run on several threads at once.
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
        dropped_audio_frames: s.dropped_audio_frames,
        error: if status < 0 { Some(error(status, text(message).unwrap_or_default())) } else { None },
    };
    contain_panic("a recording closure", || done(recording));
}

impl CaptureSession {
    /// Adds a movie file output; keep it alive while the session uses it.
    pub fn add_movie_file_output(&self, output: &MovieFileOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_add_movie_file_output(self.raw(), output.raw.as_ptr()) })
    }
    /// Removes a movie file output.
    pub fn remove_movie_file_output(&self, output: &MovieFileOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_remove_movie_file_output(self.raw(), output.raw.as_ptr()) })
    }
}
