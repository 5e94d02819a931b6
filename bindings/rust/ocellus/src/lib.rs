//! Safe Rust API for Ocellus: cameras and microphones on Linux.
//!
//! ```no_run
//! let ctx = ocellus::Context::new("org.example.App", &ocellus::ContextOptions::default())?;
//! for device in ctx.devices()? {
//!     println!("{} {:?} {}", device.unique_id(), device.device_type(), device.name());
//! }
//! # Ok::<(), ocellus::Error>(())
//! ```
//!
//! Errors carry the library's status and message. Callbacks run on a library
//! thread; a panic inside one is caught (it must not unwind into C), reported on
//! stderr, and later callbacks still run.
#![warn(missing_docs)]

pub use ocellus_sys as ffi;

mod capture;
pub use capture::{CaptureSession, Frame, RetainedFrame, RotationCoordinator, VideoDataOutput};
mod stills;
pub use stills::{MovieFileOutput, Photo, PhotoOutput, PhotoSettings, Recording};
mod audio;
pub use audio::{AudioDataOutput, SessionEvent, SessionRegistration};
mod depth;
pub use depth::{DepthDataOutput, DepthSamples, OutputSynchronizer};
mod access;
pub use access::CameraAuthorization;

use std::ffi::{CStr, CString};
use std::fmt;
use std::os::raw::{c_char, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr::{self, NonNull};

/// What kind of failure an [`Error`] is; mirrors `oc_status` (new statuses may be added).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// An argument was missing, out of range or malformed.
    InvalidArgument,
    /// A handle was already destroyed or released.
    InvalidHandle,
    /// A backend (the PipeWire daemon) could not be reached or went away.
    BackendUnavailable,
    /// The device, format or registration asked for does not exist.
    NotFound,
    /// The call is not allowed in the object's current state.
    WrongState,
    /// An operation did not complete in time.
    Timeout,
    /// Memory or another resource ran out (including USB bandwidth).
    NoResources,
    /// The device is in use by another client.
    Busy,
    /// The device went away.
    Disconnected,
    /// Reading or writing a file failed, or data was corrupt.
    Io,
    /// An optional library Ocellus loads on first use (FFmpeg) is not installed.
    LibraryUnavailable,
    /// The app may not use the camera: the portal or the user refused, or the system's permissions.
    PermissionDenied,
    /// Anything else; the message says what.
    Other,
}

/// A failed library call, with the library's own message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// The kind of failure.
    pub kind: ErrorKind,
    /// The library's `oc_status` code (negative).
    pub status: i32,
    /// What went wrong, in the library's words.
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({:?})", self.message, self.kind)
    }
}

impl std::error::Error for Error {}

/// The result of a fallible call.
pub type Result<T> = std::result::Result<T, Error>;

pub(crate) fn text(raw: *const c_char) -> Option<String> {
    if raw.is_null() {
        None
    } else {
        Some(unsafe { CStr::from_ptr(raw) }.to_string_lossy().into_owned())
    }
}

fn last_error(status: i32) -> Error {
    error(status, text(unsafe { ffi::oc_last_error_message() }).unwrap_or_default())
}

/// The error for a status code and its message (as callbacks report them).
pub(crate) fn error(status: i32, message: String) -> Error {
    let kind = match status {
        ffi::OC_ERROR_INVALID_ARGUMENT => ErrorKind::InvalidArgument,
        ffi::OC_ERROR_INVALID_HANDLE => ErrorKind::InvalidHandle,
        ffi::OC_ERROR_BACKEND_UNAVAILABLE => ErrorKind::BackendUnavailable,
        ffi::OC_ERROR_NOT_FOUND => ErrorKind::NotFound,
        ffi::OC_ERROR_WRONG_STATE => ErrorKind::WrongState,
        ffi::OC_ERROR_TIMEOUT => ErrorKind::Timeout,
        ffi::OC_ERROR_NO_RESOURCES => ErrorKind::NoResources,
        ffi::OC_ERROR_BUSY => ErrorKind::Busy,
        ffi::OC_ERROR_DISCONNECTED => ErrorKind::Disconnected,
        ffi::OC_ERROR_IO => ErrorKind::Io,
        ffi::OC_ERROR_LIBRARY_UNAVAILABLE => ErrorKind::LibraryUnavailable,
        ffi::OC_ERROR_PERMISSION_DENIED => ErrorKind::PermissionDenied,
        _ => ErrorKind::Other,
    };
    Error { kind, status, message }
}

