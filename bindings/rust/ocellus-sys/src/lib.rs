//! Raw declarations of `include/ocellus.h`, generated from it by `scripts/mirrors.py`. See the
//! header for ownership and threading of each function; the safe wrapper is the `ocellus` crate.
#![allow(non_camel_case_types)]
#![warn(missing_docs)]

use std::os::raw::{c_char, c_int, c_void};

/// `OC_FOURCC(a, b, c, d)`.
pub const fn oc_fourcc(code: [u8; 4]) -> u32 {
    u32::from_le_bytes(code)
}

/// Result of a fallible call: OC_OK (0) or one of the negative codes below.
pub type oc_status = i32;
/// Success.
pub const OC_OK: oc_status = 0;
/// An argument was NULL, out of range or malformed (e.g. an invalid app ID).
pub const OC_ERROR_INVALID_ARGUMENT: oc_status = -1;
/// A handle was NULL where one is required, already destroyed, or released.
pub const OC_ERROR_INVALID_HANDLE: oc_status = -2;
/// A backend (e.g. the PipeWire daemon) could not be reached or went away.
pub const OC_ERROR_BACKEND_UNAVAILABLE: oc_status = -3;
/// The thing asked for (device, registration) does not exist.
pub const OC_ERROR_NOT_FOUND: oc_status = -4;
/// The call is not allowed in the object's current state.
pub const OC_ERROR_WRONG_STATE: oc_status = -5;
/// An operation did not complete in time.
pub const OC_ERROR_TIMEOUT: oc_status = -6;
/// Memory or another resource ran out (including USB bandwidth).
pub const OC_ERROR_NO_RESOURCES: oc_status = -7;
/// The device is in use by another client (V4L2 EBUSY).
pub const OC_ERROR_BUSY: oc_status = -8;
/// The device went away.
pub const OC_ERROR_DISCONNECTED: oc_status = -9;
/// Reading or writing a file failed (unwritable path, disk full), or data was corrupt.
pub const OC_ERROR_IO: oc_status = -10;
/// An optional library Ocellus loads on first use is not installed: FFmpeg's libavcodec/libavformat/libavutil, for movie files, H.264 cameras and photos from cameras that leave out JPEG tables. The message names it. Added in 0.2.
pub const OC_ERROR_LIBRARY_UNAVAILABLE: oc_status = -11;
/// The app may not use the camera: the camera portal or the user refused (see oc_context_request_camera_access()), or the system's permissions keep it from a device node (EACCES: the user is not in the `video` group) or the PipeWire daemon. The message says which, and what to do.
pub const OC_ERROR_PERMISSION_DENIED: oc_status = -12;
/// Anything else; the message says what.
pub const OC_ERROR_OTHER: oc_status = -99;
/// A library context: one connection to the system's cameras for one app.
#[repr(C)]
pub struct oc_context {
    _private: [u8; 0],
}
/// Options for oc_context_create(). Fill with oc_context_options_init() first.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_context_options {
    /// sizeof(oc_context_options) as the caller knows it; set by _init.
    pub struct_size: u32,
    /// PipeWire remote: a socket name or absolute socket path. NULL means the PIPEWIRE_REMOTE environment variable, else PipeWire's default socket. The string is copied.
    pub pipewire_remote: *const c_char,
    /// Directory for per-app state (preferences). NULL means $OCELLUS_STATE_DIR, else $XDG_STATE_HOME/ocellus, else ~/.local/state/ocellus. Copied.
    pub state_directory: *const c_char,
    /// How long oc_context_create() may wait for the backend to connect and finish its first enumeration, in milliseconds. 0 means the default (3000).
    pub timeout_ms: u32,
}
/// One capture device (camera or microphone). Reference counted.
#[repr(C)]
pub struct oc_device {
    _private: [u8; 0],
}
/// A snapshot list of devices.
#[repr(C)]
pub struct oc_device_list {
    _private: [u8; 0],
}
/// What kind of device a device is (oc_device_get_type()).
pub type oc_device_type = u32;
/// Part of the machine: a laptop's or board's camera.
pub const OC_DEVICE_TYPE_BUILT_IN_CAMERA: oc_device_type = 0;
/// Plugged in: USB webcams, display cameras, capture dongles.
pub const OC_DEVICE_TYPE_EXTERNAL_CAMERA: oc_device_type = 1;
/// Made in software: v4l2loopback, a PipeWire source, a screen.
pub const OC_DEVICE_TYPE_VIRTUAL_CAMERA: oc_device_type = 2;
/// A camera that also (or only) delivers depth maps.
pub const OC_DEVICE_TYPE_DEPTH_CAMERA: oc_device_type = 3;
/// An audio input (a camera's, a headset's, the machine's).
pub const OC_DEVICE_TYPE_MICROPHONE: oc_device_type = 4;
/// Which way a built-in camera faces (oc_device_get_position()).
pub type oc_device_position = u32;
/// Not known, or not fixed (external and virtual cameras).
pub const OC_DEVICE_POSITION_UNSPECIFIED: oc_device_position = 0;
/// Faces the user: the screen side.
pub const OC_DEVICE_POSITION_FRONT: oc_device_position = 1;
/// Faces away from the user.
pub const OC_DEVICE_POSITION_BACK: oc_device_position = 2;
/// Where a device is reached: through the PipeWire daemon, or its V4L2 node directly.
pub type oc_backend = u32;
/// Through the PipeWire daemon (shared with other apps).
pub const OC_BACKEND_PIPEWIRE: oc_backend = 0;
/// The kernel's /dev/video node, opened by the library itself.
pub const OC_BACKEND_V4L2: oc_backend = 1;
/// Whether the app may use cameras.
pub type oc_camera_authorization = u32;
/// Not asked yet; in a sandbox, until the app asks (or the portal has its stored yes).
pub const OC_CAMERA_AUTHORIZATION_NOT_DETERMINED: oc_camera_authorization = 0;
/// Not asked yet; in a sandbox, until the app asks (or the portal has its stored yes).
pub const OC_CAMERA_AUTHORIZATION_AUTHORIZED: oc_camera_authorization = 1;
/// The user said no; the desktop remembers it, and asking again answers no without a dialog.
pub const OC_CAMERA_AUTHORIZATION_DENIED: oc_camera_authorization = 2;
/// Nobody can grant it here: the camera portal is not running, or has no Camera interface.
pub const OC_CAMERA_AUTHORIZATION_RESTRICTED: oc_camera_authorization = 3;
/// The answer to oc_context_request_camera_access(): the authorization now, and `status` OC_OK or why not (OC_ERROR_PERMISSION_DENIED: denied or dismissed; OC_ERROR_BACKEND_UNAVAILABLE: no portal; OC_ERROR_TIMEOUT) with `message` (valid during the call).
pub type oc_camera_access_callback = Option<
    unsafe extern "C" fn(
        ctx: *mut oc_context,
        authorization: oc_camera_authorization,
        status: oc_status,
        message: *const c_char,
        user_data: *mut c_void,
    ),
