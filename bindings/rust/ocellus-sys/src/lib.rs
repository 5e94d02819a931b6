//! Raw declarations of `include/ocellus.h`. See the header for ownership and
//! threading of each function; the safe wrapper is the `ocellus` crate.
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_int, c_void};

pub type oc_status = i32;
pub const OC_OK: oc_status = 0;
pub const OC_ERROR_INVALID_ARGUMENT: oc_status = -1;
pub const OC_ERROR_INVALID_HANDLE: oc_status = -2;
pub const OC_ERROR_BACKEND_UNAVAILABLE: oc_status = -3;
pub const OC_ERROR_NOT_FOUND: oc_status = -4;
pub const OC_ERROR_WRONG_STATE: oc_status = -5;
pub const OC_ERROR_TIMEOUT: oc_status = -6;
pub const OC_ERROR_NO_RESOURCES: oc_status = -7;
pub const OC_ERROR_BUSY: oc_status = -8;
pub const OC_ERROR_DISCONNECTED: oc_status = -9;
pub const OC_ERROR_IO: oc_status = -10;
pub const OC_ERROR_LIBRARY_UNAVAILABLE: oc_status = -11;
pub const OC_ERROR_OTHER: oc_status = -99;

#[repr(C)]
pub struct oc_context {
    _private: [u8; 0],
}
#[repr(C)]
pub struct oc_device {
    _private: [u8; 0],
}
#[repr(C)]
pub struct oc_device_list {
    _private: [u8; 0],
}

#[repr(C)]
pub struct oc_context_options {
    pub struct_size: u32,
    pub pipewire_remote: *const c_char,
    pub state_directory: *const c_char,
    pub timeout_ms: u32,
}

pub type oc_device_type = u32;
pub const OC_DEVICE_TYPE_BUILT_IN_CAMERA: oc_device_type = 0;
pub const OC_DEVICE_TYPE_EXTERNAL_CAMERA: oc_device_type = 1;
pub const OC_DEVICE_TYPE_VIRTUAL_CAMERA: oc_device_type = 2;
pub const OC_DEVICE_TYPE_DEPTH_CAMERA: oc_device_type = 3;
pub const OC_DEVICE_TYPE_MICROPHONE: oc_device_type = 4;

pub type oc_device_position = u32;
pub const OC_DEVICE_POSITION_UNSPECIFIED: oc_device_position = 0;
pub const OC_DEVICE_POSITION_FRONT: oc_device_position = 1;
pub const OC_DEVICE_POSITION_BACK: oc_device_position = 2;

pub type oc_backend = u32;
pub const OC_BACKEND_PIPEWIRE: oc_backend = 0;
pub const OC_BACKEND_V4L2: oc_backend = 1;

pub type oc_hotplug_event = u32;
pub const OC_HOTPLUG_ADDED: oc_hotplug_event = 0;
pub const OC_HOTPLUG_REMOVED: oc_hotplug_event = 1;

pub type oc_callback_id = u64;

pub type oc_preferred_camera_kind = u32;
pub const OC_PREFERRED_CAMERA_USER: oc_preferred_camera_kind = 0;
pub const OC_PREFERRED_CAMERA_SYSTEM: oc_preferred_camera_kind = 1;

pub const OC_DEVICE_TYPES_BUILT_IN_CAMERA: u32 = 1 << 0;
pub const OC_DEVICE_TYPES_EXTERNAL_CAMERA: u32 = 1 << 1;
pub const OC_DEVICE_TYPES_VIRTUAL_CAMERA: u32 = 1 << 2;
pub const OC_DEVICE_TYPES_DEPTH_CAMERA: u32 = 1 << 3;
pub const OC_DEVICE_TYPES_MICROPHONE: u32 = 1 << 4;

pub type oc_media_type = u32;
pub const OC_MEDIA_TYPE_ANY: oc_media_type = 0;
pub const OC_MEDIA_TYPE_VIDEO: oc_media_type = 1;
pub const OC_MEDIA_TYPE_AUDIO: oc_media_type = 2;

#[repr(C)]
pub struct oc_control_list {
    _private: [u8; 0],
}