pub(crate) fn check(status: i32) -> Result<()> {
    if status < 0 {
        Err(last_error(status))
    } else {
        Ok(())
    }
}

/// The fourcc of a pixel format by any of its everyday names (NV12, I420, YUYV, UYVY, MJPEG,
/// BGRA, RGBA, BGR24, RGB24, GRAY8, …) or a V4L2 code; an unknown name is an
/// `InvalidArgument` error listing the known ones.
pub fn pixel_format_code(name: &str) -> Result<u32> {
    let name = c_string(name, "pixel format")?;
    let mut code = 0u32;
    check(unsafe { ffi::oc_pixel_format_from_name(name.as_ptr(), &mut code) })?;
    Ok(code)
}

/// The one name Ocellus gives a pixel format in every output ("YUYV", "MJPG", "I420", …).
pub fn pixel_format_name(code: u32) -> String {
    let mut buffer = [0 as c_char; 32];
    unsafe { ffi::oc_pixel_format_name(code, buffer.as_mut_ptr(), buffer.len()) };
    text(buffer.as_ptr()).unwrap_or_default()
}

fn c_string(value: &str, what: &str) -> Result<CString> {
    CString::new(value).map_err(|_| Error {
        kind: ErrorKind::InvalidArgument,
        status: ffi::OC_ERROR_INVALID_ARGUMENT,
        message: format!("{} contains a NUL byte", what),
    })
}

/// The version of the loaded library.
pub fn version() -> String {
    text(unsafe { ffi::oc_version() }).unwrap_or_default()
}

/// What kind of device a [`Device`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeviceType {
    /// Part of the machine: a laptop's or board's camera.
    BuiltInCamera,
    /// Plugged in: USB webcams, display cameras, capture dongles.
    ExternalCamera,
    /// Made in software: v4l2loopback, a PipeWire source.
    VirtualCamera,
    /// A camera that also (or only) delivers depth maps.
    DepthCamera,
    /// An audio input.
    Microphone,
}

/// Which way a built-in camera faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// Not known, or not fixed (external and virtual cameras).
    Unspecified,
    /// Faces the user.
    Front,
    /// Faces away from the user.
    Back,
}

/// Where a device is reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// Through the PipeWire daemon, shared with other apps.
    PipeWire,
    /// The kernel's V4L2 node, opened directly.
    V4l2,
}

/// What happened to a device a hotplug callback names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HotplugEvent {
    /// The device appeared.
    Added,
    /// The device went away.
    Removed,
}

/// An exact frame rate in frames per second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameRate {
    /// Frames…
    pub numerator: u32,
    /// …per this many seconds.
    pub denominator: u32,
}

impl FrameRate {
    /// Frames per second as a float (30000/1001 is 29.97…).
    pub fn as_f64(&self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

/// One format a device offers; frame rates highest first (with `frame_rates_are_range`,
/// the maximum and minimum of a range).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Format {
    /// The pixel format's name, e.g. "MJPEG", "YUYV", "NV12".
    pub pixel_format: String,
    /// Width in pixels (the largest, for a range of sizes).
    pub width: u32,
    /// Height in pixels (the largest, for a range of sizes).
    pub height: u32,
    /// Frame rates offered at this size, highest first.
    pub frame_rates: Vec<FrameRate>,
    /// `frame_rates` holds the maximum and minimum of a continuous range.
    pub frame_rates_are_range: bool,
    /// For a range of sizes (a driver's stepwise or continuous sizes), its smallest size and
    /// steps; `width` × `height` is then the largest. `None` for one size.
    pub size_range: Option<SizeRange>,
}

/// A stepwise range of frame sizes: `min_width + k * step_width` up to the format's width,
/// and likewise for heights.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SizeRange {
    /// The smallest width.
    pub min_width: u32,
    /// The smallest height.
    pub min_height: u32,
    /// Widths go up in these steps.
    pub step_width: u32,
    /// Heights go up in these steps.
    pub step_height: u32,
}