>;
/// A frame rate as a fraction, e.g. 30/1 or 30000/1001 frames per second.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_fraction {
    /// Frames (for a rate) or the top of the fraction.
    pub numerator: u32,
    /// Seconds; never 0 in a filled fraction.
    pub denominator: u32,
}
/// One format a device offers. Filled by oc_device_get_format().
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_format_info {
    /// sizeof(oc_format_info) as the caller knows it; set by the caller.
    pub struct_size: u32,
    /// V4L2 fourcc, e.g. 'YUYV', 'NV12', 'MJPG' (see oc_fourcc_string()).
    pub pixel_format: u32,
    /// Pixels (the largest, for a range of sizes).
    pub width: u32,
    /// Pixels (the largest, for a range of sizes).
    pub height: u32,
    /// Number of entries in frame_rates.
    pub frame_rate_count: u32,
    /// Frame rates offered at this size, highest first. When frame_rates_are_range is true the list has two entries, the maximum and the minimum of a continuous range. Owned by the device; valid while the device is retained.
    pub frame_rates: *const oc_fraction,
    /// frame_rates holds the maximum and minimum of a continuous range.
    pub frame_rates_are_range: bool,
    /// The format's sizes are a range (a driver's stepwise or continuous frame sizes): any width min_width + k × step_width up to width, and likewise for height, streams; width × height is the largest. False for one size. The fields below are filled when struct_size covers them (added in 0.2; a smaller struct from 0.1 is filled up to frame_rates_are_range).
    pub sizes_are_range: bool,
    /// The format's sizes are a range (a driver's stepwise or continuous frame sizes): any width min_width + k × step_width up to width, and likewise for height, streams; width × height is the largest. False for one size. The fields below are filled when struct_size covers them (added in 0.2; a smaller struct from 0.1 is filled up to frame_rates_are_range).
    pub min_width: u32,
    /// The format's sizes are a range (a driver's stepwise or continuous frame sizes): any width min_width + k × step_width up to width, and likewise for height, streams; width × height is the largest. False for one size. The fields below are filled when struct_size covers them (added in 0.2; a smaller struct from 0.1 is filled up to frame_rates_are_range).
    pub min_height: u32,
    /// The format's sizes are a range (a driver's stepwise or continuous frame sizes): any width min_width + k × step_width up to width, and likewise for height, streams; width × height is the largest. False for one size. The fields below are filled when struct_size covers them (added in 0.2; a smaller struct from 0.1 is filled up to frame_rates_are_range).
    pub step_width: u32,
    /// The format's sizes are a range (a driver's stepwise or continuous frame sizes): any width min_width + k × step_width up to width, and likewise for height, streams; width × height is the largest. False for one size. The fields below are filled when struct_size covers them (added in 0.2; a smaller struct from 0.1 is filled up to frame_rates_are_range).
    pub step_height: u32,
}
/// What happened to the device a hotplug or discovery callback names.
pub type oc_hotplug_event = u32;
/// The device appeared (plugged in, or its backend came up).
pub const OC_HOTPLUG_ADDED: oc_hotplug_event = 0;
/// The device went away; its handle stays valid but disconnected.
pub const OC_HOTPLUG_REMOVED: oc_hotplug_event = 1;
/// 8-bit Y plane, then interleaved U/V at half size: the default output format
pub const OC_PIXEL_FORMAT_NV12: u32 = oc_fourcc(*b"NV12");
/// V4L2's YU12
pub const OC_PIXEL_FORMAT_I420: u32 = oc_fourcc(*b"YU12");
/// packed 4:2:2, Y U Y V (YUY2)
pub const OC_PIXEL_FORMAT_YUYV: u32 = oc_fourcc(*b"YUYV");
/// packed 4:2:2, U Y V Y
pub const OC_PIXEL_FORMAT_UYVY: u32 = oc_fourcc(*b"UYVY");
/// the camera's JPEGs, as they came
pub const OC_PIXEL_FORMAT_MJPEG: u32 = oc_fourcc(*b"MJPG");
/// the camera's H.264 access units, as they came
pub const OC_PIXEL_FORMAT_H264: u32 = oc_fourcc(*b"H264");
/// 32-bit B, G, R, A in memory (DRM's AR24)
pub const OC_PIXEL_FORMAT_BGRA: u32 = oc_fourcc(*b"AR24");
/// 32-bit R, G, B, A in memory (DRM's AB24)
pub const OC_PIXEL_FORMAT_RGBA: u32 = oc_fourcc(*b"AB24");
/// 24-bit B, G, R in memory (OpenCV's default)
pub const OC_PIXEL_FORMAT_BGR24: u32 = oc_fourcc(*b"BGR3");
/// 24-bit R, G, B in memory
pub const OC_PIXEL_FORMAT_RGB24: u32 = oc_fourcc(*b"RGB3");
/// 8-bit luma only
pub const OC_PIXEL_FORMAT_GRAY8: u32 = oc_fourcc(*b"GREY");
/// 16-bit depth
pub const OC_PIXEL_FORMAT_Z16: u32 = oc_fourcc(*b"Z16 ");
/// Control types (the V4L2 ones Ocellus handles).
pub type oc_control_type = u32;
/// Control types (the V4L2 ones Ocellus handles).
pub const OC_CONTROL_TYPE_INTEGER: oc_control_type = 1;
/// Control types (the V4L2 ones Ocellus handles).
pub const OC_CONTROL_TYPE_BOOLEAN: oc_control_type = 2;
/// Control types (the V4L2 ones Ocellus handles).
pub const OC_CONTROL_TYPE_MENU: oc_control_type = 3;
/// Control types (the V4L2 ones Ocellus handles).
pub const OC_CONTROL_TYPE_BUTTON: oc_control_type = 4;
/// Control types (the V4L2 ones Ocellus handles).
pub const OC_CONTROL_TYPE_INTEGER64: oc_control_type = 5;
/// Control types (the V4L2 ones Ocellus handles).
pub const OC_CONTROL_TYPE_STRING: oc_control_type = 7;
/// Control types (the V4L2 ones Ocellus handles).
pub const OC_CONTROL_TYPE_BITMASK: oc_control_type = 8;
/// Control types (the V4L2 ones Ocellus handles).
pub const OC_CONTROL_TYPE_INTEGER_MENU: oc_control_type = 9;
/// Compound types (always payload controls): arrays of 8-, 16- and 32-bit unsigned integers, and a width and height (two uint32_t). Added in 0.2.
pub const OC_CONTROL_TYPE_U8: oc_control_type = 0x0100;
/// Compound types (always payload controls): arrays of 8-, 16- and 32-bit unsigned integers, and a width and height (two uint32_t). Added in 0.2.
pub const OC_CONTROL_TYPE_U16: oc_control_type = 0x0101;
/// Compound types (always payload controls): arrays of 8-, 16- and 32-bit unsigned integers, and a width and height (two uint32_t). Added in 0.2.
pub const OC_CONTROL_TYPE_U32: oc_control_type = 0x0102;
/// Compound types (always payload controls): arrays of 8-, 16- and 32-bit unsigned integers, and a width and height (two uint32_t). Added in 0.2.
pub const OC_CONTROL_TYPE_AREA: oc_control_type = 0x0106;
/// A rectangle: left and top (int32_t), width and height (uint32_t), as a UVC 1.5 camera's region of interest is. Added in 0.3.
pub const OC_CONTROL_TYPE_RECT: oc_control_type = 0x0107;
/// The driver disabled it: it cannot be read or set.
pub const OC_CONTROL_FLAG_DISABLED: u32 = 0x0001;
/// Another client holds it (e.g. while streaming); try again later.
pub const OC_CONTROL_FLAG_GRABBED: u32 = 0x0002;
/// It can be read, not set.
pub const OC_CONTROL_FLAG_READ_ONLY: u32 = 0x0004;
/// Changing it may change other controls (re-read them).
pub const OC_CONTROL_FLAG_UPDATE: u32 = 0x0008;
/// Setting it has no effect now (e.g. manual exposure while auto is on).
pub const OC_CONTROL_FLAG_INACTIVE: u32 = 0x0010;
/// Best shown as a slider.
pub const OC_CONTROL_FLAG_SLIDER: u32 = 0x0020;
/// It can be set, not read (a relative move, a button).
pub const OC_CONTROL_FLAG_WRITE_ONLY: u32 = 0x0040;
/// The device changes it on its own (re-read it; e.g. exposure under auto).
pub const OC_CONTROL_FLAG_VOLATILE: u32 = 0x0080;
/// The value lives in a payload (strings, arrays, compound controls).
pub const OC_CONTROL_FLAG_HAS_PAYLOAD: u32 = 0x0100;
/// Setting it acts even when the value does not change.
pub const OC_CONTROL_FLAG_EXECUTE_ON_WRITE: u32 = 0x0200;
/// Changing it may change the stream's format.
pub const OC_CONTROL_FLAG_MODIFY_LAYOUT: u32 = 0x0400;
/// An array whose length may change.
pub const OC_CONTROL_FLAG_DYNAMIC_ARRAY: u32 = 0x0800;
/// One control; filled by oc_control_list_get().
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_control_info {
    /// sizeof(oc_control_info) as the caller knows it; set by the caller.
    pub struct_size: u32,
    /// The driver's control ID (V4L2_CID_*).
    pub id: u32,
    /// The name as v4l2-ctl prints it, e.g. "brightness"; owned by the list.
    pub name: *const c_char,
    /// Integer, boolean, menu, button, … (oc_control_type_name()).
    pub type_: oc_control_type,
    /// Smallest value.
    pub minimum: i64,
    /// Largest value.
    pub maximum: i64,
    /// Distance between settable values (1 for most).
    pub step: i64,
    /// The driver's default.
    pub default_value: i64,
    /// OR of OC_CONTROL_FLAG_* bits.
    pub flags: u32,
    /// Whether `value` holds the value read (false for buttons, write-only and payload controls).
    pub has_value: bool,
    /// The value read when the list was taken (see has_value).
    pub value: i64,
    /// Items of a menu or integer-menu control (see oc_control_list_get_menu_item()).
    pub menu_count: u32,
    /// Whether the value is a payload rather than `value`: strings, arrays (any type with dimensions) and compound types. Read it with oc_control_list_get_payload() or oc_control_list_get_string(); set it with oc_device_set_control_payload() or oc_device_set_control_string().
    pub has_payload: bool,
    /// Bytes of one element (a string's: its maximum length plus the NUL).
    pub element_size: u32,
    /// Elements of the value read (a dynamic array's current length).
    pub element_count: u32,
    /// How many of `dimensions` an array has (0 for a single value).
    pub dimension_count: u32,
    /// An array's dimensions, outermost first.
    pub dimensions: [u32; 4],
}
/// A snapshot of a device's controls with their values at the time it was taken.
#[repr(C)]
pub struct oc_control_list {
    _private: [u8; 0],
}
/// Which face-driven adjustment oc_device_get_face_driven() and oc_device_set_face_driven() mean.
pub type oc_face_driven_adjustment = u32;
/// Exposure (and gain) follow the largest face in view.
pub const OC_FACE_DRIVEN_EXPOSURE: oc_face_driven_adjustment = 0;
/// Focus follows the largest face in view.
pub const OC_FACE_DRIVEN_FOCUS: oc_face_driven_adjustment = 1;
/// How a camera is steered by faces, chosen from its controls.
pub type oc_face_driven_tier = u32;
/// Not at all: no region of interest, no manual exposure time (or absolute focus).
pub const OC_FACE_DRIVEN_TIER_NONE: oc_face_driven_tier = 0;
/// The camera's own UVC 1.5 region of interest, set on the face (Linux 6.15's region_of_interest_rect and _auto controls).
pub const OC_FACE_DRIVEN_TIER_CAMERA_REGION: oc_face_driven_tier = 1;
/// Ocellus meters the face and drives exposure time, then gain, or sweeps the absolute focus for the sharpest face, itself.
pub const OC_FACE_DRIVEN_TIER_HOST: oc_face_driven_tier = 2;
/// One face-driven adjustment of one camera; filled by oc_device_get_face_driven().
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_face_driven_state {
    /// sizeof(oc_face_driven_state) as the caller knows it; set by the caller.
    pub struct_size: u32,
    /// Ocellus decides whether it runs (the default): on while a session streams the camera, off while this process holds the camera's configuration lock.
    pub automatically_adjusts: bool,
    /// Whether it may run now: the app's choice, or Ocellus's when automatically_adjusts.
    pub enabled: bool,
    /// How this camera is steered (OC_FACE_DRIVEN_TIER_NONE: it cannot be).
    pub tier: oc_face_driven_tier,
    /// Whether it is acting on the camera now: a session streams it, a face is in view, and no other process has the camera open.
    pub active: bool,
}
/// A camera's Center Stage framing; filled by oc_device_get_center_stage().
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_center_stage_state {
    /// sizeof(oc_center_stage_state) as the caller knows it; set by the caller.
    pub struct_size: u32,
    /// Whether the app wants the camera's outputs framed on the faces in view.
    pub enabled: bool,
    /// Whether a session of this process frames the camera's outputs now (enabled while it streams, or zooming back out after being turned off).
    pub active: bool,
    /// The window the outputs show: x, y (top-left corner), width and height in fractions of the camera's picture, before any rotation or mirroring of an output; {0, 0, 1, 1} while not active.
    pub window: [f64; 4],
}
/// Called when a device appears or disappears.
pub type oc_hotplug_callback =
    Option<unsafe extern "C" fn(ctx: *mut oc_context, event: oc_hotplug_event, device: *mut oc_device, user_data: *mut c_void)>;
/// Identifies a callback registration; 0 is never a valid ID. Every `*_add_*callback` function takes an optional `out_id`: with NULL the callback is registered all the same and lasts until its object is destroyed.
pub type oc_callback_id = u64;
/// Call `callback` once when `device` goes away (its `connected` turns false). Unregister with oc_context_remove_callback().
pub type oc_device_disconnected_callback =
    Option<unsafe extern "C" fn(ctx: *mut oc_context, device: *mut oc_device, user_data: *mut c_void)>;
/// Called when a backend of the context stops working after it started (the PipeWire daemon went away): `error` is the status, `message` says why (valid during the call); its devices are removed (REMOVED events) and oc_context_copy_backend_problem() says the same from then on.
pub type oc_backend_failure_callback = Option<
    unsafe extern "C" fn(
        ctx: *mut oc_context,
        backend: oc_backend,
        error: oc_status,
        message: *const c_char,
        user_data: *mut c_void,
    ),
>;
/// A live, filtered view of a context's devices.
#[repr(C)]
pub struct oc_discovery_session {
    _private: [u8; 0],
}
/// OC_DEVICE_TYPE_BUILT_IN_CAMERA devices.
pub const OC_DEVICE_TYPES_BUILT_IN_CAMERA: u32 = 1 << 0;
/// OC_DEVICE_TYPE_EXTERNAL_CAMERA devices.
pub const OC_DEVICE_TYPES_EXTERNAL_CAMERA: u32 = 1 << 1;
/// OC_DEVICE_TYPE_VIRTUAL_CAMERA devices.
pub const OC_DEVICE_TYPES_VIRTUAL_CAMERA: u32 = 1 << 2;
/// OC_DEVICE_TYPE_DEPTH_CAMERA devices.
pub const OC_DEVICE_TYPES_DEPTH_CAMERA: u32 = 1 << 3;
/// OC_DEVICE_TYPE_MICROPHONE devices.
pub const OC_DEVICE_TYPES_MICROPHONE: u32 = 1 << 4;
/// The media a discovery session keeps.
pub type oc_media_type = u32;
/// Cameras and microphones.
pub const OC_MEDIA_TYPE_ANY: oc_media_type = 0;
/// Cameras only.
pub const OC_MEDIA_TYPE_VIDEO: oc_media_type = 1;
/// Microphones only.
pub const OC_MEDIA_TYPE_AUDIO: oc_media_type = 2;
/// Called on the context's event thread after the session's device list changed. `device` (borrowed for the call) was added or removed as `event` says.
pub type oc_discovery_callback = Option<
    unsafe extern "C" fn(
        session: *mut oc_discovery_session,
        event: oc_hotplug_event,
        device: *mut oc_device,
        user_data: *mut c_void,
    ),
>;
/// Which of the two preferred cameras a preferred-camera callback reports.
pub type oc_preferred_camera_kind = u32;
/// The camera the user last chose in this app (persisted).
pub const OC_PREFERRED_CAMERA_USER: oc_preferred_camera_kind = 0;
/// The library's choice: follows plugs and unplugs.
pub const OC_PREFERRED_CAMERA_SYSTEM: oc_preferred_camera_kind = 1;
/// Called when the user or system preferred camera changes: on plug, unplug, a new choice, or another process of the same app writing the history. `camera` is the new value (borrowed for the call), or NULL when none.
pub type oc_preferred_camera_callback = Option<
    unsafe extern "C" fn(ctx: *mut oc_context, kind: oc_preferred_camera_kind, camera: *mut oc_device, user_data: *mut c_void),
