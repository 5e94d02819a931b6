//! Devices, their formats and controls (header sections "Devices" and "Controls").
use crate::{c_string, check, ffi, last_error, text, Result};
use std::fmt;
use std::os::raw::c_char;
use std::ptr::{self, NonNull};

/// The fourcc of a pixel format by any of its everyday names (NV12, I420, YUYV, UYVY, MJPEG,
/// BGRA, RGBA, BGR24, RGB24, GRAY8, …) or a V4L2 code; an unknown name is an
/// `InvalidArgument` error listing the known ones.
pub fn pixel_format_code(name: &str) -> Result<u32> {
    let name = c_string(name, "pixel format")?;
    let mut code = 0u32;
    check(unsafe { ffi::oc_pixel_format_from_name(name.as_ptr(), &mut code) })?;
    Ok(code)
}

/// The one name Ocellus gives a pixel format in every output ("YUYV", "MJPEG", "BGRA", "GRAY8", …).
pub fn pixel_format_name(code: u32) -> String {
    let mut buffer = [0 as c_char; 32];
    unsafe { ffi::oc_pixel_format_name(code, buffer.as_mut_ptr(), buffer.len()) };
    text(buffer.as_ptr()).unwrap_or_default()
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

// SAFETY: the library's devices are immutable but for an atomic `connected` flag, a handle is a
// reference count the library changes atomically, and every `oc_device_*` function is safe from
// any thread.
unsafe impl Send for Device {}
// SAFETY: the calls above may also run on several threads at once.
unsafe impl Sync for Device {}

impl Device {
    /// Takes a new reference to a borrowed device pointer.
    pub(crate) fn retain(raw: *mut ffi::oc_device) -> Result<Device> {
        NonNull::new(unsafe { ffi::oc_device_retain(raw) })
            .map(|raw| Device { raw })
            .ok_or_else(|| last_error(ffi::OC_ERROR_INVALID_HANDLE))
    }

    pub(crate) fn ptr(&self) -> *const ffi::oc_device {
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

    /// Face-driven exposure or focus of this camera (behaviour §4; AVFoundation's
    /// `isFaceDrivenAutoExposureEnabled` and `automaticallyAdjustsFaceDrivenAutoExposureEnabled`).
    pub fn face_driven(&self, adjustment: FaceDrivenAdjustment) -> Result<FaceDrivenState> {
        let mut state = ffi::oc_face_driven_state {
            struct_size: std::mem::size_of::<ffi::oc_face_driven_state>() as u32,
            automatically_adjusts: false,
            enabled: false,
            tier: 0,
            active: false,
        };
        check(unsafe { ffi::oc_device_get_face_driven(self.raw.as_ptr(), adjustment as u32, &mut state) })?;
        Ok(FaceDrivenState {
            automatically_adjusts: state.automatically_adjusts,
            enabled: state.enabled,
            tier: match state.tier {
                ffi::OC_FACE_DRIVEN_TIER_CAMERA_REGION => FaceDrivenTier::CameraRegion,
                ffi::OC_FACE_DRIVEN_TIER_HOST => FaceDrivenTier::Host,
                _ => FaceDrivenTier::None,
            },
            active: state.active,
        })
    }

    /// Lets Ocellus decide (`automatically_adjusts`), or turns the adjustment on or off
    /// (`enabled`) for this camera in this context; a running session gives back what it
    /// changed when turned off.
    pub fn set_face_driven(&self, adjustment: FaceDrivenAdjustment, automatically_adjusts: bool, enabled: bool) -> Result<()> {
        check(unsafe { ffi::oc_device_set_face_driven(self.raw.as_ptr(), adjustment as u32, automatically_adjusts, enabled) })
    }

    /// This camera's Center Stage (AVFoundation's `isCenterStageEnabled` and `isCenterStageActive`).
    pub fn center_stage(&self) -> Result<CenterStageState> {
        let mut state = ffi::oc_center_stage_state {
            struct_size: std::mem::size_of::<ffi::oc_center_stage_state>() as u32,
            enabled: false,
            active: false,
            window: [0.0; 4],
        };
        check(unsafe { ffi::oc_device_get_center_stage(self.raw.as_ptr(), &mut state) })?;
        Ok(CenterStageState { enabled: state.enabled, active: state.active, window: state.window })
    }

    /// Frames this camera's outputs on the faces in view (or stops, zooming back out), at once,
    /// for every session of this context that streams it.
    pub fn set_center_stage(&self, enabled: bool) -> Result<()> {
        check(unsafe { ffi::oc_device_set_center_stage(self.raw.as_ptr(), enabled) })
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

/// What follows the largest face in view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum FaceDrivenAdjustment {
    /// Exposure (and gain) follow the largest face in view.
    Exposure = ffi::OC_FACE_DRIVEN_EXPOSURE,
    /// Focus follows the largest face in view.
    Focus = ffi::OC_FACE_DRIVEN_FOCUS,
}

/// How a camera is steered by faces, chosen from its controls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaceDrivenTier {
    /// It cannot be: no region of interest, no manual exposure time (or absolute focus).
    None,
    /// The camera's own UVC 1.5 region of interest, set on the face.
    CameraRegion,
    /// Ocellus meters the face and drives the camera's controls itself.
    Host,
}

impl FaceDrivenTier {
    /// "none", "roi" or "host", as `ocellus controls --json` writes it.
    pub fn label(self) -> &'static str {
        match self {
            FaceDrivenTier::None => "none",
            FaceDrivenTier::CameraRegion => "roi",
            FaceDrivenTier::Host => "host",
        }
    }
}

/// A camera's Center Stage framing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CenterStageState {
    /// Whether the app wants the camera's outputs framed on the faces in view.
    pub enabled: bool,
    /// Whether a session frames them now.
    pub active: bool,
    /// The window the outputs show: x, y, width, height in 0…1 of the camera's picture.
    pub window: [f64; 4],
}

/// One face-driven adjustment of a camera.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FaceDrivenState {
    /// Ocellus decides whether it runs (the default).
    pub automatically_adjusts: bool,
    /// Whether it may run now: the app's choice, or Ocellus's.
    pub enabled: bool,
    /// How the camera is steered.
    pub tier: FaceDrivenTier,
    /// Whether it is acting on the camera now.
    pub active: bool,
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