/// A camera control as the device describes it, with its value when read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Control {
    /// The driver's control ID (`V4L2_CID_*`).
    pub id: u32,
    /// The name as `v4l2-ctl` prints it, e.g. "brightness".
    pub name: String,
    /// `OC_CONTROL_TYPE_*` (see the header): 1 integer, 2 boolean, 3 menu, …
    pub control_type: u32,
    /// Smallest value.
    pub minimum: i64,
    /// Largest value.
    pub maximum: i64,
    /// Distance between settable values.
    pub step: i64,
    /// The driver's default.
    pub default_value: i64,
    /// `OC_CONTROL_FLAG_*` bits.
    pub flags: u32,
    /// The value when the list was read; `None` for buttons, write-only and payload controls.
    pub value: Option<i64>,
    /// (value to set, item name) of menu controls.
    pub menu: Vec<(i64, String)>,
}

/// A camera or microphone: one reference to the library's device, released on drop.
pub struct Device {
    pub(crate) raw: NonNull<ffi::oc_device>,
}

// The library's devices are immutable but for an atomic `connected` flag.
unsafe impl Send for Device {}
unsafe impl Sync for Device {}

impl Device {
    /// Takes a new reference to a borrowed device pointer.
    pub(crate) fn retain(raw: *mut ffi::oc_device) -> Result<Device> {
        NonNull::new(unsafe { ffi::oc_device_retain(raw) })
            .map(|raw| Device { raw })
            .ok_or_else(|| last_error(ffi::OC_ERROR_INVALID_HANDLE))
    }

    fn ptr(&self) -> *const ffi::oc_device {
        self.raw.as_ptr()
    }

    /// Stable across replug and reboot (behaviour §1).
    pub fn unique_id(&self) -> String {
        text(unsafe { ffi::oc_device_unique_id(self.ptr()) }).unwrap_or_default()
    }

    /// The name to show people.
    pub fn name(&self) -> String {
        text(unsafe { ffi::oc_device_name(self.ptr()) }).unwrap_or_default()
    }

    /// What kind of device it is.
    pub fn device_type(&self) -> DeviceType {
        match unsafe { ffi::oc_device_get_type(self.ptr()) } {
            ffi::OC_DEVICE_TYPE_BUILT_IN_CAMERA => DeviceType::BuiltInCamera,
            ffi::OC_DEVICE_TYPE_EXTERNAL_CAMERA => DeviceType::ExternalCamera,
            ffi::OC_DEVICE_TYPE_DEPTH_CAMERA => DeviceType::DepthCamera,
            ffi::OC_DEVICE_TYPE_MICROPHONE => DeviceType::Microphone,
            _ => DeviceType::VirtualCamera,
        }
    }

    /// Which way it faces, for built-in cameras.
    pub fn position(&self) -> Position {
        match unsafe { ffi::oc_device_get_position(self.ptr()) } {
            ffi::OC_DEVICE_POSITION_FRONT => Position::Front,
            ffi::OC_DEVICE_POSITION_BACK => Position::Back,
            _ => Position::Unspecified,
        }
    }

    /// The backend this device is reached through.
    pub fn backend(&self) -> Backend {
        match unsafe { ffi::oc_device_get_backend(self.ptr()) } {
            ffi::OC_BACKEND_V4L2 => Backend::V4l2,
            _ => Backend::PipeWire,
        }
    }