>;
/// A capture session: an input camera, outputs, and one camera stream feeding them.
#[repr(C)]
pub struct oc_capture_session {
    _private: [u8; 0],
}
/// Frames of a session for one consumer.
#[repr(C)]
pub struct oc_video_data_output {
    _private: [u8; 0],
}
/// One video frame.
#[repr(C)]
pub struct oc_frame {
    _private: [u8; 0],
}
/// behaviour §4 session presets: what the stream aims for when no output pins a size.
pub type oc_session_preset = u32;
/// The largest size at 30 fps or more (the default).
pub const OC_SESSION_PRESET_HIGH: oc_session_preset = 0;
/// About 640x480.
pub const OC_SESSION_PRESET_MEDIUM: oc_session_preset = 1;
/// The smallest size.
pub const OC_SESSION_PRESET_LOW: oc_session_preset = 2;
/// The largest size at any rate, for stills.
pub const OC_SESSION_PRESET_PHOTO: oc_session_preset = 3;
/// The largest size at any rate, for stills.
pub const OC_SESSION_PRESET_640X480: oc_session_preset = 4;
/// The largest size at any rate, for stills.
pub const OC_SESSION_PRESET_1280X720: oc_session_preset = 5;
/// The largest size at any rate, for stills.
pub const OC_SESSION_PRESET_1920X1080: oc_session_preset = 6;
/// The largest size at any rate, for stills.
pub const OC_SESSION_PRESET_3840X2160: oc_session_preset = 7;
/// Leave the choice to the outputs (as HIGH until devices have an active format).
pub const OC_SESSION_PRESET_INPUT_PRIORITY: oc_session_preset = 8;
/// A session's share of its camera's USB bus (behaviour §4 hardware cost); filled by oc_capture_session_get_hardware_cost(). Added in 0.3.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_hardware_cost {
    /// sizeof(oc_hardware_cost) as the caller knows it; set by the caller.
    pub struct_size: u32,
    /// Whether the stream fits: `total` at most 1.0, a full-speed camera's hub translator too, and the camera has an alternate setting that carries the stream.
    pub fits: bool,
    /// The bus's periodic (isochronous) time taken with the session's stream, 1.0 being all of it: 100 µs of each 125 µs microframe at high speed, 900 µs of each frame at full speed.
    pub total: f64,
    /// The session stream's own part of `total`: the alternate setting uvcvideo reserves for the chosen format (0 for a camera that streams over bulk).
    pub own: f64,
    /// How many interfaces besides the camera's own reserve time on the bus now: other sessions' cameras, other processes', microphones.
    pub others: u32,
    /// The bus, by its root hub's name ("usb3"); NUL-terminated.
    pub bus: [c_char; 16],
}
/// What a configuration runs differently from what it asks (a mask of them). Added in 0.3.
pub type oc_configuration_adjustment = u32;
/// The camera sends another pixel format than as asked (MJPEG where raw would not fit).
pub const OC_CONFIGURATION_ADJUSTED_PIXEL_FORMAT: oc_configuration_adjustment = 1 << 0;
/// The camera runs another size than as asked.
pub const OC_CONFIGURATION_ADJUSTED_SIZE: oc_configuration_adjustment = 1 << 1;
/// The stream runs slower than the outputs ask: the camera has no faster rate for the format, or a faster one would not fit the bus.
pub const OC_CONFIGURATION_ADJUSTED_FRAME_RATE: oc_configuration_adjustment = 1 << 2;
/// Why: to fit the camera's USB bus (behaviour §4 fit instead of fail).
pub const OC_CONFIGURATION_ADJUSTED_FOR_BUS: oc_configuration_adjustment = 1 << 3;
/// What a session's configuration runs against what it asks, before anything streams (libcamera's validate()); filled by oc_capture_session_check_configuration(). "As asked" is the format the outputs and preset would have from the camera on an idle bus, at the rate the outputs ask (a stream faster than every output's maximum rate is as asked: the outputs thin it). Added in 0.3.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_configuration_check {
    /// sizeof(oc_configuration_check) as the caller knows it; set by the caller.
    pub struct_size: u32,
    /// Whether it runs as asked (`adjusted` is 0).
    pub as_asked: bool,
    /// What differs: OC_CONFIGURATION_ADJUSTED_* bits, 0 when as asked.
    pub adjusted: u32,
    /// The pixel format (a fourcc) the camera will send.
    pub pixel_format: u32,
    /// The width the camera will run at.
    pub width: u32,
    /// The height the camera will run at.
    pub height: u32,
    /// The rate the stream will run at.
    pub frame_rate: oc_fraction,
    /// The pixel format as asked.
    pub asked_pixel_format: u32,
    /// The width as asked.
    pub asked_width: u32,
    /// The height as asked.
    pub asked_height: u32,
    /// The rate the outputs ask (the fastest of the format as asked when one takes every frame).
    pub asked_frame_rate: oc_fraction,
    /// Why, for the app's user ("it would take 122% of usb1 beside …"); NUL-terminated, empty when as asked, cut at a character boundary when longer.
    pub reason: [c_char; 256],
}
/// behaviour §4 fit instead of fail: whether a session may run a format that fits its camera's USB bus instead of the one it would choose on an idle bus (MJPEG instead of raw, a smaller size where the outputs take one). Added in 0.3.
pub type oc_bus_fit = u32;
/// Fit, unless an output pins a pixel format the camera sends itself (the default).
pub const OC_BUS_FIT_AUTOMATIC: oc_bus_fit = 0;
/// Fit, whatever the outputs pin (a fitting format must still serve them).
pub const OC_BUS_FIT_ON: oc_bus_fit = 1;
/// Never fit: a configuration whose format does not fit is refused (OC_ERROR_NO_RESOURCES).
pub const OC_BUS_FIT_OFF: oc_bus_fit = 2;
/// What a session event callback reports.
pub type oc_session_event = u32;
/// The camera stream runs: frames are on their way.
pub const OC_SESSION_EVENT_STARTED: oc_session_event = 0;
/// The session stopped as asked (oc_capture_session_stop_running()).
pub const OC_SESSION_EVENT_STOPPED: oc_session_event = 1;
/// The stream ended on its own (camera disconnected, daemon gone, driver error).
pub const OC_SESSION_EVENT_RUNTIME_ERROR: oc_session_event = 2;
/// The camera is in use by another client (`error` OC_ERROR_BUSY; the session keeps trying to start), or it stopped sending frames without going away (OC_ERROR_TIMEOUT: no frame for ten frame intervals, 1–3 s, or 4 s before the first; the session waits, and after 10 s more reports RUNTIME_ERROR and stops).
pub const OC_SESSION_EVENT_INTERRUPTED: oc_session_event = 3;
/// The interruption is over: the camera became free and the session started (STARTED follows), or a stalled camera sends frames again.
pub const OC_SESSION_EVENT_INTERRUPTION_ENDED: oc_session_event = 4;
/// Sound is missing: the default microphone moved to an input that could not be opened (the session runs without sound until the route changes again), or while recording the microphone sent nothing for half a second (OC_ERROR_TIMEOUT; the movie's sound track carries silence until it does).
pub const OC_SESSION_EVENT_AUDIO_INTERRUPTED: oc_session_event = 5;
/// Automatic switching made another camera the input; `message` is its unique ID.
pub const OC_SESSION_EVENT_INPUT_SWITCHED: oc_session_event = 6;
/// Automatic switching wants another camera (unique ID in `message`) but a recording is in progress: the switch happens when it ends.
pub const OC_SESSION_EVENT_SWITCH_DEFERRED: oc_session_event = 7;
/// Automatic switching could not move to a camera; the session kept its input. `message` starts with the camera's unique ID, then the reason.
pub const OC_SESSION_EVENT_SWITCH_FAILED: oc_session_event = 8;
/// A recording's encoder could not keep up with the camera on this machine (`error` OC_ERROR_NO_RESOURCES): rather than drop frames at random it records every other frame until it catches up; `message` says what changed. The recording's summary counts the frames left out as dropped.
pub const OC_SESSION_EVENT_RECORDING_DEGRADED: oc_session_event = 9;
/// The active microphone mode, the engine doing it or its echo cancellation changed (oc_capture_session_get_microphone_mode(), oc_capture_session_get_echo_cancellation()). `message` is the active mode's name (oc_microphone_mode_name()); when it is not the preferred one, `error` is OC_ERROR_LIBRARY_UNAVAILABLE and `message` goes on after ": " with why.
pub const OC_SESSION_EVENT_MICROPHONE_MODE_CHANGED: oc_session_event = 10;
/// To fit its USB bus, the camera runs another format than the outputs and preset would have on an idle bus (oc_capture_session_set_bus_fit(); since 0.3). `error` is OC_ERROR_NO_RESOURCES; `message` reads "ID runs MJPG 640x480 at 30.0 fps instead of YUYV 640x480 at 30.0 fps: " and why: the share of the bus the wanted format would take ("it would take 122% of usb1 beside …"), or the kernel's refusal at stream-on ("the kernel refused it (…)"), after which the next format that fits was tried. Also (with `error` OC_ERROR_BUSY, whatever the bus fit) when another app streams a PipeWire camera in another format, which the outputs are then served from (scaled or converted): why reads "the camera streams YUYV 1920x1080 for another app, not …". When they cannot be served from it, starting fails with OC_ERROR_BUSY saying so.
pub const OC_SESSION_EVENT_FORMAT_FALLBACK: oc_session_event = 11;
/// Session events. For RUNTIME_ERROR, INTERRUPTED, AUDIO_INTERRUPTED, SWITCH_FAILED, RECORDING_DEGRADED and FORMAT_FALLBACK, `error` is the status code and `message` says what happened; for INPUT_SWITCHED and SWITCH_DEFERRED `error` is 0 and `message` is the camera's unique ID; otherwise 0 and "". `message` is valid during the call. Runs on a library thread, one call at a time.
pub type oc_session_event_callback = Option<
    unsafe extern "C" fn(
        session: *mut oc_capture_session,
        event: oc_session_event,
        error: oc_status,
        message: *const c_char,
        user_data: *mut c_void,
    ),
>;
/// The range of an output's Y'CbCr samples (BT.601 matrix in both). RGB outputs are always full range and GRAY8 is full-range luma (as OpenCV's greyscale), whatever the camera sends; this chooses the range of NV12, I420, YUYV and UYVY outputs.
pub type oc_color_range = u32;
/// Luma 16–235, chroma 16–240: what OpenCV's COLOR_YUV2BGR_* codes, libyuv's I420 functions and video encoders expect. The default.
pub const OC_COLOR_RANGE_VIDEO: oc_color_range = 0;
/// 0–255 for luma and chroma, as JPEG (JFIF) stores them.
pub const OC_COLOR_RANGE_FULL: oc_color_range = 1;
/// Called for each frame with a view valid during the call (retain it with oc_frame_retain() to keep it), one frame at a time. Runs on the session's stream thread while the output is the stream's only output; when the stream feeds several outputs, each output's callback runs on a thread of the output's own, so a slow callback holds up only its own output (its frames drop as late, counted, while it is busy; the other outputs, the recording and the stall watch go on). It must not stop or reconfigure the session.
pub type oc_frame_callback =
    Option<unsafe extern "C" fn(output: *mut oc_video_data_output, frame: *const oc_frame, user_data: *mut c_void)>;
/// Why an output dropped a frame.
pub type oc_drop_reason = u32;
/// It arrived more than three frame intervals after capture (a slow consumer), or an H.264 decoder that fell behind skips it to catch up at the next key frame.
pub const OC_DROP_LATE: oc_drop_reason = 0;
/// The camera dropped it while this output's callback held the stream up.
pub const OC_DROP_OUT_OF_BUFFERS: oc_drop_reason = 1;
/// The source skipped it (a gap in sequence numbers not caused by this output), or it is an H.264 picture before the first key frame the output saw (the pictures it refers to never arrived).
pub const OC_DROP_DISCONTINUITY: oc_drop_reason = 2;
/// It could not be decoded (corrupt MJPEG), or its buffer was shorter than its format, size and strides claim (a depth map, or a picture after another app renegotiated the camera). A session none of whose frames its outputs can use stops with a runtime error at the first-frame deadline (4 s).
pub const OC_DROP_CORRUPT: oc_drop_reason = 3;
/// Several cameras streaming together, started and stopped as one (AVFoundation's AVCaptureMultiCamSession). Each camera added has a branch: an oc_capture_session whose input is that camera, to which the app connects that camera's outputs (video, depth, photo, movie, metadata) with the usual oc_capture_session_add_* calls, and sets its preset, bus fit and the rest. A branch's formats are chosen beside the cameras added before it, so the session fits its USB buses together before anything streams (behaviour §4 hardware cost); its fallbacks are the session's events. Branches do not start, stop, change camera or switch automatically on their own: automatic switching stays a single-camera feature.
#[repr(C)]
pub struct oc_multi_cam_session {
    _private: [u8; 0],
}
/// Multi-camera session events, with the same kinds as a session's: STARTED and STOPPED for the whole session (`camera` NULL); RUNTIME_ERROR when one camera's stream ended on its own (every camera has stopped; `message` starts with the camera's unique ID); the other kinds (INTERRUPTED, FORMAT_FALLBACK, RECORDING_DEGRADED, …) as a branch reports them. `camera` is the unique ID of the camera concerned; it and `message` are valid during the call.
pub type oc_multi_cam_event_callback = Option<
    unsafe extern "C" fn(
        session: *mut oc_multi_cam_session,
        event: oc_session_event,
        camera: *const c_char,
        error: oc_status,
        message: *const c_char,
        user_data: *mut c_void,
    ),
>;
/// 16-bit greyscale; depth on a depth function
pub const OC_PIXEL_FORMAT_Y16: u32 = oc_fourcc(*b"Y16 ");
/// 12-bit greyscale in 16-bit words (time-of-flight depth)
pub const OC_PIXEL_FORMAT_Y12: u32 = oc_fourcc(*b"Y12 ");
/// Ocellus's code for depth in metres as native-endian 32-bit floats (converted from the camera's words).
pub const OC_PIXEL_FORMAT_DEPTH32F: u32 = oc_fourcc(*b"Z32F");
/// Depth maps of a session for one consumer.
#[repr(C)]
pub struct oc_depth_data_output {
    _private: [u8; 0],
}
/// Called for each depth map with a view valid during the call (oc_frame_retain() keeps it), one map at a time. Runs on the thread of the stream that carries depth, or, when that stream feeds several outputs, on a thread of the output's own (as oc_frame_callback); the rules for calls from inside callbacks apply.
pub type oc_depth_callback =
    Option<unsafe extern "C" fn(output: *mut oc_depth_data_output, depth: *const oc_frame, user_data: *mut c_void)>;
/// Pairs a video data output's frames with a depth data output's maps captured at the same instant (capture times within half the shorter frame interval), delivered together to one callback; or, since 0.3, the frames of two cameras' video outputs (oc_output_synchronizer_create_for_cameras()). Capture times are the kernel's monotonic clock, one for every camera, not arrival. Works across rates: at 30 fps video and 15 fps depth, every depth map has its frame and every other frame has none. A frame without a partner is counted (oc_output_synchronizer_unmatched_frames()), never queued. While synchronized, the outputs' own callbacks are not called (pulling frames with oc_video_data_output_copy_next_frame() still works).
#[repr(C)]
pub struct oc_output_synchronizer {
    _private: [u8; 0],
}
/// Which stream of a synchronizer.
pub type oc_sync_stream = u32;
/// Which stream of a synchronizer.
pub const OC_SYNC_STREAM_VIDEO: oc_sync_stream = 0;
/// Which stream of a synchronizer.
pub const OC_SYNC_STREAM_DEPTH: oc_sync_stream = 1;
/// The first and the second output of a synchronizer of two cameras (0.3; the same values).
pub const OC_SYNC_STREAM_FIRST: oc_sync_stream = 0;
/// The first and the second output of a synchronizer of two cameras (0.3; the same values).
pub const OC_SYNC_STREAM_SECOND: oc_sync_stream = 1;
/// Called with each pair: `video` and `depth` are views valid during the call (oc_frame_retain() keeps either). Runs on the thread delivering one of the two outputs (as oc_frame_callback), one pair at a time; a slow callback holds up the two outputs (their frames then drop as late or out of buffers, counted by each output), not the session's other outputs.
pub type oc_synchronized_callback = Option<
    unsafe extern "C" fn(
        synchronizer: *mut oc_output_synchronizer,
        video: *const oc_frame,
        depth: *const oc_frame,
        user_data: *mut c_void,
    ),