pub type oc_control_type = u32;
pub const OC_CONTROL_FLAG_DISABLED: u32 = 0x0001;
pub const OC_CONTROL_FLAG_GRABBED: u32 = 0x0002;
pub const OC_CONTROL_FLAG_READ_ONLY: u32 = 0x0004;
pub const OC_CONTROL_FLAG_INACTIVE: u32 = 0x0010;
pub const OC_CONTROL_FLAG_WRITE_ONLY: u32 = 0x0040;
pub const OC_CONTROL_FLAG_VOLATILE: u32 = 0x0080;

#[repr(C)]
pub struct oc_control_info {
    pub struct_size: u32,
    pub id: u32,
    pub name: *const c_char,
    pub type_: oc_control_type,
    pub minimum: i64,
    pub maximum: i64,
    pub step: i64,
    pub default_value: i64,
    pub flags: u32,
    pub has_value: bool,
    pub value: i64,
    pub menu_count: u32,
}

#[repr(C)]
pub struct oc_capture_session {
    _private: [u8; 0],
}
#[repr(C)]
pub struct oc_video_data_output {
    _private: [u8; 0],
}
#[repr(C)]
pub struct oc_frame {
    _private: [u8; 0],
}

pub type oc_session_event = u32;
pub const OC_SESSION_EVENT_STARTED: oc_session_event = 0;
pub const OC_SESSION_EVENT_STOPPED: oc_session_event = 1;
pub const OC_SESSION_EVENT_RUNTIME_ERROR: oc_session_event = 2;
pub const OC_SESSION_EVENT_INTERRUPTED: oc_session_event = 3;
pub const OC_SESSION_EVENT_INTERRUPTION_ENDED: oc_session_event = 4;
pub const OC_SESSION_EVENT_AUDIO_INTERRUPTED: oc_session_event = 5;
pub const OC_SESSION_EVENT_INPUT_SWITCHED: oc_session_event = 6;
pub const OC_SESSION_EVENT_SWITCH_DEFERRED: oc_session_event = 7;
pub const OC_SESSION_EVENT_SWITCH_FAILED: oc_session_event = 8;
pub const OC_SESSION_EVENT_RECORDING_DEGRADED: oc_session_event = 9;

/// `OC_FOURCC(a, b, c, d)`.
pub const fn oc_fourcc(code: [u8; 4]) -> u32 {
    u32::from_le_bytes(code)
}
pub const OC_PIXEL_FORMAT_NV12: u32 = oc_fourcc(*b"NV12");
pub const OC_PIXEL_FORMAT_I420: u32 = oc_fourcc(*b"YU12");
pub const OC_PIXEL_FORMAT_YUYV: u32 = oc_fourcc(*b"YUYV");
pub const OC_PIXEL_FORMAT_UYVY: u32 = oc_fourcc(*b"UYVY");
pub const OC_PIXEL_FORMAT_MJPEG: u32 = oc_fourcc(*b"MJPG");
pub const OC_PIXEL_FORMAT_H264: u32 = oc_fourcc(*b"H264");
pub const OC_PIXEL_FORMAT_BGRA: u32 = oc_fourcc(*b"AR24");
pub const OC_PIXEL_FORMAT_RGBA: u32 = oc_fourcc(*b"AB24");
pub const OC_PIXEL_FORMAT_BGR24: u32 = oc_fourcc(*b"BGR3");
pub const OC_PIXEL_FORMAT_RGB24: u32 = oc_fourcc(*b"RGB3");
pub const OC_PIXEL_FORMAT_GRAY8: u32 = oc_fourcc(*b"GREY");
pub const OC_PIXEL_FORMAT_Z16: u32 = oc_fourcc(*b"Z16 ");

#[repr(C)]
pub struct oc_photo_output {
    _private: [u8; 0],
}
#[repr(C)]
pub struct oc_movie_file_output {
    _private: [u8; 0],
}

#[repr(C)]
pub struct oc_photo {
    pub data: *const u8,
    pub size: usize,
    pub width: u32,
    pub height: u32,
    pub orientation: u16,
    pub sequence: u64,
    pub timestamp_ns: u64,
    pub path: *const c_char,
}

#[repr(C)]
pub struct oc_photo_settings {
    pub struct_size: u32,
    pub apply_rotation_to_pixels: bool,
    pub quality: i32,
    pub path: *const c_char,
}