    /// False, for good, once the device has gone away.
    pub fn is_connected(&self) -> bool {
        unsafe { ffi::oc_device_is_connected(self.ptr()) }
    }

    /// Whether several applications can stream it at once (PipeWire: yes; raw V4L2: no).
    pub fn supports_multitasking(&self) -> bool {
        unsafe { ffi::oc_device_supports_multitasking(self.ptr()) }
    }

    /// USB vendor ID, when known.
    pub fn vendor_id(&self) -> Option<u16> {
        Some(unsafe { ffi::oc_device_vendor_id(self.ptr()) }).filter(|id| *id != 0)
    }

    /// USB product ID, when known.
    pub fn product_id(&self) -> Option<u16> {
        Some(unsafe { ffi::oc_device_product_id(self.ptr()) }).filter(|id| *id != 0)
    }

    /// USB serial number, when the device has one.
    pub fn serial_number(&self) -> Option<String> {
        text(unsafe { ffi::oc_device_serial_number(self.ptr()) })
    }

    /// A backend property such as "device.bus-path", if the device has it.
    pub fn property(&self, key: &str) -> Option<String> {
        let key = c_string(key, "property key").ok()?;
        text(unsafe { ffi::oc_device_get_property(self.ptr(), key.as_ptr()) })
    }

    /// The picture formats it offers.
    pub fn formats(&self) -> Result<Vec<Format>> {
        let count = unsafe { ffi::oc_device_format_count(self.ptr()) };
        (0..count).map(|index| self.describe_format(index, ffi::oc_device_get_format)).collect()
    }

    /// Format `index` as `describe` (oc_device_get_format or oc_device_get_depth_format) tells it.
    pub(crate) fn describe_format(
        &self,
        index: usize,
        describe: unsafe extern "C" fn(*const ffi::oc_device, usize, *mut ffi::oc_format_info) -> ffi::oc_status,
    ) -> Result<Format> {
        let mut info = ffi::oc_format_info {
            struct_size: std::mem::size_of::<ffi::oc_format_info>() as u32,
            pixel_format: 0,
            width: 0,
            height: 0,
            frame_rate_count: 0,
            frame_rates: ptr::null(),
            frame_rates_are_range: false,
            sizes_are_range: false,
            min_width: 0,
            min_height: 0,
            step_width: 0,
            step_height: 0,
        };
        check(unsafe { describe(self.ptr(), index, &mut info) })?;
        let rates = if info.frame_rates.is_null() {
            &[][..]
        } else {
            unsafe { std::slice::from_raw_parts(info.frame_rates, info.frame_rate_count as usize) }
        };
        Ok(Format {
            pixel_format: pixel_format_name(info.pixel_format),
            width: info.width,
            height: info.height,
            frame_rates: rates.iter().map(|r| FrameRate { numerator: r.numerator, denominator: r.denominator }).collect(),
            frame_rates_are_range: info.frame_rates_are_range,
            size_range: info.sizes_are_range.then_some(SizeRange {
                min_width: info.min_width,
                min_height: info.min_height,
                step_width: info.step_width,
                step_height: info.step_height,
            }),
        })
    }

    /// The camera's controls (brightness, focus, exposure, … and whatever the driver has).
    pub fn controls(&self) -> Result<Vec<Control>> {
        let mut list = ptr::null_mut();
        check(unsafe { ffi::oc_device_copy_controls(self.raw.as_ptr(), &mut list) })?;
        let count = unsafe { ffi::oc_control_list_count(list) };
        let controls = (0..count)
            .map(|index| {
                let mut info: ffi::oc_control_info = unsafe { std::mem::zeroed() };
                info.struct_size = std::mem::size_of::<ffi::oc_control_info>() as u32;
                check(unsafe { ffi::oc_control_list_get(list, index, &mut info) })?;
                let menu = (0..info.menu_count as usize)
                    .map(|item| {
                        let (mut value, mut name) = (0i64, ptr::null());
                        unsafe { ffi::oc_control_list_get_menu_item(list, index, item, &mut value, &mut name) };
                        (value, text(name).unwrap_or_default())
                    })
                    .collect();
                Ok(Control {
                    id: info.id,
                    name: text(info.name).unwrap_or_default(),
                    control_type: info.type_,
                    minimum: info.minimum,
                    maximum: info.maximum,
                    step: info.step,
                    default_value: info.default_value,
                    flags: info.flags,
                    value: if info.has_value { Some(info.value) } else { None },
                    menu,
                })
            })
            .collect();
        unsafe { ffi::oc_control_list_free(list) };
        controls
    }