>;
/// Called when the `microphone` device's route moves; `input` is the new input (borrowed for the call) or NULL when no microphone is left.
pub type oc_microphone_route_callback =
    Option<unsafe extern "C" fn(ctx: *mut oc_context, input: *mut oc_device, user_data: *mut c_void)>;
/// PCM from the session's microphone.
#[repr(C)]
pub struct oc_audio_data_output {
    _private: [u8; 0],
}
/// Called with interleaved 32-bit float samples (`frame_count` frames of `channels` samples at `sample_rate`), valid during the call; `timestamp_ns` is the CLOCK_MONOTONIC capture time of the first frame. Runs on the session's audio thread.
pub type oc_audio_callback = Option<
    unsafe extern "C" fn(
        output: *mut oc_audio_data_output,
        samples: *const f32,
        frame_count: usize,
        channels: u32,
        sample_rate: u32,
        timestamp_ns: u64,
        user_data: *mut c_void,
    ),
>;
/// Microphone modes (AVFoundation's AVCaptureDevice.MicrophoneMode): what a session does to its microphone's sound before its audio data outputs and recordings get it. Since 0.3.
pub type oc_microphone_mode = u32;
/// What Ocellus has always delivered: the signal as PipeWire gives it. The default.
pub const OC_MICROPHONE_MODE_STANDARD: oc_microphone_mode = 0;
/// The untouched signal, bit-exact.
pub const OC_MICROPHONE_MODE_WIDE_SPECTRUM: oc_microphone_mode = 1;
/// What is not speech — typing, clicks, fans, traffic — suppressed, the voice kept, by RNNoise (loaded on first use: OCELLUS_RNNOISE_LIB, else the system's librnnoise.so.0), or by DeepFilterNet where the environment says OCELLUS_VOICE_ISOLATION_ENGINE=deepfilternet (OCELLUS_DEEPFILTER_LIB; 30 ms). Before it, what the machine plays (the default output's monitor) is removed from the microphone by webrtc-audio-processing's echo canceller (Ocellus's plugin in LIBDIR/ocellus/, or OCELLUS_ECHO_CANCELLER_LIB), when it loads (oc_capture_session_get_echo_cancellation()). Mono: every channel carries the processed mix of all. Adds 20 ms of latency (28 ms with echo cancellation; DeepFilterNet 10 ms more), from the first time it is active on a stream until the stream closes (switching away keeps the delay, so that switching back and forth never leaves a gap).
pub const OC_MICROPHONE_MODE_VOICE_ISOLATION: oc_microphone_mode = 2;
/// Stills from a running session as JPEG with EXIF (Orientation from the output's rotation angle, DateTimeOriginal, Make/Model from the camera). From an MJPEG camera the camera's JPEG is kept and only the EXIF segment is put in; raw frames are encoded with libjpeg-turbo. Encoding runs on the output's own thread: the stream and other outputs do not wait for it.
#[repr(C)]
pub struct oc_photo_output {
    _private: [u8; 0],
}
/// A finished photo, valid during the photo callback.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_photo {
    /// The JPEG bytes (owned by the library; copy them to keep them).
    pub data: *const u8,
    /// Bytes at `data`.
    pub size: usize,
    /// Pixels, as stored (before EXIF Orientation is applied).
    pub width: u32,
    /// Pixels, as stored.
    pub height: u32,
    /// The EXIF Orientation written (1–8; 1 when the rotation was applied to the pixels).
    pub orientation: u16,
    /// The camera frame's sequence number.
    pub sequence: u64,
    /// CLOCK_MONOTONIC nanoseconds of the frame's capture.
    pub timestamp_ns: u64,
    /// The file written, or NULL when no path was asked for.
    pub path: *const c_char,
}
/// How to take one photo. Zero-initialise, then set struct_size = sizeof(oc_photo_settings).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_photo_settings {
    /// sizeof(oc_photo_settings) as the caller knows it.
    pub struct_size: u32,
    /// Turn the pixels by the rotation angle instead of writing it as EXIF Orientation.
    pub apply_rotation_to_pixels: bool,
    /// libjpeg-turbo quality 1–100 for encoded photos; 0 for the default (92).
    pub quality: i32,
    /// When not NULL, the JPEG is also written to this file (whole or not at all).
    pub path: *const c_char,
}
/// Called once per request: `status` OC_OK with `photo`, or an error (`photo` NULL) and a message, e.g. OC_ERROR_IO when the file could not be written or OC_ERROR_WRONG_STATE when the session stopped first. Runs on the output's thread.
pub type oc_photo_callback = Option<
    unsafe extern "C" fn(
        output: *mut oc_photo_output,
        status: oc_status,
        photo: *const oc_photo,
        message: *const c_char,
        user_data: *mut c_void,
    ),
>;
/// Records the session's camera into an MP4 or MOV file through libavformat, fragmented (an empty moov, then a fragment per key frame, at most a second apart, each flushed to disk) so that a crash, SIGKILL, unplug or full disk leaves a file that plays up to the last fragment. MJPEG cameras are recorded as they send (no re-encoding); raw formats are encoded to H.264 (libx264). The rotation angle goes into the track's display matrix, not the pixels. Video data outputs keep receiving frames while recording.
#[repr(C)]
pub struct oc_movie_file_output {
    _private: [u8; 0],
}
/// What a finished recording holds; valid during the recording callback.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_recording_summary {
    /// The file written.
    pub path: *const c_char,
    /// Its size in bytes.
    pub bytes: i64,
    /// Video width in pixels, as stored.
    pub width: u32,
    /// Video height in pixels, as stored.
    pub height: u32,
    /// Seconds of video.
    pub duration: f64,
    /// Video frames written.
    pub frames: u64,
    /// Frames dropped because the writer fell behind (never queued without bound).
    pub dropped_frames: u64,
    /// Clockwise degrees in the display matrix.
    pub rotation: i32,
    /// "mjpeg", "libx264" or "mpeg4".
    pub video_codec: *const c_char,
    /// Seconds of sound (0 without a microphone). Added in 0.2: read it only from a 0.2 library.
    pub audio_duration: f64,
    /// Sound frames (samples per channel) left out: the writer fell two seconds behind, or the microphone changed to another format than the track's (silence stands for them). Added in 0.3: read it only from a 0.3 library.
    pub dropped_audio_frames: u64,
}
/// Called once per recording when its file is finished: `status` OC_OK when it was stopped as asked, else why it ended early (OC_ERROR_DISCONNECTED, OC_ERROR_IO for a full disk, …) with a message. `summary` is never NULL: the file is playable up to that point either way. Runs on the recording's writer thread.
pub type oc_recording_callback = Option<
    unsafe extern "C" fn(
        output: *mut oc_movie_file_output,
        status: oc_status,
        message: *const c_char,
        summary: *const oc_recording_summary,
        user_data: *mut c_void,
    ),
>;
/// Faces and machine-readable codes seen in a session's frames (AVFoundation's AVCaptureMetadataOutput). The output takes the camera's frames as they come (it changes nothing the camera streams); at most its analysis rate of them a second become a small grey copy, turned and mirrored as the output is, which the output's own thread searches. A frame due while that thread is still busy is dropped and counted, never queued; other outputs never wait. Faces are found by OpenCV (objdetect), codes read by zxing-cpp, each through a plugin in LIBDIR/ocellus/ loaded when the first output needing it is made.
#[repr(C)]
pub struct oc_metadata_output {
    _private: [u8; 0],
}
/// What a metadata output looks for; OR them together.
pub type oc_metadata_object_type = u32;
/// Human faces, each with a tracking ID.
pub const OC_METADATA_OBJECT_FACE: oc_metadata_object_type = 1 << 0;
/// QR and the common 2D (Micro QR, Aztec, Data Matrix, PDF417) and 1D (EAN-8/13, UPC-A/E, Code 39/93/128, ITF, Codabar) codes.
pub const OC_METADATA_OBJECT_CODE: oc_metadata_object_type = 1 << 1;
/// One object seen in a frame, valid during the metadata callback.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_metadata_object {
    /// OC_METADATA_OBJECT_FACE or OC_METADATA_OBJECT_CODE.
    pub type_: u32,
    /// The box's left edge in 0...1 of the delivered picture (after the output's rotation and mirroring, as a preview draws it).
    pub x: f64,
    /// The box's top edge, in 0...1 of the delivered picture.
    pub y: f64,
    /// The box's width, in 0...1 of the delivered picture's width.
    pub width: f64,
    /// The box's height, in 0...1 of the delivered picture's height.
    pub height: f64,
    /// 0...1 (1 for codes, which decode or are not reported).
    pub confidence: f32,
    /// Faces: an ID that stays while the face stays in view, never reused by this output (from 1 up). 0 for codes.
    pub face_id: u64,
    /// Codes: "qr", "micro_qr", "aztec", "data_matrix", "pdf417", "ean8", "ean13", "upca", "upce", "code39", "code93", "code128", "itf" or "codabar". NULL for faces.
    pub symbology: *const c_char,
    /// Codes: the content as UTF-8 text (NUL-terminated). NULL for faces.
    pub text: *const c_char,
    /// Codes: the content as encoded (`byte_count` bytes; binary QR codes). NULL for faces.
    pub bytes: *const u8,
    /// Bytes at `bytes`.
    pub byte_count: usize,
}
/// Called for each analysed frame that held objects, and once with none (`count` 0) when all have gone. `timestamp_ns` is the frame's CLOCK_MONOTONIC capture time. Runs on the output's own thread; the objects are the library's, valid during the call.
pub type oc_metadata_callback = Option<
    unsafe extern "C" fn(
        output: *mut oc_metadata_output,
        timestamp_ns: u64,
        objects: *const oc_metadata_object,
        count: usize,
        user_data: *mut c_void,
    ),
>;
/// A metadata output's counts. Zero-initialise, then set struct_size = sizeof(oc_metadata_statistics).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_metadata_statistics {
    /// sizeof(oc_metadata_statistics) as the caller knows it.
    pub struct_size: u32,
    /// Callbacks made (analyses that saw objects, or saw them go).
    pub deliveries: u64,
    /// Objects in those deliveries.
    pub objects: u64,
    /// Frames searched.
    pub analysed_frames: u64,
    /// Frames due for analysis that came while the last was still searched.
    pub dropped_frames: u64,
    /// Frames that could not be decoded for analysis.
    pub corrupt_frames: u64,
}
/// Preview and capture angles for one camera.
#[repr(C)]
pub struct oc_rotation_coordinator {
    _private: [u8; 0],
}
/// oc_rotation_coordinator_set_interface_orientation(): a UI that rotates with the device.
pub const OC_INTERFACE_FOLLOWS_DEVICE: i32 = -1;
/// Called with the new angles whenever either changes; on a library thread.
pub type oc_rotation_callback =
    Option<unsafe extern "C" fn(coordinator: *mut oc_rotation_coordinator, preview: i32, capture: i32, user_data: *mut c_void)>;

