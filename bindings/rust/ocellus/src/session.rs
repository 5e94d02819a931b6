//! Capture sessions and their events (header section "Capture sessions and video data outputs").
use crate::{check, contain_panic, ffi, pixel_format_name, text, Context, Device, ErrorKind, FrameRate, Result, VideoDataOutput};
use std::os::raw::{c_char, c_void};
use std::ptr::{self, NonNull};

/// An input camera, outputs and one stream feeding them; stopped and destroyed on drop.
pub struct CaptureSession {
    pub(crate) raw: NonNull<ffi::oc_capture_session>,
    _context: Context,
    /// False for a multi-camera session's branch, which goes with its session.
    owned: bool,
}

// SAFETY: the session handle has no thread affinity: its functions run on any thread (those that
// wait for the stream refuse a frame callback of the session with WRONG_STATE instead).
unsafe impl Send for CaptureSession {}

impl Context {
    /// A new capture session on this context's cameras.
    pub fn capture_session(&self) -> Result<CaptureSession> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_capture_session_create(self.raw.as_ptr(), &mut raw) })?;
        Ok(CaptureSession { raw: NonNull::new(raw).expect("session handle"), _context: self.clone(), owned: true })
    }
}

impl CaptureSession {
    /// A multi-camera session's branch (its handle, not destroyed on drop).
    pub(crate) fn branch(raw: NonNull<ffi::oc_capture_session>, context: &Context) -> Self {
        CaptureSession { raw, _context: context.clone(), owned: false }
    }
}

impl CaptureSession {
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
    /// The share of its USB bus the camera's stream takes with the configuration as it stands,
    /// beside what the bus carries now (every process's streams); `None` for a camera not on USB,
    /// without an input, or when no format serves the outputs. Read it before starting: a
    /// configuration that does not fit is refused with what would fit.
    pub fn hardware_cost(&self) -> Result<Option<HardwareCost>> {
        read_hardware_cost(|cost| unsafe { ffi::oc_capture_session_get_hardware_cost(self.raw.as_ptr(), cost) })
    }

    /// What the configuration as it stands (inside a batch, with the changes not committed yet)
    /// would run if committed now, and whether that is as asked (libcamera's `validate()`);
    /// `None` without an input. Errors with what committing would (`NoResources` when nothing
    /// fits the bus, `InvalidArgument` when no format serves the outputs).
    pub fn check_configuration(&self) -> Result<Option<ConfigurationCheck>> {
        let rate = ffi::oc_fraction { numerator: 0, denominator: 0 };
        let mut raw = ffi::oc_configuration_check {
            struct_size: std::mem::size_of::<ffi::oc_configuration_check>() as u32,
            as_asked: false,
            adjusted: 0,
            pixel_format: 0,
            width: 0,
            height: 0,
            frame_rate: rate,
            asked_pixel_format: 0,
            asked_width: 0,
            asked_height: 0,
            asked_frame_rate: rate,
            reason: [0; 256],
        };
        match check(unsafe { ffi::oc_capture_session_check_configuration(self.raw.as_ptr(), &mut raw) }) {
            Err(error) if error.kind == ErrorKind::NotFound => Ok(None),
            Err(error) => Err(error),
            Ok(()) => {
                let reason = unsafe { std::ffi::CStr::from_ptr(raw.reason.as_ptr()) }.to_string_lossy().into_owned();
                let stream = |code, width, height, rate: ffi::oc_fraction| ActiveFormat {
                    pixel_format: pixel_format_name(code),
                    width,
                    height,
                    frame_rate: FrameRate { numerator: rate.numerator, denominator: rate.denominator },
                };
                Ok(Some(ConfigurationCheck {
                    adjusted: raw.adjusted,
                    runs: stream(raw.pixel_format, raw.width, raw.height, raw.frame_rate),
                    asked: stream(raw.asked_pixel_format, raw.asked_width, raw.asked_height, raw.asked_frame_rate),
                    reason,
                }))
            }
        }
    }

    /// The format the running session's camera stream runs at; `WrongState` when not running.
    pub fn active_format(&self) -> Result<ActiveFormat> {
        let (mut code, mut width, mut height) = (0, 0, 0);
        let mut rate = ffi::oc_fraction { numerator: 0, denominator: 0 };
        check(unsafe {
            ffi::oc_capture_session_get_active_format(self.raw.as_ptr(), &mut code, &mut width, &mut height, &mut rate)
        })?;
        let frame_rate = FrameRate { numerator: rate.numerator, denominator: rate.denominator };
        Ok(ActiveFormat { pixel_format: pixel_format_name(code), width, height, frame_rate })
    }

    /// Whether formats are chosen to fit the camera's USB bus ([`BusFit`]).
    pub fn set_bus_fit(&self, fit: BusFit) -> Result<()> {
        check(unsafe { ffi::oc_capture_session_set_bus_fit(self.raw(), fit as ffi::oc_bus_fit) })
    }

    /// The session's bus fit ([`BusFit::Automatic`] unless set).
    pub fn bus_fit(&self) -> BusFit {
        match unsafe { ffi::oc_capture_session_get_bus_fit(self.raw()) } {
            ffi::OC_BUS_FIT_ON => BusFit::On,
            ffi::OC_BUS_FIT_OFF => BusFit::Off,
            _ => BusFit::Automatic,
        }
    }
}