    /// Sets a control by name; values out of range or not in the menu are refused with the reason.
    pub fn set_control(&self, name: &str, value: i64) -> Result<()> {
        let name = c_string(name, "control name")?;
        check(unsafe { ffi::oc_device_set_control(self.raw.as_ptr(), name.as_ptr(), value) })
    }

    /// Takes the exclusive configuration lock until the guard is dropped.
    pub fn lock_for_configuration(&self) -> Result<ConfigurationLock<'_>> {
        check(unsafe { ffi::oc_device_lock_for_configuration(self.raw.as_ptr()) })?;
        Ok(ConfigurationLock { device: self })
    }

    /// Whether both values stand for the same plug-in of the device.
    pub fn same_instance(&self, other: &Device) -> bool {
        self.raw == other.raw
    }
}

/// Holds a device's configuration lock; dropping it unlocks.
pub struct ConfigurationLock<'a> {
    device: &'a Device,
}

impl Drop for ConfigurationLock<'_> {
    fn drop(&mut self) {
        unsafe { ffi::oc_device_unlock_for_configuration(self.device.raw.as_ptr()) };
    }
}

impl Clone for Device {
    fn clone(&self) -> Device {
        Device::retain(self.raw.as_ptr()).expect("a live device can be retained")
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        unsafe { ffi::oc_device_release(self.raw.as_ptr()) }
    }
}

impl fmt::Debug for Device {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Device")
            .field("unique_id", &self.unique_id())
            .field("type", &self.device_type())
            .field("name", &self.name())
            .field("connected", &self.is_connected())
            .finish()
    }
}

/// Options for [`Context::new`].
#[derive(Clone, Debug, Default)]
pub struct ContextOptions {
    /// PipeWire socket name or path (default: `PIPEWIRE_REMOTE`, else PipeWire's default).
    pub pipewire_remote: Option<String>,
    /// Where per-app state lives (default: `$OCELLUS_STATE_DIR`, then XDG).
    pub state_directory: Option<String>,
    /// How long creation may wait for the backends, in ms (0: the default, 3000).
    pub timeout_ms: u32,
}

/// Which preferred camera changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PreferredCamera {
    /// The camera the user last chose in this app (persisted).
    User,
    /// The library's choice, which follows plugs and unplugs.
    System,
}

type HotplugClosure = Box<dyn FnMut(HotplugEvent, &Device) + Send + 'static>;
type PreferredClosure = Box<dyn FnMut(PreferredCamera, Option<&Device>) + Send + 'static>;

/// A connection to the system's cameras for one application; destroyed on drop.
pub struct Context {
    pub(crate) raw: NonNull<ffi::oc_context>,
}

unsafe impl Send for Context {}
unsafe impl Sync for Context {}

