//! Microphone input, microphone modes and audio data outputs (header section "Microphone input,
//! microphone modes and audio data outputs").
use crate::strings::text;
use crate::{check, contain_panic, ffi, CaptureSession, Context, Device, Registration, Result};
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
    pub(crate) raw: NonNull<ffi::oc_audio_data_output>,
    callback: Option<Box<SampleClosure>>,
}

// SAFETY: the output handle has no thread affinity (the header lets its functions run on any
// thread), and the closure it owns is `Send`.
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

    /// PCM frames that never reached the output: a microphone mode's engine fell a second behind.
    pub fn dropped_frames(&self) -> u64 {
        unsafe { ffi::oc_audio_data_output_dropped_frames(self.raw.as_ptr()) }
    }
}

/// What a session does to its microphone's sound (AVFoundation's `MicrophoneMode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MicrophoneMode {
    /// The signal as PipeWire gives it (the default).
    Standard,
    /// The untouched signal, bit-exact.
    WideSpectrum,
    /// Typing, clicks, fans and traffic suppressed, the voice kept (RNNoise; mono; 20 ms later).
    VoiceIsolation,
}

impl MicrophoneMode {
    fn raw(self) -> ffi::oc_microphone_mode {
        match self {
            MicrophoneMode::Standard => ffi::OC_MICROPHONE_MODE_STANDARD,
            MicrophoneMode::WideSpectrum => ffi::OC_MICROPHONE_MODE_WIDE_SPECTRUM,
            MicrophoneMode::VoiceIsolation => ffi::OC_MICROPHONE_MODE_VOICE_ISOLATION,
        }
    }

    fn from_raw(raw: ffi::oc_microphone_mode) -> MicrophoneMode {
        match raw {
            ffi::OC_MICROPHONE_MODE_WIDE_SPECTRUM => MicrophoneMode::WideSpectrum,
            ffi::OC_MICROPHONE_MODE_VOICE_ISOLATION => MicrophoneMode::VoiceIsolation,
            _ => MicrophoneMode::Standard,
        }
    }

    /// "standard", "wide_spectrum" or "voice_isolation", as the CLI's JSON writes it.
    pub fn name(self) -> &'static str {
        match self {
            MicrophoneMode::Standard => "standard",
            MicrophoneMode::WideSpectrum => "wide_spectrum",
            MicrophoneMode::VoiceIsolation => "voice_isolation",
        }
    }
}

/// A session's microphone mode: what the app prefers, what runs, the engine doing it ("none"
/// when nothing processes) and why the active mode is not the preferred one ("" when it is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MicrophoneModeState {
    /// What the app asked for.
    pub preferred: MicrophoneMode,
    /// What really runs.
    pub active: MicrophoneMode,
    /// The engine doing the active mode ("rnnoise"), "none" when nothing processes.
    pub engine: String,
    /// Why `active` is not `preferred`: the engine that is missing and where it was looked for.
    pub reason: String,
    /// In voice isolation, the echo canceller removing what the machine plays ("webrtc"); "none" otherwise.
    pub echo_canceller: String,
    /// Why voice isolation runs without echo cancellation ("" when it does not, or in another mode).
    pub echo_cancellation_reason: String,
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

impl CaptureSession {
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

    /// Prefers a microphone mode for the session's sound, running or not. The engine it needs is
    /// loaded now; when it cannot be, the session says so in [`microphone_mode`](Self::microphone_mode)
    /// (and a `MicrophoneModeChanged` event) and runs the standard mode: not an error.
    pub fn set_preferred_microphone_mode(&self, mode: MicrophoneMode) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_set_preferred_microphone_mode(self.raw(), mode.raw()) })
    }

    /// The rate and channel count sound is delivered in; `None` for either: the microphone's own.
    /// By default 48000 Hz, 2 channels. Applies when the microphone stream next opens. Voice
    /// isolation runs at 48000 Hz (with the microphone's own rate, a stream wanting it opens so).
    pub fn set_audio_format(&self, sample_rate: Option<u32>, channels: Option<u32>) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_set_audio_format(self.raw(), sample_rate.unwrap_or(0), channels.unwrap_or(0)) })
    }

    /// The preferred and active microphone modes, the engine and why they differ.
    pub fn microphone_mode(&self) -> Result<MicrophoneModeState> {
        let (mut preferred, mut active) = (0, 0);
        let mut engine = [0 as c_char; 64];
        let mut reason = [0 as c_char; 1024];
        check(unsafe {
            ffi::oc_capture_session_get_microphone_mode(
                self.raw(),
                &mut preferred,
                &mut active,
                engine.as_mut_ptr(),
                engine.len(),
                reason.as_mut_ptr(),
                reason.len(),
            )
        })?;
        let mut canceller = [0 as c_char; 64];
        let mut echo_reason = [0 as c_char; 1024];
        check(unsafe {
            ffi::oc_capture_session_get_echo_cancellation(
                self.raw(),
                canceller.as_mut_ptr(),
                canceller.len(),
                echo_reason.as_mut_ptr(),
                echo_reason.len(),
            )
        })?;
        Ok(MicrophoneModeState {
            preferred: MicrophoneMode::from_raw(preferred),
            active: MicrophoneMode::from_raw(active),
            engine: text(engine.as_ptr()).unwrap_or_default(),
            reason: text(reason.as_ptr()).unwrap_or_default(),
            echo_canceller: text(canceller.as_ptr()).unwrap_or_default(),
            echo_cancellation_reason: text(echo_reason.as_ptr()).unwrap_or_default(),
        })
    }
}