#[repr(C)]
pub struct oc_recording_summary {
    pub path: *const c_char,
    pub bytes: i64,
    pub width: u32,
    pub height: u32,
    pub duration: f64,
    pub frames: u64,
    pub dropped_frames: u64,
    pub rotation: i32,
    pub video_codec: *const c_char,
    /// Seconds of sound (0 without a microphone); added in 0.2.
    pub audio_duration: f64,
}

pub type oc_photo_callback = Option<
    unsafe extern "C" fn(output: *mut oc_photo_output, status: oc_status, photo: *const oc_photo, message: *const c_char, user_data: *mut c_void),
>;
pub type oc_recording_callback = Option<
    unsafe extern "C" fn(
        output: *mut oc_movie_file_output,
        status: oc_status,
        message: *const c_char,
        summary: *const oc_recording_summary,
        user_data: *mut c_void,
    ),
>;

pub type oc_frame_callback =
    Option<unsafe extern "C" fn(output: *mut oc_video_data_output, frame: *const oc_frame, user_data: *mut c_void)>;
pub type oc_session_event_callback = Option<
    unsafe extern "C" fn(
        session: *mut oc_capture_session,
        event: oc_session_event,
        error: oc_status,
        message: *const c_char,
        user_data: *mut c_void,
    ),
>;

#[repr(C)]
pub struct oc_rotation_coordinator {
    _private: [u8; 0],
}
pub const OC_INTERFACE_FOLLOWS_DEVICE: i32 = -1;
pub type oc_rotation_callback =
    Option<unsafe extern "C" fn(coordinator: *mut oc_rotation_coordinator, preview: i32, capture: i32, user_data: *mut c_void)>;