impl Context {
    /// `app_id`: 1–255 characters from `[A-Za-z0-9._-]`, not starting with '.'.
    pub fn new(app_id: &str, options: &ContextOptions) -> Result<Context> {
        let app_id = c_string(app_id, "app ID")?;
        let remote = options.pipewire_remote.as_deref().map(|r| c_string(r, "PipeWire remote")).transpose()?;
        let state = options.state_directory.as_deref().map(|s| c_string(s, "state directory")).transpose()?;
        let mut raw_options = ffi::oc_context_options {
            struct_size: 0,
            pipewire_remote: ptr::null(),
            state_directory: ptr::null(),
            timeout_ms: 0,
        };
        unsafe { ffi::oc_context_options_init(&mut raw_options) };
        raw_options.pipewire_remote = remote.as_ref().map_or(ptr::null(), |r| r.as_ptr());
        raw_options.state_directory = state.as_ref().map_or(ptr::null(), |s| s.as_ptr());
        raw_options.timeout_ms = options.timeout_ms;
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_context_create(app_id.as_ptr(), &raw_options, &mut raw) })?;
        Ok(Context { raw: NonNull::new(raw).expect("oc_context_create returned OK with a handle") })
    }

    /// The app ID the context was created with.
    pub fn app_id(&self) -> String {
        text(unsafe { ffi::oc_context_app_id(self.raw.as_ptr()) }).unwrap_or_default()
    }

    /// Where this app's state lives (option, `$OCELLUS_STATE_DIR`, `$XDG_STATE_HOME/ocellus`, `~/.local/state/ocellus`).
    pub fn state_directory(&self) -> String {
        text(unsafe { ffi::oc_context_state_directory(self.raw.as_ptr()) }).unwrap_or_default()
    }

    /// Connected devices: cameras in the default selection order, then microphones.
    pub fn devices(&self) -> Result<Vec<Device>> {
        let mut list = ptr::null_mut();
        check(unsafe { ffi::oc_context_copy_devices(self.raw.as_ptr(), &mut list) })?;
        let count = unsafe { ffi::oc_device_list_count(list) };
        let devices = (0..count).map(|i| Device::retain(unsafe { ffi::oc_device_list_get(list, i) })).collect();
        unsafe { ffi::oc_device_list_free(list) };
        devices
    }

    pub(crate) fn copy_device(
        &self,
        copy: unsafe extern "C" fn(*mut ffi::oc_context, *mut *mut ffi::oc_device) -> i32,
    ) -> Result<Option<Device>> {
        let mut raw = ptr::null_mut();
        check(unsafe { copy(self.raw.as_ptr(), &mut raw) })?;
        // The copy is our reference: adopt it rather than retaining again.
        Ok(NonNull::new(raw).map(|raw| Device { raw }))
    }

    /// The camera's own microphone (the same USB device's audio interface) when connected.
    pub fn associated_microphone(&self, camera: &Device) -> Result<Option<Device>> {
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_context_copy_associated_microphone(self.raw.as_ptr(), camera.raw.as_ptr(), &mut raw) })?;
        Ok(NonNull::new(raw).map(|raw| Device { raw }))
    }

    /// The app's latest choice still connected, else the camera it last streamed from, else the
    /// first in the default order; `None` without cameras (behaviour §2).
    pub fn user_preferred_camera(&self) -> Result<Option<Device>> {
        self.copy_device(ffi::oc_context_copy_user_preferred_camera)
    }

    /// The user preferred camera, unless an external camera was plugged in since the last choice.
    pub fn system_preferred_camera(&self) -> Result<Option<Device>> {
        self.copy_device(ffi::oc_context_copy_system_preferred_camera)
    }

    /// The device a person means by `spec`: its unique ID, its index in `devices()` ("0"), a
    /// V4L2 node ("/dev/video2") or a part of its name only one device has ("logitech").
    pub fn device(&self, spec: &str) -> Result<Device> {
        let spec = c_string(spec, "device")?;
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_context_copy_device_matching(self.raw.as_ptr(), spec.as_ptr(), &mut raw) })?;
        Ok(Device { raw: NonNull::new(raw).expect("matched device") })
    }

    /// The connected device with exactly this unique ID (a `NotFound` error when none is).
    pub fn device_by_unique_id(&self, unique_id: &str) -> Result<Device> {
        let id = c_string(unique_id, "unique ID")?;
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_context_copy_device_by_unique_id(self.raw.as_ptr(), id.as_ptr(), &mut raw) })?;
        Ok(Device { raw: NonNull::new(raw).expect("found device") })
    }

    /// Records the user's choice, persisted for the app and seen by its other processes.
    pub fn set_user_preferred_camera(&self, camera: &Device) -> Result<()> {
        check(unsafe { ffi::oc_context_set_user_preferred_camera(self.raw.as_ptr(), camera.raw.as_ptr()) })
    }

    /// Why a backend is not running (e.g. no PipeWire daemon: the context then uses V4L2 alone).
    pub fn backend_problem(&self, backend: Backend) -> Option<String> {
        let kind = match backend {
            Backend::PipeWire => ffi::OC_BACKEND_PIPEWIRE,
            Backend::V4l2 => ffi::OC_BACKEND_V4L2,
        };
        let size = unsafe { ffi::oc_context_copy_backend_problem(self.raw.as_ptr(), kind, ptr::null_mut(), 0) };
        if size == 0 {
            return None;
        }
        let mut buffer = vec![0 as c_char; size + 1];
        unsafe { ffi::oc_context_copy_backend_problem(self.raw.as_ptr(), kind, buffer.as_mut_ptr(), buffer.len()) };
        text(buffer.as_ptr())
    }

    /// Why selection state could not be read or written (selection then works in memory).
    pub fn state_problem(&self) -> Option<String> {
        let size = unsafe { ffi::oc_context_copy_state_problem(self.raw.as_ptr(), ptr::null_mut(), 0) };
        if size == 0 {
            return None;
        }
        let mut buffer = vec![0 as c_char; size + 1];
        unsafe { ffi::oc_context_copy_state_problem(self.raw.as_ptr(), buffer.as_mut_ptr(), buffer.len()) };
        text(buffer.as_ptr())
    }

    /// A live view of the devices of the given `OC_DEVICE_TYPES_*` bits (0: all), media and position.
    pub fn discovery_session(&self, device_types: u32, media_type: ffi::oc_media_type, position: Position) -> Result<DiscoverySession<'_>> {
        let position = match position {
            Position::Unspecified => ffi::OC_DEVICE_POSITION_UNSPECIFIED,
            Position::Front => ffi::OC_DEVICE_POSITION_FRONT,
            Position::Back => ffi::OC_DEVICE_POSITION_BACK,
        };
        let mut raw = ptr::null_mut();
        check(unsafe { ffi::oc_discovery_session_create(self.raw.as_ptr(), device_types, media_type, position, &mut raw) })?;
        Ok(DiscoverySession { raw: NonNull::new(raw).expect("session handle"), _context: self })
    }

    /// Calls `callback` when the user or system preferred camera changes (plug, unplug, a new
    /// choice, another process of the app choosing) until the registration is dropped.
    #[must_use = "dropping the registration unregisters the callback"]
    pub fn on_preferred_camera_change<F>(&self, callback: F) -> Result<Registration<'_>>
    where
        F: FnMut(PreferredCamera, Option<&Device>) + Send + 'static,
    {
        let boxed: Box<PreferredClosure> = Box::new(Box::new(callback));
        self.register(boxed, |user_data, id| unsafe {
            ffi::oc_context_add_preferred_camera_callback(self.raw.as_ptr(), Some(preferred_trampoline), user_data, id)
        })
    }

    /// Calls `callback` on a library thread when a device appears or goes away, until the
    /// returned registration is dropped (drop waits for a call in flight to finish).
    #[must_use = "dropping the registration unregisters the callback"]
    pub fn on_hotplug<F>(&self, callback: F) -> Result<Registration<'_>>
    where
        F: FnMut(HotplugEvent, &Device) + Send + 'static,
    {
        let boxed: Box<HotplugClosure> = Box::new(Box::new(callback));
        self.register(boxed, |user_data, id| unsafe {
            ffi::oc_context_add_hotplug_callback(self.raw.as_ptr(), Some(hotplug_trampoline), user_data, id)
        })
    }

    /// Hands `closure` to the C function in `add` as user data; the registration frees it
    /// after unregistering (the library waits for a call in flight first).
    pub(crate) fn register<C: 'static>(
        &self,
        closure: Box<C>,
        add: impl FnOnce(*mut c_void, &mut ffi::oc_callback_id) -> i32,
    ) -> Result<Registration<'_>> {
        let user_data = Box::into_raw(closure);
        let mut id = 0;
        if let Err(error) = check(add(user_data as *mut c_void, &mut id)) {
            drop(unsafe { Box::from_raw(user_data) });
            return Err(error);
        }
        Ok(Registration { context: self, id, free: Box::new(move || drop(unsafe { Box::from_raw(user_data) })) })
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        unsafe { ffi::oc_context_destroy(self.raw.as_ptr()) }
    }
}

