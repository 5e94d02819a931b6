//! Microphones (behaviour §5), audio data outputs, session events and automatic switching (behaviour §4).
use crate::{check, contain_panic, ffi, text, CaptureSession, Context, Device, Registration, Result};
use std::os::raw::{c_char, c_void};
use std::ptr::{self, NonNull};

type RouteClosure = Box<dyn FnMut(Option<&Device>) + Send + 'static>;

impl Context {
    /// The single `microphone` device (unique ID "microphone"): it follows the current input
    /// and is named after it. A session with it as audio input keeps recording across route
    /// changes. `None` while no microphone is connected.
    pub fn default_microphone(&self) -> Result<Option<Device>> {
        self.copy_device(ffi::oc_context_copy_default_microphone)
    }

    /// The input the `microphone` device stands for now (one of `devices()`).
    pub fn microphone_route(&self) -> Result<Option<Device>> {
        self.copy_device(ffi::oc_context_copy_microphone_route)
    }

    /// The app's preferred input while it is connected.
    pub fn preferred_microphone(&self) -> Result<Option<Device>> {
        self.copy_device(ffi::oc_context_copy_preferred_microphone)
    }

    /// Routes the `microphone` device to `microphone` while it is connected; `None` returns to
    /// the system's choice (the default input, or a microphone plugged in since it changed).
    pub fn set_preferred_microphone(&self, microphone: Option<&Device>) -> Result<()> {
        let raw = microphone.map_or(ptr::null_mut(), |device| device.raw.as_ptr());
        check(unsafe { ffi::oc_context_set_preferred_microphone(self.raw.as_ptr(), raw) })
    }

    /// Calls `callback` with the new input (`None`: no microphone left) when the route moves.
    #[must_use = "dropping the registration unregisters the callback"]
    pub fn on_microphone_route_change<F>(&self, callback: F) -> Result<Registration<'_>>
    where
        F: FnMut(Option<&Device>) + Send + 'static,
    {
        let boxed: Box<RouteClosure> = Box::new(Box::new(callback));
        self.register(boxed, |user_data, id| unsafe {
            ffi::oc_context_add_microphone_route_callback(self.raw.as_ptr(), Some(route_trampoline), user_data, id)
        })
    }
}

unsafe extern "C" fn route_trampoline(_ctx: *mut ffi::oc_context, input: *mut ffi::oc_device, user_data: *mut c_void) {
    let callback = &mut *(user_data as *mut RouteClosure);
    contain_panic("a microphone-route callback", || {
        let input = if input.is_null() { None } else { Device::retain(input).ok() };
        callback(input.as_ref());
    });
}

/// Interleaved float samples, channels, sample rate and the CLOCK_MONOTONIC time of the first frame.
type SampleClosure = Box<dyn FnMut(&[f32], u32, u32, u64) + Send + 'static>;

/// PCM from the session's microphone; destroyed on drop (after leaving its session).
pub struct AudioDataOutput {
    raw: NonNull<ffi::oc_audio_data_output>,
    callback: Option<Box<SampleClosure>>,
}

unsafe impl Send for AudioDataOutput {}

impl AudioDataOutput {
    /// A new audio output; add it with [`CaptureSession::add_audio_output`].
    pub fn new() -> Result<AudioDataOutput> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_audio_data_output_create(&mut raw) })?;
        Ok(AudioDataOutput { raw: NonNull::new(raw).expect("audio output handle"), callback: None })
    }

    /// Calls `callback(samples, channels, sample_rate, timestamp_ns)` on the audio thread; the
    /// samples are valid during the call (panics are contained).
    pub fn set_sample_callback<F>(&mut self, callback: F) -> Result<()>
    where
        F: FnMut(&[f32], u32, u32, u64) + Send + 'static,
    {
        let mut boxed: Box<SampleClosure> = Box::new(Box::new(callback));
        let user_data = &mut *boxed as *mut SampleClosure as *mut c_void;
        // The library waits for a call in flight before replacing, so the old box can go after.
        check(unsafe { ffi::oc_audio_data_output_set_callback(self.raw.as_ptr(), Some(samples_trampoline), user_data) })?;
        self.callback = Some(boxed);
        Ok(())
    }

    /// PCM frames delivered so far.
    pub fn delivered_frames(&self) -> u64 {
        unsafe { ffi::oc_audio_data_output_delivered_frames(self.raw.as_ptr()) }
    }
}

impl Drop for AudioDataOutput {
    fn drop(&mut self) {
        unsafe { ffi::oc_audio_data_output_destroy(self.raw.as_ptr()) }
    }
}

unsafe extern "C" fn samples_trampoline(
    _output: *mut ffi::oc_audio_data_output,
    samples: *const f32,
    frame_count: usize,
    channels: u32,
    sample_rate: u32,
    timestamp_ns: u64,
    user_data: *mut c_void,
) {
    let callback = &mut *(user_data as *mut SampleClosure);
    let view = if samples.is_null() { &[][..] } else { std::slice::from_raw_parts(samples, frame_count * channels as usize) };
    contain_panic("an audio callback", || callback(view, channels, sample_rate, timestamp_ns));
}