/// A hardware cost `get` fills in; `None` when there is none to report (NOT_FOUND).
pub(crate) fn read_hardware_cost(get: impl FnOnce(*mut ffi::oc_hardware_cost) -> ffi::oc_status) -> Result<Option<HardwareCost>> {
    let mut cost = ffi::oc_hardware_cost {
        struct_size: std::mem::size_of::<ffi::oc_hardware_cost>() as u32,
        fits: false,
        total: 0.0,
        own: 0.0,
        others: 0,
        bus: [0; 16],
    };
    match check(get(&mut cost)) {
        Err(error) if error.kind == ErrorKind::NotFound => Ok(None),
        Err(error) => Err(error),
        Ok(()) => {
            let bus = unsafe { std::ffi::CStr::from_ptr(cost.bus.as_ptr()) }.to_string_lossy().into_owned();
            Ok(Some(HardwareCost { fits: cost.fits, total: cost.total, own: cost.own, others: cost.others, bus }))
        }
    }
}

/// behaviour §4 fit instead of fail: whether a session may run a format that fits its camera's
/// USB bus instead of the one it would choose on an idle bus (MJPEG instead of raw, a lower rate
/// or size), each time saying so with [`SessionEvent::FormatFallback`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusFit {
    /// Fit, unless an output pins a pixel format the camera sends itself (the default).
    Automatic = 0,
    /// Fit, whatever the outputs pin.
    On = 1,
    /// Never: a configuration that does not fit is refused.
    Off = 2,
}

/// A camera stream: pixel format, size and rate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActiveFormat {
    /// The pixel format's name, e.g. "YUYV".
    pub pixel_format: String,
    /// Width in pixels.
    pub width: u32,
    /// Height in pixels.
    pub height: u32,
    /// The rate the stream runs at.
    pub frame_rate: FrameRate,
}

/// What a session's configuration runs against what it asks, before anything streams.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigurationCheck {
    /// What differs from as asked: `ocellus::ffi::OC_CONFIGURATION_ADJUSTED_*` bits (0: as asked).
    pub adjusted: u32,
    /// What the camera will run.
    pub runs: ActiveFormat,
    /// What it would run as asked: the format the outputs and preset would have on an idle
    /// bus, at the rate the outputs ask.
    pub asked: ActiveFormat,
    /// Why, for the app's user; empty when as asked.
    pub reason: String,
}

impl ConfigurationCheck {
    /// Whether it runs as asked.
    pub fn as_asked(&self) -> bool {
        self.adjusted == 0
    }
}

/// A session's share of its camera's USB bus (behaviour §4 hardware cost).
#[derive(Clone, Debug, PartialEq)]
pub struct HardwareCost {
    /// Whether the stream fits.
    pub fits: bool,
    /// The bus's periodic time taken with the session's stream, 1.0 being all of it.
    pub total: f64,
    /// The stream's own part of `total`.
    pub own: f64,
    /// How many interfaces besides the camera's own reserve time on the bus now.
    pub others: u32,
    /// The bus, by its root hub's name ("usb3").
    pub bus: String,
}

impl Drop for CaptureSession {
    fn drop(&mut self) {
        if self.owned {
            unsafe { ffi::oc_capture_session_destroy(self.raw.as_ptr()) }
        }
    }
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
    /// The active microphone mode or its engine changed: the active mode's name, then after ": "
    /// why it is not the preferred one (see [`CaptureSession::microphone_mode`]).
    MicrophoneModeChanged(String),
    /// To fit its USB bus, or because another app streams it so, the camera runs another format
    /// than it would on an idle bus ("ID runs … instead of …: " and why).
    FormatFallback(String),
}

type EventClosure = Box<dyn FnMut(SessionEvent) + Send + 'static>;

/// A session event callback; dropping it unregisters it (waiting for a call in flight) and frees it.
pub struct SessionRegistration<'s> {
    session: &'s CaptureSession,
    id: ffi::oc_callback_id,
    closure: *mut EventClosure,
}

impl Drop for SessionRegistration<'_> {
    fn drop(&mut self) {
        unsafe {
            ffi::oc_capture_session_remove_callback(self.session.raw(), self.id);
            drop(Box::from_raw(self.closure));
        }
    }
}

impl CaptureSession {
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
    pub fn on_event<F>(&self, callback: F) -> Result<SessionRegistration<'_>>
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
    if let Some(event) = session_event(event, text(message).unwrap_or_default()) {
        contain_panic("a session event callback", || callback(event));
    }
}

/// The event a session (or a multi-camera session) reports; `None` for a newer library's event
/// this binding does not know yet.
pub(crate) fn session_event(event: ffi::oc_session_event, message: String) -> Option<SessionEvent> {
    Some(match event {
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
        ffi::OC_SESSION_EVENT_MICROPHONE_MODE_CHANGED => SessionEvent::MicrophoneModeChanged(message),
        ffi::OC_SESSION_EVENT_FORMAT_FALLBACK => SessionEvent::FormatFallback(message),
        _ => return None,
    })
}