/// Runs an app's closure for a C trampoline. A panic must not unwind into the library's
/// thread (undefined behaviour across `extern "C"`): it is contained and reported on stderr,
/// and the library goes on. Every trampoline goes through here.
pub(crate) fn contain_panic(what: &str, closure: impl FnOnce()) {
    if catch_unwind(AssertUnwindSafe(closure)).is_err() {
        eprintln!("ocellus: {what} panicked; the panic was contained");
    }
}

unsafe extern "C" fn hotplug_trampoline(
    _ctx: *mut ffi::oc_context,
    event: ffi::oc_hotplug_event,
    device: *mut ffi::oc_device,
    user_data: *mut c_void,
) {
    let callback = &mut *(user_data as *mut HotplugClosure);
    let event = if event == ffi::OC_HOTPLUG_ADDED { HotplugEvent::Added } else { HotplugEvent::Removed };
    contain_panic("a hotplug callback", || {
        if let Ok(device) = Device::retain(device) {
            callback(event, &device);
        }
    });
}

unsafe extern "C" fn preferred_trampoline(
    _ctx: *mut ffi::oc_context,
    kind: ffi::oc_preferred_camera_kind,
    camera: *mut ffi::oc_device,
    user_data: *mut c_void,
) {
    let callback = &mut *(user_data as *mut PreferredClosure);
    let kind = if kind == ffi::OC_PREFERRED_CAMERA_USER { PreferredCamera::User } else { PreferredCamera::System };
    contain_panic("a preferred-camera callback", || {
        let camera = if camera.is_null() { None } else { Device::retain(camera).ok() };
        callback(kind, camera.as_ref());
    });
}