#[link(name = "ocellus")]
extern "C" {
    /// The version of the library loaded at run time, "MAJOR.MINOR.PATCH".
    pub fn oc_version() -> *const c_char;
    /// A short constant name for a status code, e.g. "OC_ERROR_INVALID_HANDLE".
    pub fn oc_status_name(status: oc_status) -> *const c_char;
    /// The message of the last failed Ocellus call made on the calling thread.
    pub fn oc_last_error_message() -> *const c_char;
    /// Fill `options` with defaults (all NULL / 0) and set its struct_size.
    pub fn oc_context_options_init(options: *mut oc_context_options);
    /// Create a context for the application `app_id` and connect it to the system's camera backends.
    pub fn oc_context_create(app_id: *const c_char, options: *const oc_context_options, out: *mut *mut oc_context) -> oc_status;
    /// Destroy a context: unregisters all its callbacks (waiting for any callback in flight to return), disconnects its backends and invalidates the handle.
    pub fn oc_context_destroy(ctx: *mut oc_context);
    /// The app ID the context was created with.
    pub fn oc_context_app_id(ctx: *const oc_context) -> *const c_char;
    /// The per-app state directory the context resolved: options->state_directory, else $OCELLUS_STATE_DIR, else $XDG_STATE_HOME/ocellus (when absolute), else ~/.local/state/ocellus. It is created only when state is first written.
    pub fn oc_context_state_directory(ctx: *const oc_context) -> *const c_char;
    /// The names `ocellus list --json` writes: "built_in_camera", "external_camera", "virtual_camera", "depth_camera", "microphone"; "unspecified", "front", "back"; "pipewire", "v4l2". NULL for a value not in the enum (the last error says so).
    pub fn oc_device_type_name(type_: oc_device_type) -> *const c_char;
    /// The names `ocellus list --json` writes: "built_in_camera", "external_camera", "virtual_camera", "depth_camera", "microphone"; "unspecified", "front", "back"; "pipewire", "v4l2". NULL for a value not in the enum (the last error says so).
    pub fn oc_device_position_name(position: oc_device_position) -> *const c_char;
    /// The names `ocellus list --json` writes: "built_in_camera", "external_camera", "virtual_camera", "depth_camera", "microphone"; "unspecified", "front", "back"; "pipewire", "v4l2". NULL for a value not in the enum (the last error says so).
    pub fn oc_backend_name(backend: oc_backend) -> *const c_char;
    /// Why a backend of the context is not running, e.g. no PipeWire daemon at the default socket (the context then works on raw V4L2 alone), or that the daemon went away. A context created with an explicit options->pipewire_remote fails instead when that daemon is unreachable.
    pub fn oc_context_copy_backend_problem(
        ctx: *const oc_context,
        backend: oc_backend,
        buffer: *mut c_char,
        size: usize,
    ) -> usize;
    /// Whether the context may use cameras now. NOT_DETERMINED for an invalid handle (which sets the last error).
    pub fn oc_context_camera_authorization(ctx: *const oc_context) -> oc_camera_authorization;
    /// Whether the context reaches cameras through the camera portal (false: directly).
    pub fn oc_context_uses_camera_portal(ctx: *const oc_context) -> bool;
    /// "not_determined", "authorized", "denied" or "restricted"; NULL (and the last error) for an unknown value.
    pub fn oc_camera_authorization_name(authorization: oc_camera_authorization) -> *const c_char;
    /// Ask for camera access: in a sandbox the desktop shows its dialog (unless the permission store has the app's answer); directly, the answer is AUTHORIZED at once. Returns at once; `callback` runs once, on the context's event thread (as hotplug callbacks do), when the answer comes — the cameras, if granted, are listed by then. A request outstanding when the context is destroyed is not answered.
    pub fn oc_context_request_camera_access(
        ctx: *mut oc_context,
        callback: oc_camera_access_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    /// Take a snapshot of the context's connected devices, cameras first in the default selection order (built-in front, external, built-in back, others, virtual cameras, then microphones), each group by name.
    pub fn oc_context_copy_devices(ctx: *mut oc_context, out: *mut *mut oc_device_list) -> oc_status;
    /// Number of devices in a list; 0 for NULL or an invalid list (which also sets the last error).
    pub fn oc_device_list_count(list: *const oc_device_list) -> usize;
    /// The device at `index`.
    pub fn oc_device_list_get(list: *const oc_device_list, index: usize) -> *mut oc_device;
    /// Free a list (and release the references it holds). NULL is ignored.
    pub fn oc_device_list_free(list: *mut oc_device_list);
    /// Take another reference to a device.
    pub fn oc_device_retain(device: *mut oc_device) -> *mut oc_device;
    /// Drop a reference the caller owns (from oc_device_retain() or a copy function). The device is freed with its last reference; using the handle after that is reported as OC_ERROR_INVALID_HANDLE. NULL is ignored. A device the caller only borrows (from oc_device_list_get() or a callback) has no reference of the caller's to drop: nothing is released and oc_last_error_message() says so, so the list's entry stays valid.
    pub fn oc_device_release(device: *mut oc_device);
    /// The device's unique ID (behaviour §1): stable across replug and reboot, e.g. "usb-046d:0825-A1B2C3D4", "usb-534d:2109@1-2.3" or "pipewire-<node.name>". A replugged device is a new oc_device with the same unique ID.
    pub fn oc_device_unique_id(device: *const oc_device) -> *const c_char;
    /// The human name (USB product string, V4L2 card or PipeWire description).
    pub fn oc_device_name(device: *const oc_device) -> *const c_char;
    /// The device type; OC_DEVICE_TYPE_VIRTUAL_CAMERA with the last error set for an invalid handle (check the handle first when that matters).
    pub fn oc_device_get_type(device: *const oc_device) -> oc_device_type;
    /// Where the camera faces; external cameras are always UNSPECIFIED. UNSPECIFIED (and the last error set) for an invalid handle.
    pub fn oc_device_get_position(device: *const oc_device) -> oc_device_position;
    /// Which backend delivers this device; OC_BACKEND_PIPEWIRE (and the last error set) for an invalid handle.
    pub fn oc_device_get_backend(device: *const oc_device) -> oc_backend;
    /// Whether the device is still present. Becomes false, for good, when the device goes away; false (and the last error set) for an invalid handle.
    pub fn oc_device_is_connected(device: *const oc_device) -> bool;
    /// Whether several applications can stream this device at once (behaviour §4 multitasking): true through PipeWire, false for raw V4L2, which is exclusive. False (and the last error set) for an invalid handle.
    pub fn oc_device_supports_multitasking(device: *const oc_device) -> bool;
    /// USB identity when known: vendor and product ID, else 0 (also for an invalid handle, which sets the last error).
    pub fn oc_device_vendor_id(device: *const oc_device) -> u16;
    /// USB identity when known: vendor and product ID, else 0 (also for an invalid handle, which sets the last error).
    pub fn oc_device_product_id(device: *const oc_device) -> u16;
    /// The device's serial number as the system reports it, or NULL when it has none (or an invalid handle). Owned by the device; valid while it is retained.
    pub fn oc_device_serial_number(device: *const oc_device) -> *const c_char;
    /// A backend property as reported by the system (e.g. PipeWire's "device.bus-path", "api.v4l2.path", "object.serial"), or NULL when the device does not have it. Owned by the device; valid while it is retained.
    pub fn oc_device_get_property(device: *const oc_device, key: *const c_char) -> *const c_char;
    /// A camera's own microphone — the audio interface of the same USB device — when it is connected (behaviour §1 associated_microphone).
    pub fn oc_context_copy_associated_microphone(
        ctx: *mut oc_context,
        camera: *mut oc_device,
        out: *mut *mut oc_device,
    ) -> oc_status;
    /// Number of formats the device offers (0 for microphones for now, and for an invalid handle, which sets the last error).
    pub fn oc_device_format_count(device: *const oc_device) -> usize;
    /// Describe format `index`.
    pub fn oc_device_get_format(device: *const oc_device, index: usize, info: *mut oc_format_info) -> oc_status;
    /// Write the characters of a fourcc into `buffer` (at least 5 bytes, owned by the caller) as a NUL-terminated string without trailing spaces, e.g. "YUYV".
    pub fn oc_fourcc_string(fourcc: u32, buffer: *mut c_char) -> *mut c_char;
    /// The pixel format called `name`: NV12, I420 (or YU12), YUYV (YUY2), UYVY, MJPEG (MJPG), H264, BGRA, RGBA, BGR24, RGB24, GRAY8 (GREY) in any case, or any four printable characters as a V4L2 code.
    pub fn oc_pixel_format_from_name(name: *const c_char, out: *mut u32) -> oc_status;
    /// The one name Ocellus uses for a pixel format in every output: the everyday name oc_pixel_format_from_name() takes first ("NV12", "I420", "YUYV", "UYVY", "MJPEG", "H264", "BGRA", "RGBA", "BGRX", "BGR24", "RGB24", "GRAY8"), else the V4L2 code without padding ("Z16"), with "-BE" for the big-endian flag and hex for unprintable codes; oc_fourcc_string() gives the raw code. snprintf-style: writes at most `size` bytes (NUL-terminated) into `buffer` (owned by the caller; NULL when `size` is 0).
    pub fn oc_pixel_format_name(fourcc: u32, buffer: *mut c_char, size: usize) -> usize;
    /// The name `ocellus controls` writes for a control type: "int", "bool", "menu", "button", "int64", "string", "bitmask", "intmenu", "u8", "u16", "u32", "area", "rect"; NULL with the last error set otherwise.
    pub fn oc_control_type_name(type_: oc_control_type) -> *const c_char;
    /// The name of one flag bit as `v4l2-ctl --list-ctrls` prints it: "disabled", "grabbed", "read-only", "update", "inactive", "slider", "write-only", "volatile", "has-payload", "execute-on-write", "modify-layout", "dynamic-array"; NULL for a value that is not exactly one known bit.
    pub fn oc_control_flag_name(flag: u32) -> *const c_char;
    /// Read a camera's controls (zoom, focus, exposure, white balance, brightness, contrast, saturation, sharpness, gain, pan, tilt, power-line frequency, privacy, orientation and sensor rotation, and whatever else the driver has).
    pub fn oc_device_copy_controls(device: *mut oc_device, out: *mut *mut oc_control_list) -> oc_status;
    /// Number of controls in a list (0 for an invalid list).
    pub fn oc_control_list_count(list: *const oc_control_list) -> usize;
    /// Describe control `index` of the list.
    pub fn oc_control_list_get(list: *const oc_control_list, index: usize, info: *mut oc_control_info) -> oc_status;
    /// Item `item` of a menu control: the value to set for it (its index for a menu, its integer for an integer menu) and its name (owned by the list; for an integer menu, the integer as text). Either output may be NULL.
    pub fn oc_control_list_get_menu_item(
        list: *const oc_control_list,
        index: usize,
        item: usize,
        value: *mut i64,
        name: *mut *const c_char,
    ) -> oc_status;
    /// Free a control list; NULL is ignored.
    pub fn oc_control_list_free(list: *mut oc_control_list);
    /// The value bytes of payload control `index` as read (`element_count` elements of `element_size` bytes, in the machine's byte order; an area is width then height), copied into `buffer` up to `size` bytes.
    pub fn oc_control_list_get_payload(list: *const oc_control_list, index: usize, buffer: *mut c_void, size: usize) -> usize;
    /// A string control's value as read, NUL-terminated and truncated to `size`.
    pub fn oc_control_list_get_string(list: *const oc_control_list, index: usize, buffer: *mut c_char, size: usize) -> usize;
    /// Set control `name` (as listed, e.g. "brightness") to `value`.
    pub fn oc_device_set_control(device: *mut oc_device, name: *const c_char, value: i64) -> oc_status;
    /// Set a string control (UTF-8, without NUL bytes; its length within the control's minimum…maximum, in steps of `step`).
    pub fn oc_device_set_control_string(device: *mut oc_device, name: *const c_char, value: *const c_char) -> oc_status;
    /// Set an array or compound control from `size` bytes laid out as oc_control_list_get_payload() gives them: exactly element_count × element_size bytes (for a dynamic array, 1 to dimensions\[0\] elements).
    pub fn oc_device_set_control_payload(
        device: *mut oc_device,
        name: *const c_char,
        data: *const c_void,
        size: usize,
    ) -> oc_status;
    /// Take the device's exclusive configuration lock: until oc_device_unlock_for_configuration(), other clients cannot change its controls (VIDIOC_S_PRIORITY where the driver supports it).
    pub fn oc_device_lock_for_configuration(device: *mut oc_device) -> oc_status;
    /// Release the configuration lock.
    pub fn oc_device_unlock_for_configuration(device: *mut oc_device) -> oc_status;
    /// The face-driven exposure or focus of a camera (AVFoundation's isFaceDrivenAutoExposureEnabled and automaticallyAdjustsFaceDrivenAutoExposureEnabled).
    pub fn oc_device_get_face_driven(
        device: *mut oc_device,
        adjustment: oc_face_driven_adjustment,
        state: *mut oc_face_driven_state,
    ) -> oc_status;
    /// Set a camera's face-driven exposure or focus: `automatically_adjusts` true lets Ocellus decide (`enabled` is then ignored); false makes `enabled` the app's choice. Applies to every device instance with the camera's unique ID in this context, from the next analysed frame (a running session gives back what it changed when turned off).
    pub fn oc_device_set_face_driven(
        device: *mut oc_device,
        adjustment: oc_face_driven_adjustment,
        automatically_adjusts: bool,
        enabled: bool,
    ) -> oc_status;
    /// The name `ocellus controls --json` writes for a tier: "none", "roi", "host"; NULL with the last error set for another value.
    pub fn oc_face_driven_tier_name(tier: oc_face_driven_tier) -> *const c_char;
    /// A camera's Center Stage (AVFoundation's isCenterStageEnabled and isCenterStageActive).
    pub fn oc_device_get_center_stage(device: *mut oc_device, state: *mut oc_center_stage_state) -> oc_status;
    /// Turn a camera's Center Stage on or off (off by default). Applies to every device instance with the camera's unique ID in this context, at once: a session streaming the camera starts framing within a few frames, or zooms back out to the whole picture.
    pub fn oc_device_set_center_stage(device: *mut oc_device, enabled: bool) -> oc_status;
    /// Register a hotplug callback. Events for devices present at registration are not replayed: take a snapshot first with oc_context_copy_devices().
    pub fn oc_context_add_hotplug_callback(
        ctx: *mut oc_context,
        callback: oc_hotplug_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;
    /// Unregister a callback. Returns only after a call of it that is in flight on another thread has finished, so `user_data` may be freed right after. Called from inside a callback, it returns at once and no later call is made.
    pub fn oc_context_remove_callback(ctx: *mut oc_context, id: oc_callback_id) -> oc_status;
    /// Register `callback` for when `device` goes away (see oc_device_disconnected_callback).
    pub fn oc_context_add_disconnected_callback(
        ctx: *mut oc_context,
        device: *mut oc_device,
        callback: oc_device_disconnected_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;
    /// Register a backend failure callback; unregister with oc_context_remove_callback().
    pub fn oc_context_add_backend_failure_callback(
        ctx: *mut oc_context,
        callback: oc_backend_failure_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;
    /// Create a discovery session over `ctx`.
    pub fn oc_discovery_session_create(
        ctx: *mut oc_context,
        device_types: u32,
        media_type: oc_media_type,
        position: oc_device_position,
        out: *mut *mut oc_discovery_session,
    ) -> oc_status;
    /// The session's devices now (connected, matching, in the default order).
    pub fn oc_discovery_session_copy_devices(session: *mut oc_discovery_session, out: *mut *mut oc_device_list) -> oc_status;
    /// Set (or with NULL clear) the session's change callback. Replacing or clearing returns only after a call of the previous callback in flight has finished.
    pub fn oc_discovery_session_set_callback(
        session: *mut oc_discovery_session,
        callback: oc_discovery_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    /// Destroy a session (clearing its callback as above). NULL or a destroyed session is ignored apart from the last error.
    pub fn oc_discovery_session_destroy(session: *mut oc_discovery_session);
    /// The app's user preferred camera: its most recent choice that is connected, else the connected camera it most recently streamed from, else the first in the default order (built-in front, external, built-in back, others, virtual).
    pub fn oc_context_copy_user_preferred_camera(ctx: *mut oc_context, out: *mut *mut oc_device) -> oc_status;
    /// The system preferred camera: the user preferred camera, unless an external camera was plugged in after the app's last choice (or, with no choice yet, after its first run): then the most recently plugged such camera. Plug times come from the system (PipeWire's device.plugged.usec), so a camera plugged while the app was closed wins at its next start. Read-only.
    pub fn oc_context_copy_system_preferred_camera(ctx: *mut oc_context, out: *mut *mut oc_device) -> oc_status;
    /// The connected device with this unique ID.
    pub fn oc_context_copy_device_by_unique_id(
        ctx: *mut oc_context,
        unique_id: *const c_char,
        out: *mut *mut oc_device,
    ) -> oc_status;
    /// The device a person means by `spec`, tried in this order: its unique ID; its index in oc_context_copy_devices()'s order ("0", as `ocellus list` numbers them); one of its V4L2 nodes ("/dev/video2"); a part of its name, in any case, that only one device has ("logitech").
    pub fn oc_context_copy_device_matching(ctx: *mut oc_context, spec: *const c_char, out: *mut *mut oc_device) -> oc_status;
    /// Record the user's choice of camera for this app: it becomes the user preferred camera (and the system preferred one until another external camera is plugged in). The history is persisted in the state directory, shared with the app's other processes, and survives restarts. When the state cannot be written the choice still applies in memory and oc_context_copy_state_problem() says why.
    pub fn oc_context_set_user_preferred_camera(ctx: *mut oc_context, camera: *mut oc_device) -> oc_status;
    /// Why the app's selection state could not be read or written (a corrupt file, moved aside and kept; an unwritable directory), or nothing.
    pub fn oc_context_copy_state_problem(ctx: *const oc_context, buffer: *mut c_char, size: usize) -> usize;
    /// Whether the app's latest camera choice exists only in memory because it could not be written (see oc_context_copy_state_problem()): it is lost when the process exits. False for an invalid handle (which sets the last error).
    pub fn oc_context_selection_is_unsaved(ctx: *const oc_context) -> bool;
    /// Register a preferred-camera callback; unregister with oc_context_remove_callback().
    pub fn oc_context_add_preferred_camera_callback(
        ctx: *mut oc_context,
        callback: oc_preferred_camera_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;
    /// Create a session on `ctx`'s cameras.
    pub fn oc_capture_session_create(ctx: *mut oc_context, out: *mut *mut oc_capture_session) -> oc_status;
    /// Stop (if running) and destroy a session. Its outputs stay valid (the caller owns them). NULL or a destroyed session is ignored apart from the last error, as is a multi-camera session's branch (it goes with its camera: oc_multi_cam_session_remove_camera()).
    pub fn oc_capture_session_destroy(session: *mut oc_capture_session);
    /// Batch changes: inputs and outputs added or removed until oc_capture_session_commit_configuration() apply together. Outside a batch, each change applies at once.
    pub fn oc_capture_session_begin_configuration(session: *mut oc_capture_session) -> oc_status;
    /// Apply the batch. When it cannot be applied (e.g. no camera format serves every output), nothing changes — a running stream keeps running as it was — and the error says why.
    pub fn oc_capture_session_commit_configuration(session: *mut oc_capture_session) -> oc_status;
    /// Make `camera` the session's input (replacing any other).
    pub fn oc_capture_session_set_input(session: *mut oc_capture_session, camera: *mut oc_device) -> oc_status;
    /// Add an output. The session keeps a reference; the caller still destroys its own.
    pub fn oc_capture_session_add_output(session: *mut oc_capture_session, output: *mut oc_video_data_output) -> oc_status;
    /// Remove an output.
    pub fn oc_capture_session_remove_output(session: *mut oc_capture_session, output: *mut oc_video_data_output) -> oc_status;
    /// Whether `output` could be added now (its pinned format is one the input offers). False, with the last error set, for invalid handles.
    pub fn oc_capture_session_can_add_output(session: *mut oc_capture_session, output: *mut oc_video_data_output) -> bool;
    /// Whether `camera` can run `preset` (the fixed sizes need that size). False, with the last error set, for an invalid handle or an unknown preset.
    pub fn oc_device_supports_preset(camera: *const oc_device, preset: oc_session_preset) -> bool;
    /// Set the session's preset (like other changes, batched inside a configuration).
    pub fn oc_capture_session_set_preset(session: *mut oc_capture_session, preset: oc_session_preset) -> oc_status;
    /// Start the camera stream; returns once frames flow. Blocking. A session with a microphone (oc_capture_session_set_audio_input()) and no camera runs its sound alone (since 0.3).
    pub fn oc_capture_session_start_running(session: *mut oc_capture_session) -> oc_status;
    /// Stop the stream; returns after the last frame callback has returned. Blocking.
    pub fn oc_capture_session_stop_running(session: *mut oc_capture_session) -> oc_status;
    /// Whether the stream runs (false after a runtime error).
    pub fn oc_capture_session_is_running(session: *const oc_capture_session) -> bool;
    /// The format the camera stream runs at: what the session chose from the camera's formats for its outputs and preset. Each output may be NULL.
    pub fn oc_capture_session_get_active_format(
        session: *const oc_capture_session,
        pixel_format: *mut u32,
        width: *mut u32,
        height: *mut u32,
        frame_rate: *mut oc_fraction,
    ) -> oc_status;
    /// The share of its USB bus the session's camera stream takes, with the session's configuration as it stands (committed or not, running or not), beside what the bus carries now: every process's streams, read from sysfs. Read it before starting: a configuration that does not fit is refused when it commits (OC_ERROR_NO_RESOURCES), with a message naming the bus, the devices holding it and the largest format and rate that would fit. With bus fitting on (oc_capture_session_set_bus_fit(), the default unless an output pins the camera's own format), formats that would not fit are not chosen when another serves the outputs (MJPEG where raw would not fit, then a lower rate).
    pub fn oc_capture_session_get_hardware_cost(session: *const oc_capture_session, cost: *mut oc_hardware_cost) -> oc_status;
    /// What the session's configuration as it stands (inside a begin/commit batch: with the changes not committed yet) would run if committed now, and whether that is as asked or adjusted, and why: the answer before oc_capture_session_start_running(), where OC_SESSION_EVENT_FORMAT_FALLBACK says it after the stream opened. Reads the USB bus as oc_capture_session_get_hardware_cost() does. A camera another app streams in another format shows only when the stream opens (the event, with OC_ERROR_BUSY).
    pub fn oc_capture_session_check_configuration(
        session: *const oc_capture_session,
        check: *mut oc_configuration_check,
    ) -> oc_status;
    /// Set whether the session fits its camera's USB bus (like other changes, batched inside a configuration). With fitting on, formats that would not fit beside what the bus carries are not chosen, and a format the kernel refuses at stream-on for want of bandwidth (ENOSPC: the estimate was low, or another process took the bus meanwhile) is left out and the next that fits is started. Every format run instead of the one wanted is an OC_SESSION_EVENT_FORMAT_FALLBACK. With it off, such a configuration is refused when it commits or starts, with a message naming the bus, its holders and what would fit.
    pub fn oc_capture_session_set_bus_fit(session: *mut oc_capture_session, fit: oc_bus_fit) -> oc_status;
    /// The session's bus fit (OC_BUS_FIT_AUTOMATIC, with the last error set, for an invalid handle).
    pub fn oc_capture_session_get_bus_fit(session: *const oc_capture_session) -> oc_bus_fit;
    /// Register an event callback; unregister with oc_capture_session_remove_callback() (which waits for a call in flight).
    pub fn oc_capture_session_add_event_callback(
        session: *mut oc_capture_session,
        callback: oc_session_event_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;
    /// Unregister an event callback; waits for a call of it in flight, except when called from inside that callback (then later calls stop).
    pub fn oc_capture_session_remove_callback(session: *mut oc_capture_session, id: oc_callback_id) -> oc_status;
    /// Automatic switching (behaviour §4, opt-in, off by default): the session's input follows the context's system preferred camera — a camera plugged in becomes the input, an unplugged input is replaced by the next preferred camera and the session starts again. It never switches while a movie file output of the session records (OC_SESSION_EVENT_SWITCH_DEFERRED); when the recording's file is finished it checks again and switches then. Each switch is reported as OC_SESSION_EVENT_INPUT_SWITCHED (or SWITCH_FAILED, keeping the input). Enabling it switches at once when the input is not the system preferred camera.
    pub fn oc_capture_session_set_automatically_switches_camera(session: *mut oc_capture_session, enabled: bool) -> oc_status;
    /// Whether automatic switching is on (false for an invalid handle).
    pub fn oc_capture_session_automatically_switches_camera(session: *const oc_capture_session) -> bool;
    /// Whether a movie file output of the session is recording (from its start until its file is finished).
    pub fn oc_capture_session_is_recording(session: *const oc_capture_session) -> bool;
    /// Create a video data output.
    pub fn oc_video_data_output_create(out: *mut *mut oc_video_data_output) -> oc_status;
    /// Destroy an output (removing it from its session first). NULL is ignored. From inside the output's own frame callback this is refused (see "Calls from inside a callback" at the top), as is a removal that would restart the stream from inside another output's callback: the output then stays as it was.
    pub fn oc_video_data_output_destroy(output: *mut oc_video_data_output);
    /// Pin the output's pixel format (a fourcc; 0 for the camera's) and size (0x0 for the camera's). Takes effect at the next commit or start.
    pub fn oc_video_data_output_set_format(
        output: *mut oc_video_data_output,
        pixel_format: u32,
        width: u32,
        height: u32,
    ) -> oc_status;
    /// Whether the output's pixels can be turned by `degrees` (right angles; an MJPEG output cannot be turned). False for an invalid handle.
    pub fn oc_video_data_output_is_rotation_angle_supported(output: *const oc_video_data_output, degrees: i32) -> bool;
    /// Turn the output's pixels clockwise by `degrees` (0, 90, 180, 270; behaviour §3 connection angle): width and height swap for quarter turns. Every frame is then converted with libyuv, which costs CPU: rotating the display layer by the rotation coordinator's preview angle is free, and photo and movie outputs record the angle as metadata. Takes effect at the next commit or start.
    pub fn oc_video_data_output_set_rotation_angle(output: *mut oc_video_data_output, degrees: i32) -> oc_status;
    /// Flip the output's pixels about the vertical axis (after rotation): 1 on, 0 off, -1 the default (off: the camera's pixels, zero-copy; the behaviour contract's mirroring defaults apply to the preview — see oc_rotation_coordinator_is_mirrored()). Takes effect at the next commit or start.
    pub fn oc_video_data_output_set_mirrored(output: *mut oc_video_data_output, mirrored: c_int) -> oc_status;
    /// Choose the range of the output's YUV frames (the default is OC_COLOR_RANGE_VIDEO). MJPEG cameras decode to full range and YUV cameras send video range; a frame in the other range is converted (a table lookup per sample), so a YUV camera read in its own format and range stays zero-copy. oc_frame_is_full_range() tells each frame's range. Takes effect at the next commit or start. Since 0.3.
    pub fn oc_video_data_output_set_color_range(output: *mut oc_video_data_output, range: oc_color_range) -> oc_status;
    /// The range the output's YUV frames are delivered in. Since 0.3.
    pub fn oc_video_data_output_get_color_range(output: *const oc_video_data_output) -> oc_color_range;
    /// Cap the output's frame rate: frames closer together than `rate` allows are skipped for this output. A cap is a maximum, never a requirement: a cap above what the camera offers delivers every frame. 0/0 (numerator 0) removes the cap.
    pub fn oc_video_data_output_set_max_frame_rate(output: *mut oc_video_data_output, rate: oc_fraction) -> oc_status;
    /// The output's newest frame not yet taken, as a retained copy, waiting up to `timeout_ms` for one (0: only a frame already waiting). The output keeps one frame, never a queue: a newer frame replaces one not yet taken, so a slow reader always gets the latest. Pulling starts with the first call (or oc_video_data_output_get_pollable_fd()); from then on each frame is also copied into the output's one reused buffer. Works beside a frame callback.
    pub fn oc_video_data_output_copy_next_frame(
        output: *mut oc_video_data_output,
        timeout_ms: u32,
        out: *mut *mut oc_frame,
    ) -> oc_status;
    /// Why the output's session stopped when nobody asked it to: the status of the runtime error (OC_ERROR_DISCONNECTED for a camera unplugged or a daemon gone, OC_ERROR_TIMEOUT for a camera that stalled, …) with its message as the last error; OC_OK while the session runs, after a stop that was asked for, and before the first start. What a reader that got OC_ERROR_WRONG_STATE from oc_video_data_output_copy_next_frame() asks next. Since 0.3.
    pub fn oc_video_data_output_get_stop_status(output: *const oc_video_data_output) -> oc_status;
    /// A file descriptor that is readable while a frame waits to be taken with oc_video_data_output_copy_next_frame() (which clears it): add it to epoll, g_unix_fd_add() or asyncio's add_reader(). Starts pulling like the first oc_video_data_output_copy_next_frame().
    pub fn oc_video_data_output_get_pollable_fd(output: *mut oc_video_data_output, out_fd: *mut c_int) -> oc_status;
    /// Set (or with NULL clear) the output's frame callback. From another thread it waits for a call of the old callback in flight, so none runs after it returns; from inside the callback it applies from the next frame.
    pub fn oc_video_data_output_set_frame_callback(
        output: *mut oc_video_data_output,
        callback: oc_frame_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    /// Frames delivered to this output so far (0 for an invalid handle).
    pub fn oc_video_data_output_delivered_frames(output: *const oc_video_data_output) -> u64;
    /// Frames this output dropped for `reason`. Frames are never queued without bound: a slow callback makes frames late or the camera run out of buffers, and both are counted here instead.
    pub fn oc_video_data_output_dropped_frames(output: *const oc_video_data_output, reason: oc_drop_reason) -> u64;
    /// Frame properties; 0 for an invalid frame (which sets the last error).
    pub fn oc_frame_pixel_format(frame: *const oc_frame) -> u32;
    /// Frame properties; 0 for an invalid frame (which sets the last error).
    pub fn oc_frame_width(frame: *const oc_frame) -> u32;
    /// Frame properties; 0 for an invalid frame (which sets the last error).
    pub fn oc_frame_height(frame: *const oc_frame) -> u32;
    /// Frame properties; 0 for an invalid frame (which sets the last error).
    pub fn oc_frame_sequence(frame: *const oc_frame) -> u64;
    /// CLOCK_MONOTONIC nanoseconds of the capture.
    pub fn oc_frame_timestamp_ns(frame: *const oc_frame) -> u64;
    /// True for full-range samples (0–255: every RGB and GRAY8 frame, YUV frames of an output set to OC_COLOR_RANGE_FULL), false for video range (luma 16–235, chroma 16–240: YUV frames by default, and YUV cameras' own frames). Compressed frames (MJPEG) report full range, as JPEG stores it. BT.601 in both.
    pub fn oc_frame_is_full_range(frame: *const oc_frame) -> bool;
    /// True for a compressed frame the camera sent damaged (a JPEG that does not decode): outputs that convert drop such frames (OC_DROP_CORRUPT), outputs that take the camera's format get them with this flag.
    pub fn oc_frame_is_corrupt(frame: *const oc_frame) -> bool;
    /// True for a compressed frame the camera sent damaged (a JPEG that does not decode): outputs that convert drop such frames (OC_DROP_CORRUPT), outputs that take the camera's format get them with this flag.
    pub fn oc_frame_plane_count(frame: *const oc_frame) -> u32;
    /// Plane `plane`'s bytes: returns the data (NULL for an invalid frame or plane) and its size and stride in bytes through the optional outputs.
    pub fn oc_frame_plane_data(frame: *const oc_frame, plane: u32, size: *mut usize, stride: *mut u32) -> *const u8;
    /// Keep a frame beyond its callback: returns a frame the caller owns (its bytes copied out of the camera's buffer, which goes back to the camera) or NULL.
    pub fn oc_frame_retain(frame: *const oc_frame) -> *mut oc_frame;
    /// Release a frame from oc_frame_retain(). NULL is ignored; the frame an output is delivering (its callback's argument) is not released, and oc_last_error_message() says so.
    pub fn oc_frame_release(frame: *mut oc_frame);
    /// Create a multi-camera session on `ctx`'s cameras.
    pub fn oc_multi_cam_session_create(ctx: *mut oc_context, out: *mut *mut oc_multi_cam_session) -> oc_status;
    /// Stop (if running) and destroy a multi-camera session and its branches. The outputs stay valid (the caller owns them). NULL or a destroyed session is ignored apart from the last error.
    pub fn oc_multi_cam_session_destroy(session: *mut oc_multi_cam_session);
    /// Whether `camera` could join: a connected camera with video formats, not in the session. False, with the last error set, for invalid handles.
    pub fn oc_multi_cam_session_can_add_camera(session: *mut oc_multi_cam_session, camera: *mut oc_device) -> bool;
    /// Add `camera` to a stopped session. `*out_branch` receives its branch, to which the camera's outputs are added.
    pub fn oc_multi_cam_session_add_camera(
        session: *mut oc_multi_cam_session,
        camera: *mut oc_device,
        out_branch: *mut *mut oc_capture_session,
    ) -> oc_status;
    /// Remove `camera` and its branch from a stopped session; the branch handle goes with it.
    pub fn oc_multi_cam_session_remove_camera(session: *mut oc_multi_cam_session, camera: *mut oc_device) -> oc_status;
    /// Start every camera, in the order they were added; returns once all stream. Blocking. When one cannot start, those started are stopped again and the error names the camera ("ID: …"): OC_ERROR_NO_RESOURCES when it does not fit its bus (the message names the bus, what holds it and what would fit), or its stream's error.
    pub fn oc_multi_cam_session_start_running(session: *mut oc_multi_cam_session) -> oc_status;
    /// Stop every camera; returns after their last frame callbacks have returned. Blocking.
    pub fn oc_multi_cam_session_stop_running(session: *mut oc_multi_cam_session) -> oc_status;
    /// Whether the cameras stream (false after a runtime error).
    pub fn oc_multi_cam_session_is_running(session: *const oc_multi_cam_session) -> bool;
    /// The session's cost on its cameras' USB buses, with the branches' configurations as they stand, before or while running: `bus` is the most loaded bus, `total` its load with every camera of the session on it, `own` those cameras' part, `others` how many other interfaces reserve time there, and `fits` whether every bus fits. Each camera's own share, beside the ones added before it, is oc_capture_session_get_hardware_cost() of its branch.
    pub fn oc_multi_cam_session_get_hardware_cost(session: *const oc_multi_cam_session, cost: *mut oc_hardware_cost)
        -> oc_status;
    /// Register an event callback; unregister with oc_multi_cam_session_remove_callback().
    pub fn oc_multi_cam_session_add_event_callback(
        session: *mut oc_multi_cam_session,
        callback: oc_multi_cam_event_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;
    /// Unregister an event callback; waits for a call of it in flight, except from inside it.
    pub fn oc_multi_cam_session_remove_callback(session: *mut oc_multi_cam_session, id: oc_callback_id) -> oc_status;
    /// Number of depth formats (0 for cameras that are not depth cameras, and for an invalid handle).
    pub fn oc_device_depth_format_count(device: *const oc_device) -> usize;
    /// Describe depth format `index`, as oc_device_get_format() describes formats.
    pub fn oc_device_get_depth_format(device: *const oc_device, index: usize, info: *mut oc_format_info) -> oc_status;
    /// Whether depth format `depth_format_index` can stream while the camera runs format `format_index` (every depth format, when depth has a function of its own; for a depth-only camera, the same format). False for indices out of range and invalid handles (both set the last error).
    pub fn oc_device_depth_format_runs_beside(device: *const oc_device, format_index: usize, depth_format_index: usize) -> bool;
    /// Create a depth data output.
    pub fn oc_depth_data_output_create(out: *mut *mut oc_depth_data_output) -> oc_status;
    /// Destroy a depth output (removing it from its session first). NULL is ignored; from inside its own callback (or its synchronizer's) it is refused, as for video outputs.
    pub fn oc_depth_data_output_destroy(output: *mut oc_depth_data_output);
    /// Pin the depth format: `pixel_format` 0 for the camera's, a depth code the camera offers (OC_PIXEL_FORMAT_Z16, _Y16, _Y12), or OC_PIXEL_FORMAT_DEPTH32F for float metres converted from the camera's; `width`x`height` 0x0 for the size the session picks beside the picture (the picture's aspect ratio, the nearest size, the picture's rate where the camera has it). Depth is never scaled: a pinned size must be one the camera offers. Takes effect at the next commit or start.
    pub fn oc_depth_data_output_set_format(
        output: *mut oc_depth_data_output,
        pixel_format: u32,
        width: u32,
        height: u32,
    ) -> oc_status;
    /// Set (or with NULL clear) the callback; a replaced callback in flight finishes first, except from inside it.
    pub fn oc_depth_data_output_set_frame_callback(
        output: *mut oc_depth_data_output,
        callback: oc_depth_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    /// Depth maps delivered so far (0 for an invalid handle).
    pub fn oc_depth_data_output_delivered_frames(output: *const oc_depth_data_output) -> u64;
    /// Depth maps dropped for `reason`, with the rules of video outputs (late, out of buffers, discontinuity; OC_DROP_CORRUPT for a map shorter than its size). 0 for an invalid handle or reason.
    pub fn oc_depth_data_output_dropped_frames(output: *const oc_depth_data_output, reason: oc_drop_reason) -> u64;
    /// Add a depth output: the session then streams the input's depth beside its picture (or, on a depth-only camera, delivers the picture stream's depth).
    pub fn oc_capture_session_add_depth_output(session: *mut oc_capture_session, output: *mut oc_depth_data_output) -> oc_status;
    /// Remove a depth output.
    pub fn oc_capture_session_remove_depth_output(
        session: *mut oc_capture_session,
        output: *mut oc_depth_data_output,
    ) -> oc_status;
    /// Whether the depth output could be added now (false, with the last error, for invalid handles).
    pub fn oc_capture_session_can_add_depth_output(session: *mut oc_capture_session, output: *mut oc_depth_data_output) -> bool;
    /// The depth format the running session's depth outputs get (each output may be NULL).
    pub fn oc_capture_session_get_active_depth_format(
        session: *const oc_capture_session,
        pixel_format: *mut u32,
        width: *mut u32,
        height: *mut u32,
        frame_rate: *mut oc_fraction,
    ) -> oc_status;
    /// Metres per unit of a depth map's samples: 0.001 (millimetres) unless the camera reports its depth unit (a `depth_units` control, in micrometres); 1 for OC_PIXEL_FORMAT_DEPTH32F; 0 for a picture or an invalid frame (which sets the last error).
    pub fn oc_frame_depth_unit(frame: *const oc_frame) -> f32;
    /// Synchronize `video` and `depth` (outputs of one session, or of none yet). Their frame callbacks are cleared.
    pub fn oc_output_synchronizer_create(
        video: *mut oc_video_data_output,
        depth: *mut oc_depth_data_output,
        out: *mut *mut oc_output_synchronizer,
    ) -> oc_status;
    /// Synchronize the video outputs of two cameras, each in its own session (or in none yet): a stereo pair of webcams, a room camera beside a face camera. The callback gets the first output's frame as `video` and the second's as `depth`; unmatched frames are counted by OC_SYNC_STREAM_FIRST and OC_SYNC_STREAM_SECOND. Their frame callbacks are cleared. Added in 0.3.
    pub fn oc_output_synchronizer_create_for_cameras(
        first: *mut oc_video_data_output,
        second: *mut oc_video_data_output,
        out: *mut *mut oc_output_synchronizer,
    ) -> oc_status;
    /// Stop synchronizing and destroy: returns after a pair callback in flight. NULL is ignored; from inside its own callback it is refused (last error).
    pub fn oc_output_synchronizer_destroy(synchronizer: *mut oc_output_synchronizer);
    /// Set (or with NULL clear) the pair callback; a replaced callback in flight finishes first, except from inside it.
    pub fn oc_output_synchronizer_set_callback(
        synchronizer: *mut oc_output_synchronizer,
        callback: oc_synchronized_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    /// Pairs delivered so far (0 for an invalid handle).
    pub fn oc_output_synchronizer_delivered_pairs(synchronizer: *const oc_output_synchronizer) -> u64;
    /// Frames of `stream` that found no partner (0 for an invalid handle or stream).
    pub fn oc_output_synchronizer_unmatched_frames(synchronizer: *const oc_output_synchronizer, stream: oc_sync_stream) -> u64;
    /// The single `microphone` device (behaviour §5, unique ID "microphone"): it stands for the current input and follows it. Its name is the name of that input and changes with the route. The route is: the app's preferred input (oc_context_set_preferred_microphone()) while connected; else the most recently plugged microphone when it arrived after the system default last changed; else the system default (PipeWire's default.audio.source); else the first microphone. A session whose audio input is this device keeps recording across route changes: its microphone stream moves to the new input, a pause becomes silence in recordings.
    pub fn oc_context_copy_default_microphone(ctx: *mut oc_context, out: *mut *mut oc_device) -> oc_status;
    /// The input the `microphone` device routes to now: one of the context's microphones (as listed by oc_context_copy_devices()), or NULL when none.
    pub fn oc_context_copy_microphone_route(ctx: *mut oc_context, out: *mut *mut oc_device) -> oc_status;
    /// Prefer an input for the `microphone` device (like a preferred audio input): it carries the route while connected, also after it is unplugged and plugged in again (matched by unique ID). NULL returns to the system's choice. Kept in memory for the context's life (not persisted).
    pub fn oc_context_set_preferred_microphone(ctx: *mut oc_context, microphone: *mut oc_device) -> oc_status;
    /// The preferred input while it is connected, else NULL.
    pub fn oc_context_copy_preferred_microphone(ctx: *mut oc_context, out: *mut *mut oc_device) -> oc_status;
    /// Register a route callback; unregister with oc_context_remove_callback().
    pub fn oc_context_add_microphone_route_callback(
        ctx: *mut oc_context,
        callback: oc_microphone_route_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;
    /// Set (or with NULL remove) the session's microphone: a PipeWire source, such as a camera's oc_context_copy_associated_microphone(), or the `microphone` device (oc_context_copy_default_microphone()) to follow the route. Its sound reaches audio data outputs and becomes the AAC track of recordings. Takes effect at the next commit or at once (like the camera input).
    pub fn oc_capture_session_set_audio_input(session: *mut oc_capture_session, microphone: *mut oc_device) -> oc_status;
    /// Create an audio data output: add it to a session with a microphone input to receive PCM.
    pub fn oc_audio_data_output_create(out: *mut *mut oc_audio_data_output) -> oc_status;
    /// Removes the output from its session first. NULL is ignored. Refused from inside the output's own callback, like oc_video_data_output_destroy().
    pub fn oc_audio_data_output_destroy(output: *mut oc_audio_data_output);
    /// Returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_WRONG_STATE (already in a session).
    pub fn oc_capture_session_add_audio_output(session: *mut oc_capture_session, output: *mut oc_audio_data_output) -> oc_status;
    /// Returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND.
    pub fn oc_capture_session_remove_audio_output(
        session: *mut oc_capture_session,
        output: *mut oc_audio_data_output,
    ) -> oc_status;
    /// The rate and channel count the session delivers sound in, to its audio data outputs and recordings; 0 for either: the microphone's own (what its system reports it sends). Default 48000 Hz, 2 channels. Applies when the microphone stream next opens (a start, an input change); the callback's `channels` and `sample_rate` say what each buffer is. Voice isolation runs at 48000 Hz: with the microphone's own rate a stream that wants it opens at 48000 Hz; with another rate set, voice isolation is unavailable (the mode's reason says so). Since 0.3.
    pub fn oc_capture_session_set_audio_format(session: *mut oc_capture_session, sample_rate: u32, channels: u32) -> oc_status;
    /// Set (or with NULL clear) the callback; a replaced callback in flight finishes first, except from inside the callback itself (it applies from the next call).
    pub fn oc_audio_data_output_set_callback(
        output: *mut oc_audio_data_output,
        callback: oc_audio_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    /// PCM frames delivered so far (0 for an invalid handle).
    pub fn oc_audio_data_output_delivered_frames(output: *const oc_audio_data_output) -> u64;
    /// PCM frames the microphone sent that never reached the output: a microphone mode's engine fell a second behind and input was dropped rather than queued (0 for an invalid handle). Since 0.3.
    pub fn oc_audio_data_output_dropped_frames(output: *const oc_audio_data_output) -> u64;
    /// "standard", "wide_spectrum", "voice_isolation" (the names the CLI's JSON writes); NULL for a value not in the enum (the last error says so).
    pub fn oc_microphone_mode_name(mode: oc_microphone_mode) -> *const c_char;
    /// Prefer a microphone mode for the session's sound, running or not; kept across input changes and restarts. The engine the mode needs is loaded now; when it cannot be, the session falls back to OC_MICROPHONE_MODE_STANDARD and says why (oc_capture_session_get_microphone_mode(), OC_SESSION_EVENT_MICROPHONE_MODE_CHANGED) — the call itself succeeds, as AVFoundation's preferred mode does. A running stream switches at its next 10 ms frame, crossfading: no gap, no repeat.
    pub fn oc_capture_session_set_preferred_microphone_mode(
        session: *mut oc_capture_session,
        mode: oc_microphone_mode,
    ) -> oc_status;
    /// The preferred and the active microphone mode, and the engine doing the active one. Either pointer may be NULL.
    pub fn oc_capture_session_get_microphone_mode(
        session: *const oc_capture_session,
        preferred: *mut oc_microphone_mode,
        active: *mut oc_microphone_mode,
        engine: *mut c_char,
        engine_size: usize,
        reason: *mut c_char,
        reason_size: usize,
    ) -> oc_status;
    /// Whether voice isolation also cancels the echo of what the machine plays, and with what. Voice isolation runs without it when the canceller cannot be loaded or nothing that plays can be heard (the stream hears what the default output plays, following the default; silence while nothing plays).
    pub fn oc_capture_session_get_echo_cancellation(
        session: *const oc_capture_session,
        canceller: *mut c_char,
        canceller_size: usize,
        reason: *mut c_char,
        reason_size: usize,
    ) -> oc_status;
    /// Create a photo output.
    pub fn oc_photo_output_create(out: *mut *mut oc_photo_output) -> oc_status;
    /// Destroy a photo output, leaving its session first; requests still waiting get their callback with an error before this returns. NULL is ignored.
    pub fn oc_photo_output_destroy(output: *mut oc_photo_output);
    /// Add the photo output to the session (like oc_capture_session_add_output()).
    pub fn oc_capture_session_add_photo_output(session: *mut oc_capture_session, output: *mut oc_photo_output) -> oc_status;
    /// Returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND (not in this session).
    pub fn oc_capture_session_remove_photo_output(session: *mut oc_capture_session, output: *mut oc_photo_output) -> oc_status;
    /// The clockwise angle that turns the camera's pixels upright (the rotation coordinator's capture angle); written as EXIF Orientation. Any thread.
    pub fn oc_photo_output_set_rotation_angle(output: *mut oc_photo_output, degrees: i32) -> oc_status;
    /// Mirror photos about the vertical axis (after rotation).
    pub fn oc_photo_output_set_mirrored(output: *mut oc_photo_output, mirrored: bool) -> oc_status;
    /// Pin the photos' size (0x0: the session's, e.g. the largest with OC_SESSION_PRESET_PHOTO). Takes effect at the next commit or start.
    pub fn oc_photo_output_set_size(output: *mut oc_photo_output, width: u32, height: u32) -> oc_status;
    /// Request a photo from the next good frame (corrupt camera JPEGs are skipped). Requests made back to back get successive frames and are all answered, in order. `settings` may be NULL for the defaults; it is copied.
    pub fn oc_photo_output_capture(
        output: *mut oc_photo_output,
        settings: *const oc_photo_settings,
        callback: oc_photo_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    /// Create a movie file output.
    pub fn oc_movie_file_output_create(out: *mut *mut oc_movie_file_output) -> oc_status;
    /// Destroy the output: a recording in progress is finished (its callback runs) before this returns. NULL is ignored.
    pub fn oc_movie_file_output_destroy(output: *mut oc_movie_file_output);
    /// Returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_WRONG_STATE (already in a session).
    pub fn oc_capture_session_add_movie_file_output(
        session: *mut oc_capture_session,
        output: *mut oc_movie_file_output,
    ) -> oc_status;
    /// Removing the output finishes its recording.
    pub fn oc_capture_session_remove_movie_file_output(
        session: *mut oc_capture_session,
        output: *mut oc_movie_file_output,
    ) -> oc_status;
    /// The capture angle (clockwise degrees to upright) for the next recording's display matrix.
    pub fn oc_movie_file_output_set_rotation_angle(output: *mut oc_movie_file_output, degrees: i32) -> oc_status;
    /// Pin the movie's size (0x0: the session's). Takes effect at the next commit or start.
    pub fn oc_movie_file_output_set_size(output: *mut oc_movie_file_output, width: u32, height: u32) -> oc_status;
    /// Start recording to `path` (.mp4 or .mov; an existing file is replaced). The file is opened here, so an unwritable path fails at once.
    pub fn oc_movie_file_output_start_recording(
        output: *mut oc_movie_file_output,
        path: *const c_char,
        callback: oc_recording_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    /// Stop recording: queued frames are written, the file is finished, then the callback runs. Returns at once; OC_OK also when not recording.
    pub fn oc_movie_file_output_stop_recording(output: *mut oc_movie_file_output) -> oc_status;
    /// Whether a recording is in progress (false for an invalid handle).
    pub fn oc_movie_file_output_is_recording(output: *const oc_movie_file_output) -> bool;
    /// Seconds recorded so far in the current recording (0 when not recording).
    pub fn oc_movie_file_output_recorded_duration(output: *const oc_movie_file_output) -> f64;
    /// Create a metadata output looking for `object_types` (OC_METADATA_OBJECT_* ORed). `face_model` names the face detector's model: an OpenCV cascade (.xml) or a YuNet model (.onnx); NULL for the system's (OCELLUS_FACE_MODEL, else opencv-data's frontal-face Haar cascade, alt2).
    pub fn oc_metadata_output_create(
        object_types: u32,
        face_model: *const c_char,
        out: *mut *mut oc_metadata_output,
    ) -> oc_status;
    /// Destroy a metadata output, leaving its session first. Refused (nothing happens; the reason is the last error) from inside its own callback. NULL is ignored.
    pub fn oc_metadata_output_destroy(output: *mut oc_metadata_output);
    /// Add the metadata output to the session (like oc_capture_session_add_output()).
    pub fn oc_capture_session_add_metadata_output(session: *mut oc_capture_session, output: *mut oc_metadata_output)
        -> oc_status;
    /// Returns OC_OK, OC_ERROR_INVALID_HANDLE, OC_ERROR_NOT_FOUND (not in this session).
    pub fn oc_capture_session_remove_metadata_output(
        session: *mut oc_capture_session,
        output: *mut oc_metadata_output,
    ) -> oc_status;
    /// Set (or with NULL clear) the callback. From another thread it waits for a call of the old callback in flight; from inside the callback it applies from the next.
    pub fn oc_metadata_output_set_callback(
        output: *mut oc_metadata_output,
        callback: oc_metadata_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    /// The clockwise angle the delivered picture is turned (the rotation coordinator's preview or capture angle): bounds are given in that picture. From the next analysed frame.
    pub fn oc_metadata_output_set_rotation_angle(output: *mut oc_metadata_output, degrees: i32) -> oc_status;
    /// Whether the delivered picture is mirrored (after rotation).
    pub fn oc_metadata_output_set_mirrored(output: *mut oc_metadata_output, mirrored: bool) -> oc_status;
    /// Analyse at most `per_second` frames a second (default 10).
    pub fn oc_metadata_output_set_max_rate(output: *mut oc_metadata_output, per_second: f64) -> oc_status;
    /// The output's counts so far.
    pub fn oc_metadata_output_get_statistics(output: *const oc_metadata_output, out: *mut oc_metadata_statistics) -> oc_status;
    /// Create a coordinator for `camera`: its kind (built-in front, built-in back, external) from its type and position, its sensor mounting S from the driver (V4L2 or libcamera rotation, converted to clockwise), and for an external camera the mounting correction M kept in the context's state directory. Until told otherwise the host is in its natural orientation (H = 0) and the UI follows the device.
    pub fn oc_rotation_coordinator_create(
        ctx: *mut oc_context,
        camera: *mut oc_device,
        mirrored: c_int,
        out: *mut *mut oc_rotation_coordinator,
    ) -> oc_status;
    /// Destroy a coordinator (unregistering its callbacks). NULL is ignored.
    pub fn oc_rotation_coordinator_destroy(coordinator: *mut oc_rotation_coordinator);
    /// The clockwise angles (0, 90, 180, 270): rotate stored images by `capture` to make them upright (photo EXIF, movie track matrix); rotate the preview layer by `preview`, then mirror it if the preview is mirrored. Either output may be NULL.
    pub fn oc_rotation_coordinator_get_angles(
        coordinator: *const oc_rotation_coordinator,
        preview: *mut i32,
        capture: *mut i32,
    ) -> oc_status;
    /// Whether the coordinator computes for a mirrored preview.
    pub fn oc_rotation_coordinator_is_mirrored(coordinator: *const oc_rotation_coordinator) -> bool;
    /// Set the host orientation H in clockwise degrees (iio-sensor-proxy's normal, left-up, bottom-up, right-up are 0, 90, 180, 270).
    pub fn oc_rotation_coordinator_set_host_orientation(coordinator: *mut oc_rotation_coordinator, degrees: i32) -> oc_status;
    /// Follow the host's accelerometer: read H from iio-sensor-proxy (`net.hadess.SensorProxy`) on the D-Bus at `bus_address` (NULL: the system bus) and keep it current; "undefined" keeps the last value, and if the proxy leaves the bus the last value stays.
    pub fn oc_rotation_coordinator_follow_host_sensor(
        coordinator: *mut oc_rotation_coordinator,
        bus_address: *const c_char,
    ) -> oc_status;
    /// Set the interface orientation I: the host orientation the UI is laid out for, or OC_INTERFACE_FOLLOWS_DEVICE.
    pub fn oc_rotation_coordinator_set_interface_orientation(
        coordinator: *mut oc_rotation_coordinator,
        degrees: i32,
    ) -> oc_status;
    /// Set and keep (by unique ID, in the state directory) an external camera's mounting correction M. For a camera that moves with the host, and for a virtual camera, this is refused.
    pub fn oc_rotation_coordinator_set_mounting_correction(coordinator: *mut oc_rotation_coordinator, degrees: i32) -> oc_status;
    /// Observe angle changes; unregister with oc_rotation_coordinator_remove_callback() (which waits for a call in flight).
    pub fn oc_rotation_coordinator_add_callback(
        coordinator: *mut oc_rotation_coordinator,
        callback: oc_rotation_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;
    /// Unregister a callback added with oc_rotation_coordinator_add_callback(); waits for a call in flight unless called from inside that callback.
    pub fn oc_rotation_coordinator_remove_callback(coordinator: *mut oc_rotation_coordinator, id: oc_callback_id) -> oc_status;
}