#[repr(C)]
pub struct oc_discovery_session {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct oc_fraction {
    pub numerator: u32,
    pub denominator: u32,
}

#[repr(C)]
pub struct oc_format_info {
    pub struct_size: u32,
    pub pixel_format: u32,
    pub width: u32,
    pub height: u32,
    pub frame_rate_count: u32,
    pub frame_rates: *const oc_fraction,
    pub frame_rates_are_range: bool,
}

pub type oc_hotplug_callback = Option<
    unsafe extern "C" fn(ctx: *mut oc_context, event: oc_hotplug_event, device: *mut oc_device, user_data: *mut c_void),
>;

pub type oc_preferred_camera_callback = Option<
    unsafe extern "C" fn(ctx: *mut oc_context, kind: oc_preferred_camera_kind, camera: *mut oc_device, user_data: *mut c_void),
>;
pub type oc_microphone_route_callback =
    Option<unsafe extern "C" fn(ctx: *mut oc_context, input: *mut oc_device, user_data: *mut c_void)>;

#[repr(C)]
pub struct oc_audio_data_output {
    _private: [u8; 0],
}
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

pub type oc_device_disconnected_callback =
    Option<unsafe extern "C" fn(ctx: *mut oc_context, device: *mut oc_device, user_data: *mut c_void)>;
pub type oc_discovery_callback = Option<
    unsafe extern "C" fn(session: *mut oc_discovery_session, event: oc_hotplug_event, device: *mut oc_device, user_data: *mut c_void),
>;

extern "C" {
    pub fn oc_version() -> *const c_char;
    pub fn oc_status_name(status: oc_status) -> *const c_char;
    pub fn oc_last_error_message() -> *const c_char;

    pub fn oc_context_options_init(options: *mut oc_context_options);
    pub fn oc_context_create(
        app_id: *const c_char,
        options: *const oc_context_options,
        out: *mut *mut oc_context,
    ) -> oc_status;
    pub fn oc_context_destroy(ctx: *mut oc_context);
    pub fn oc_context_app_id(ctx: *const oc_context) -> *const c_char;
    pub fn oc_context_state_directory(ctx: *const oc_context) -> *const c_char;

    pub fn oc_context_copy_devices(ctx: *mut oc_context, out: *mut *mut oc_device_list) -> oc_status;
    pub fn oc_device_list_count(list: *const oc_device_list) -> usize;
    pub fn oc_device_list_get(list: *const oc_device_list, index: usize) -> *mut oc_device;
    pub fn oc_device_list_free(list: *mut oc_device_list);

    pub fn oc_device_retain(device: *mut oc_device) -> *mut oc_device;
    pub fn oc_device_release(device: *mut oc_device);
    pub fn oc_device_unique_id(device: *const oc_device) -> *const c_char;
    pub fn oc_device_name(device: *const oc_device) -> *const c_char;
    pub fn oc_device_get_type(device: *const oc_device) -> oc_device_type;
    pub fn oc_device_get_position(device: *const oc_device) -> oc_device_position;
    pub fn oc_device_get_backend(device: *const oc_device) -> oc_backend;
    pub fn oc_device_is_connected(device: *const oc_device) -> bool;
    pub fn oc_device_supports_multitasking(device: *const oc_device) -> bool;
    pub fn oc_device_vendor_id(device: *const oc_device) -> u16;
    pub fn oc_device_product_id(device: *const oc_device) -> u16;
    pub fn oc_device_serial_number(device: *const oc_device) -> *const c_char;
    pub fn oc_device_get_property(device: *const oc_device, key: *const c_char) -> *const c_char;
    pub fn oc_device_format_count(device: *const oc_device) -> usize;
    pub fn oc_device_get_format(device: *const oc_device, index: usize, info: *mut oc_format_info) -> oc_status;
    pub fn oc_fourcc_string(fourcc: u32, buffer: *mut c_char) -> *mut c_char;
    pub fn oc_pixel_format_from_name(name: *const c_char, out: *mut u32) -> oc_status;
    pub fn oc_context_copy_device_by_unique_id(ctx: *mut oc_context, unique_id: *const c_char,
                                               out: *mut *mut oc_device) -> oc_status;
    pub fn oc_context_copy_device_matching(ctx: *mut oc_context, spec: *const c_char, out: *mut *mut oc_device) -> oc_status;
    pub fn oc_video_data_output_copy_next_frame(output: *mut oc_video_data_output, timeout_ms: u32,
                                                out: *mut *mut oc_frame) -> oc_status;
    pub fn oc_video_data_output_get_pollable_fd(output: *mut oc_video_data_output, out_fd: *mut c_int) -> oc_status;
    pub fn oc_pixel_format_name(fourcc: u32, buffer: *mut c_char, size: usize) -> usize;

    pub fn oc_device_copy_controls(device: *mut oc_device, out: *mut *mut oc_control_list) -> oc_status;
    pub fn oc_control_list_count(list: *const oc_control_list) -> usize;
    pub fn oc_control_list_get(list: *const oc_control_list, index: usize, info: *mut oc_control_info) -> oc_status;
    pub fn oc_control_list_get_menu_item(
        list: *const oc_control_list,
        index: usize,
        item: usize,
        value: *mut i64,
        name: *mut *const c_char,
    ) -> oc_status;
    pub fn oc_control_list_free(list: *mut oc_control_list);
    pub fn oc_device_set_control(device: *mut oc_device, name: *const c_char, value: i64) -> oc_status;
    pub fn oc_device_lock_for_configuration(device: *mut oc_device) -> oc_status;
    pub fn oc_device_unlock_for_configuration(device: *mut oc_device) -> oc_status;

    pub fn oc_context_add_hotplug_callback(
        ctx: *mut oc_context,
        callback: oc_hotplug_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;
    pub fn oc_context_remove_callback(ctx: *mut oc_context, id: oc_callback_id) -> oc_status;
    pub fn oc_context_add_disconnected_callback(
        ctx: *mut oc_context,
        device: *mut oc_device,
        callback: oc_device_disconnected_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;

    pub fn oc_discovery_session_create(
        ctx: *mut oc_context,
        device_types: u32,
        media_type: oc_media_type,
        position: oc_device_position,
        out: *mut *mut oc_discovery_session,
    ) -> oc_status;
    pub fn oc_discovery_session_copy_devices(session: *mut oc_discovery_session, out: *mut *mut oc_device_list) -> oc_status;
    pub fn oc_discovery_session_set_callback(
        session: *mut oc_discovery_session,
        callback: oc_discovery_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    pub fn oc_discovery_session_destroy(session: *mut oc_discovery_session);

    pub fn oc_rotation_coordinator_create(
        ctx: *mut oc_context,
        camera: *mut oc_device,
        mirrored: i32,
        out: *mut *mut oc_rotation_coordinator,
    ) -> oc_status;
    pub fn oc_rotation_coordinator_destroy(coordinator: *mut oc_rotation_coordinator);
    pub fn oc_rotation_coordinator_get_angles(coordinator: *const oc_rotation_coordinator, preview: *mut i32, capture: *mut i32) -> oc_status;
    pub fn oc_rotation_coordinator_is_mirrored(coordinator: *const oc_rotation_coordinator) -> bool;
    pub fn oc_rotation_coordinator_set_host_orientation(coordinator: *mut oc_rotation_coordinator, degrees: i32) -> oc_status;
    pub fn oc_rotation_coordinator_set_interface_orientation(coordinator: *mut oc_rotation_coordinator, degrees: i32) -> oc_status;
    pub fn oc_rotation_coordinator_set_mounting_correction(coordinator: *mut oc_rotation_coordinator, degrees: i32) -> oc_status;
    pub fn oc_video_data_output_set_rotation_angle(output: *mut oc_video_data_output, degrees: i32) -> oc_status;
    pub fn oc_video_data_output_set_mirrored(output: *mut oc_video_data_output, mirrored: i32) -> oc_status;
    pub fn oc_capture_session_create(ctx: *mut oc_context, out: *mut *mut oc_capture_session) -> oc_status;
    pub fn oc_capture_session_destroy(session: *mut oc_capture_session);
    pub fn oc_capture_session_begin_configuration(session: *mut oc_capture_session) -> oc_status;
    pub fn oc_capture_session_commit_configuration(session: *mut oc_capture_session) -> oc_status;
    pub fn oc_capture_session_set_input(session: *mut oc_capture_session, camera: *mut oc_device) -> oc_status;
    pub fn oc_capture_session_add_output(session: *mut oc_capture_session, output: *mut oc_video_data_output) -> oc_status;
    pub fn oc_capture_session_remove_output(session: *mut oc_capture_session, output: *mut oc_video_data_output) -> oc_status;
    pub fn oc_capture_session_start_running(session: *mut oc_capture_session) -> oc_status;
    pub fn oc_capture_session_stop_running(session: *mut oc_capture_session) -> oc_status;
    pub fn oc_capture_session_is_running(session: *const oc_capture_session) -> bool;
    pub fn oc_capture_session_add_event_callback(
        session: *mut oc_capture_session,
        callback: oc_session_event_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;
    pub fn oc_capture_session_remove_callback(session: *mut oc_capture_session, id: oc_callback_id) -> oc_status;
    pub fn oc_video_data_output_create(out: *mut *mut oc_video_data_output) -> oc_status;
    pub fn oc_video_data_output_destroy(output: *mut oc_video_data_output);
    pub fn oc_video_data_output_set_format(output: *mut oc_video_data_output, pixel_format: u32, width: u32, height: u32) -> oc_status;
    pub fn oc_video_data_output_set_frame_callback(
        output: *mut oc_video_data_output,
        callback: oc_frame_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    pub fn oc_video_data_output_delivered_frames(output: *const oc_video_data_output) -> u64;
    pub fn oc_frame_pixel_format(frame: *const oc_frame) -> u32;
    pub fn oc_frame_width(frame: *const oc_frame) -> u32;
    pub fn oc_frame_height(frame: *const oc_frame) -> u32;
    pub fn oc_frame_sequence(frame: *const oc_frame) -> u64;
    pub fn oc_frame_timestamp_ns(frame: *const oc_frame) -> u64;
    pub fn oc_frame_is_full_range(frame: *const oc_frame) -> bool;
    pub fn oc_frame_plane_count(frame: *const oc_frame) -> u32;
    pub fn oc_frame_plane_data(frame: *const oc_frame, plane: u32, size: *mut usize, stride: *mut u32) -> *const u8;
    pub fn oc_frame_retain(frame: *const oc_frame) -> *mut oc_frame;
    pub fn oc_frame_release(frame: *mut oc_frame);

    pub fn oc_photo_output_create(out: *mut *mut oc_photo_output) -> oc_status;
    pub fn oc_photo_output_destroy(output: *mut oc_photo_output);
    pub fn oc_capture_session_add_photo_output(session: *mut oc_capture_session, output: *mut oc_photo_output) -> oc_status;
    pub fn oc_capture_session_remove_photo_output(session: *mut oc_capture_session, output: *mut oc_photo_output) -> oc_status;
    pub fn oc_photo_output_set_rotation_angle(output: *mut oc_photo_output, degrees: i32) -> oc_status;
    pub fn oc_photo_output_set_mirrored(output: *mut oc_photo_output, mirrored: bool) -> oc_status;
    pub fn oc_photo_output_capture(
        output: *mut oc_photo_output,
        settings: *const oc_photo_settings,
        callback: oc_photo_callback,
        user_data: *mut c_void,
    ) -> oc_status;

    pub fn oc_movie_file_output_create(out: *mut *mut oc_movie_file_output) -> oc_status;
    pub fn oc_movie_file_output_destroy(output: *mut oc_movie_file_output);
    pub fn oc_capture_session_add_movie_file_output(session: *mut oc_capture_session, output: *mut oc_movie_file_output) -> oc_status;
    pub fn oc_capture_session_remove_movie_file_output(session: *mut oc_capture_session, output: *mut oc_movie_file_output) -> oc_status;
    pub fn oc_movie_file_output_set_rotation_angle(output: *mut oc_movie_file_output, degrees: i32) -> oc_status;
    pub fn oc_movie_file_output_start_recording(
        output: *mut oc_movie_file_output,
        path: *const c_char,
        callback: oc_recording_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    pub fn oc_movie_file_output_stop_recording(output: *mut oc_movie_file_output) -> oc_status;
    pub fn oc_movie_file_output_is_recording(output: *const oc_movie_file_output) -> bool;
    pub fn oc_movie_file_output_recorded_duration(output: *const oc_movie_file_output) -> f64;

    pub fn oc_context_copy_associated_microphone(
        ctx: *mut oc_context,
        camera: *mut oc_device,
        out: *mut *mut oc_device,
    ) -> oc_status;
    pub fn oc_context_copy_user_preferred_camera(ctx: *mut oc_context, out: *mut *mut oc_device) -> oc_status;
    pub fn oc_context_copy_system_preferred_camera(ctx: *mut oc_context, out: *mut *mut oc_device) -> oc_status;
    pub fn oc_context_set_user_preferred_camera(ctx: *mut oc_context, camera: *mut oc_device) -> oc_status;
    pub fn oc_context_copy_state_problem(ctx: *const oc_context, buffer: *mut c_char, size: usize) -> usize;
    pub fn oc_context_copy_backend_problem(ctx: *const oc_context, backend: oc_backend, buffer: *mut c_char, size: usize) -> usize;
    pub fn oc_context_add_preferred_camera_callback(
        ctx: *mut oc_context,
        callback: oc_preferred_camera_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;

    pub fn oc_context_copy_default_microphone(ctx: *mut oc_context, out: *mut *mut oc_device) -> oc_status;
    pub fn oc_context_copy_microphone_route(ctx: *mut oc_context, out: *mut *mut oc_device) -> oc_status;
    pub fn oc_context_copy_preferred_microphone(ctx: *mut oc_context, out: *mut *mut oc_device) -> oc_status;
    pub fn oc_context_set_preferred_microphone(ctx: *mut oc_context, microphone: *mut oc_device) -> oc_status;
    pub fn oc_context_add_microphone_route_callback(
        ctx: *mut oc_context,
        callback: oc_microphone_route_callback,
        user_data: *mut c_void,
        out_id: *mut oc_callback_id,
    ) -> oc_status;

    pub fn oc_capture_session_set_audio_input(session: *mut oc_capture_session, microphone: *mut oc_device) -> oc_status;
    pub fn oc_audio_data_output_create(out: *mut *mut oc_audio_data_output) -> oc_status;
    pub fn oc_audio_data_output_destroy(output: *mut oc_audio_data_output);
    pub fn oc_capture_session_add_audio_output(session: *mut oc_capture_session, output: *mut oc_audio_data_output) -> oc_status;
    pub fn oc_capture_session_remove_audio_output(session: *mut oc_capture_session, output: *mut oc_audio_data_output) -> oc_status;
    pub fn oc_audio_data_output_set_callback(
        output: *mut oc_audio_data_output,
        callback: oc_audio_callback,
        user_data: *mut c_void,
    ) -> oc_status;
    pub fn oc_audio_data_output_delivered_frames(output: *const oc_audio_data_output) -> u64;

    pub fn oc_capture_session_set_automatically_switches_camera(session: *mut oc_capture_session, enabled: bool) -> oc_status;
    pub fn oc_capture_session_automatically_switches_camera(session: *const oc_capture_session) -> bool;
    pub fn oc_capture_session_is_recording(session: *const oc_capture_session) -> bool;
}