/// A registered callback; dropping it unregisters the callback and frees its closure.
pub struct Registration<'a> {
    context: &'a Context,
    id: ffi::oc_callback_id,
    free: Box<dyn FnMut()>,
}

impl Drop for Registration<'_> {
    fn drop(&mut self) {
        // Returns only after a call in flight has finished, so the closure can be freed.
        unsafe { ffi::oc_context_remove_callback(self.context.raw.as_ptr(), self.id) };
        (self.free)();
    }
}

/// A live, filtered view of a context's devices; destroyed on drop.
pub struct DiscoverySession<'a> {
    raw: NonNull<ffi::oc_discovery_session>,
    _context: &'a Context,
}

impl DiscoverySession<'_> {
    /// The matching connected devices now, in the default order.
    pub fn devices(&self) -> Result<Vec<Device>> {
        let mut list = ptr::null_mut();
        check(unsafe { ffi::oc_discovery_session_copy_devices(self.raw.as_ptr(), &mut list) })?;
        let count = unsafe { ffi::oc_device_list_count(list) };
        let devices = (0..count).map(|i| Device::retain(unsafe { ffi::oc_device_list_get(list, i) })).collect();
        unsafe { ffi::oc_device_list_free(list) };
        devices
    }
}

impl Drop for DiscoverySession<'_> {
    fn drop(&mut self) {
        unsafe { ffi::oc_discovery_session_destroy(self.raw.as_ptr()) }
    }
}