/// What happened to a session; errors carry the library's message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SessionEvent {
    /// The stream runs.
    Started,
    /// The session stopped as asked.
    Stopped,
    /// The stream ended on its own (camera gone, daemon gone); the session stopped.
    RuntimeError(String),
    /// The camera is in use elsewhere; the session keeps trying.
    Interrupted(String),
    /// The camera became free again and the session runs.
    InterruptionEnded,
    /// The `microphone` device's new input could not be opened; no sound until the route moves.
    AudioInterrupted(String),
    /// Automatic switching made this camera (unique ID) the input.
    InputSwitched(String),
    /// Automatic switching waits for the recording to end before moving to this camera.
    SwitchDeferred(String),
    /// Automatic switching could not move ("unique ID: reason"); the input was kept.
    SwitchFailed(String),
    /// A recording's encoder cannot keep up: it records every other frame until it catches up.
    RecordingDegraded(String),
}

type EventClosure = Box<dyn FnMut(SessionEvent) + Send + 'static>;

/// A session event callback; dropping it unregisters it (waiting for a call in flight) and frees it.
pub struct SessionRegistration<'s, 'ctx> {
    session: &'s CaptureSession<'ctx>,
    id: ffi::oc_callback_id,
    closure: *mut EventClosure,
}

impl Drop for SessionRegistration<'_, '_> {
    fn drop(&mut self) {
        unsafe {
            ffi::oc_capture_session_remove_callback(self.session.raw(), self.id);
            drop(Box::from_raw(self.closure));
        }
    }
}

impl<'ctx> CaptureSession<'ctx> {
    /// The session's microphone (`None` removes it): a microphone from `devices()`, a camera's
    /// `associated_microphone`, or `default_microphone()` to follow the route.
    pub fn set_audio_input(&self, microphone: Option<&Device>) -> Result<()> {
        let raw = microphone.map_or(ptr::null_mut(), |device| device.raw.as_ptr());
        check(unsafe { ffi::oc_capture_session_set_audio_input(self.raw(), raw) })
    }

    /// Adds an audio output; keep the `AudioDataOutput` alive while the session uses it.
    pub fn add_audio_output(&self, output: &AudioDataOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_add_audio_output(self.raw(), output.raw.as_ptr()) })
    }

    /// Removes an audio output.
    pub fn remove_audio_output(&self, output: &AudioDataOutput) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_remove_audio_output(self.raw(), output.raw.as_ptr()) })
    }

    /// behaviour §4 automatic switching (opt-in): the input follows the system preferred camera,
    /// never during a recording (the switch waits for its end).
    pub fn set_automatically_switches_camera(&self, enabled: bool) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_set_automatically_switches_camera(self.raw(), enabled) })
    }

    /// Whether automatic switching is on.
    pub fn automatically_switches_camera(&self) -> bool {
        unsafe { ffi::oc_capture_session_automatically_switches_camera(self.raw()) }
    }

    /// Whether a movie file output of the session is recording.
    pub fn is_recording(&self) -> bool {
        unsafe { ffi::oc_capture_session_is_recording(self.raw()) }
    }

    /// Calls `callback` on a library thread for each session event until the registration drops.
    #[must_use = "dropping the registration unregisters the callback"]
    pub fn on_event<F>(&self, callback: F) -> Result<SessionRegistration<'_, 'ctx>>
    where
        F: FnMut(SessionEvent) + Send + 'static,
    {
        let closure = Box::into_raw(Box::new(Box::new(callback) as EventClosure));
        let mut id = 0;
        let status = unsafe {
            ffi::oc_capture_session_add_event_callback(self.raw(), Some(event_trampoline), closure as *mut c_void, &mut id)
        };
        if let Err(error) = check(status) {
            drop(unsafe { Box::from_raw(closure) });
            return Err(error);
        }
        Ok(SessionRegistration { session: self, id, closure })
    }
}

unsafe extern "C" fn event_trampoline(
    _session: *mut ffi::oc_capture_session,
    event: ffi::oc_session_event,
    _status: ffi::oc_status,
    message: *const c_char,
    user_data: *mut c_void,
) {
    let callback = &mut *(user_data as *mut EventClosure);
    let message = text(message).unwrap_or_default();
    let event = match event {
        ffi::OC_SESSION_EVENT_STARTED => SessionEvent::Started,
        ffi::OC_SESSION_EVENT_STOPPED => SessionEvent::Stopped,
        ffi::OC_SESSION_EVENT_RUNTIME_ERROR => SessionEvent::RuntimeError(message),
        ffi::OC_SESSION_EVENT_INTERRUPTED => SessionEvent::Interrupted(message),
        ffi::OC_SESSION_EVENT_INTERRUPTION_ENDED => SessionEvent::InterruptionEnded,
        ffi::OC_SESSION_EVENT_AUDIO_INTERRUPTED => SessionEvent::AudioInterrupted(message),
        ffi::OC_SESSION_EVENT_INPUT_SWITCHED => SessionEvent::InputSwitched(message),
        ffi::OC_SESSION_EVENT_SWITCH_DEFERRED => SessionEvent::SwitchDeferred(message),
        ffi::OC_SESSION_EVENT_SWITCH_FAILED => SessionEvent::SwitchFailed(message),
        ffi::OC_SESSION_EVENT_RECORDING_DEGRADED => SessionEvent::RecordingDegraded(message),
        _ => return,   // a newer library's event this binding does not know yet
    };
    contain_panic("a session event callback", || callback(event));
}
