"""ctypes declarations of include/ocellus.h: each C function once, with its
argument and result types and how its errors are checked, so no call site
checks a status code by hand."""

import ctypes
import ctypes.util
import os
from typing import Any, Callable, Iterator, List

c_status = ctypes.c_int32
c_callback_id = ctypes.c_uint64


class ContextOptions(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("pipewire_remote", ctypes.c_char_p),
        ("state_directory", ctypes.c_char_p),
        ("timeout_ms", ctypes.c_uint32),
    ]


class Fraction(ctypes.Structure):
    _fields_ = [("numerator", ctypes.c_uint32), ("denominator", ctypes.c_uint32)]


class FormatInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("pixel_format", ctypes.c_uint32),
        ("width", ctypes.c_uint32),
        ("height", ctypes.c_uint32),
        ("frame_rate_count", ctypes.c_uint32),
        ("frame_rates", ctypes.POINTER(Fraction)),
        ("frame_rates_are_range", ctypes.c_bool),
        ("sizes_are_range", ctypes.c_bool),
        ("min_width", ctypes.c_uint32),
        ("min_height", ctypes.c_uint32),
        ("step_width", ctypes.c_uint32),
        ("step_height", ctypes.c_uint32),
    ]


class ControlInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("id", ctypes.c_uint32),
        ("name", ctypes.c_char_p),
        ("type", ctypes.c_int),
        ("minimum", ctypes.c_int64),
        ("maximum", ctypes.c_int64),
        ("step", ctypes.c_int64),
        ("default_value", ctypes.c_int64),
        ("flags", ctypes.c_uint32),
        ("has_value", ctypes.c_bool),
        ("value", ctypes.c_int64),
        ("menu_count", ctypes.c_uint32),
        ("has_payload", ctypes.c_bool),
        ("element_size", ctypes.c_uint32),
        ("element_count", ctypes.c_uint32),
        ("dimension_count", ctypes.c_uint32),
        ("dimensions", ctypes.c_uint32 * 4),
    ]


class CenterStageState(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("enabled", ctypes.c_bool),
        ("active", ctypes.c_bool),
        ("window", ctypes.c_double * 4),
    ]


class HardwareCost(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("fits", ctypes.c_bool),
        ("total", ctypes.c_double),
        ("own", ctypes.c_double),
        ("others", ctypes.c_uint32),
        ("bus", ctypes.c_char * 16),
    ]


class ConfigurationCheck(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("as_asked", ctypes.c_bool),
        ("adjusted", ctypes.c_uint32),
        ("pixel_format", ctypes.c_uint32),
        ("width", ctypes.c_uint32),
        ("height", ctypes.c_uint32),
        ("frame_rate", Fraction),
        ("asked_pixel_format", ctypes.c_uint32),
        ("asked_width", ctypes.c_uint32),
        ("asked_height", ctypes.c_uint32),
        ("asked_frame_rate", Fraction),
        ("reason", ctypes.c_char * 256),
    ]


class FaceDrivenState(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("automatically_adjusts", ctypes.c_bool),
        ("enabled", ctypes.c_bool),
        ("tier", ctypes.c_int),
        ("active", ctypes.c_bool),
    ]


class Photo(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.POINTER(ctypes.c_uint8)),
        ("size", ctypes.c_size_t),
        ("width", ctypes.c_uint32),
        ("height", ctypes.c_uint32),
        ("orientation", ctypes.c_uint16),
        ("sequence", ctypes.c_uint64),
        ("timestamp_ns", ctypes.c_uint64),
        ("path", ctypes.c_char_p),
    ]


class PhotoSettings(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("apply_rotation_to_pixels", ctypes.c_bool),
        ("quality", ctypes.c_int32),
        ("path", ctypes.c_char_p),
    ]


class MetadataObject(ctypes.Structure):
    _fields_ = [
        ("type", ctypes.c_uint32),
        ("x", ctypes.c_double),
        ("y", ctypes.c_double),
        ("width", ctypes.c_double),
        ("height", ctypes.c_double),
        ("confidence", ctypes.c_float),
        ("face_id", ctypes.c_uint64),
        ("symbology", ctypes.c_char_p),
        ("text", ctypes.c_char_p),
        ("bytes", ctypes.POINTER(ctypes.c_uint8)),
        ("byte_count", ctypes.c_size_t),
    ]


class MetadataStatistics(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32),
        ("deliveries", ctypes.c_uint64),
        ("objects", ctypes.c_uint64),
        ("analysed_frames", ctypes.c_uint64),
        ("dropped_frames", ctypes.c_uint64),
        ("corrupt_frames", ctypes.c_uint64),
    ]


class RecordingSummary(ctypes.Structure):
    _fields_ = [
        ("path", ctypes.c_char_p),
        ("bytes", ctypes.c_int64),
        ("width", ctypes.c_uint32),
        ("height", ctypes.c_uint32),
        ("duration", ctypes.c_double),
        ("frames", ctypes.c_uint64),
        ("dropped_frames", ctypes.c_uint64),
        ("rotation", ctypes.c_int32),
        ("video_codec", ctypes.c_char_p),
        ("audio_duration", ctypes.c_double),
        ("dropped_audio_frames", ctypes.c_uint64),
    ]


AUDIO_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(ctypes.c_float), ctypes.c_size_t, ctypes.c_uint32,
                                  ctypes.c_uint32, ctypes.c_uint64, ctypes.c_void_p)
RECORDING_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int32, ctypes.c_char_p, ctypes.POINTER(RecordingSummary),
                                      ctypes.c_void_p)
PHOTO_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int32, ctypes.POINTER(Photo), ctypes.c_char_p, ctypes.c_void_p)
METADATA_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_uint64, ctypes.POINTER(MetadataObject), ctypes.c_size_t,
                                     ctypes.c_void_p)
ROTATION_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32, ctypes.c_void_p)
FRAME_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
SESSION_EVENT_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_int32, ctypes.c_char_p, ctypes.c_void_p)
MULTI_CAM_EVENT_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int32, ctypes.c_char_p,
                                             ctypes.c_void_p)
CAMERA_ACCESS_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_int32, ctypes.c_char_p, ctypes.c_void_p)
HOTPLUG_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
PREFERRED_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)
DISCONNECTED_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
MICROPHONE_ROUTE_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
SYNCHRONIZED_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
DISCOVERY_CALLBACK: Any = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p)

_SONAME = "libocellus.so.0"


def _candidates() -> Iterator[str]:
    env = os.environ.get("OCELLUS_LIBRARY")
    if env:
        yield env
    yield os.path.join(os.path.dirname(os.path.abspath(__file__)), _SONAME)
    yield _SONAME
    found = ctypes.util.find_library("ocellus")
    if found:
        yield found


def load_library() -> ctypes.CDLL:
    """Loads libocellus: $OCELLUS_LIBRARY, then a copy beside this package, then the SONAME."""
    tried: List[str] = []
    for candidate in _candidates():
        if os.sep in candidate and not os.path.exists(candidate):
            tried.append(f"{candidate} (no such file)")
            continue
        try:
            return ctypes.CDLL(candidate)
        except OSError as error:
            tried.append(f"{candidate} ({error})")
    raise ImportError("cannot load the Ocellus library (install libocellus0, or set OCELLUS_LIBRARY to the path of "
                      "libocellus.so.0); tried: " + "; ".join(tried))


def declare(lib: ctypes.CDLL, errcheck_status: Callable[..., int]) -> ctypes.CDLL:
    """Sets argtypes/restype for every C function; status-returning ones raise on failure."""
    vp, cp, sz = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t
    table = {
        "oc_version": ([], cp),
        "oc_status_name": ([c_status], cp),
        "oc_control_flag_name": ([ctypes.c_uint32], cp),
        "oc_pixel_format_from_name": ([ctypes.c_char_p, ctypes.POINTER(ctypes.c_uint32)], c_status),
        "oc_context_copy_device_by_unique_id": ([vp, ctypes.c_char_p, ctypes.POINTER(vp)], c_status),
        "oc_context_copy_device_matching": ([vp, ctypes.c_char_p, ctypes.POINTER(vp)], c_status),
        "oc_video_data_output_copy_next_frame": ([vp, ctypes.c_uint32, ctypes.POINTER(vp)], c_status),
        "oc_video_data_output_get_pollable_fd": ([vp, ctypes.POINTER(ctypes.c_int)], c_status),
        "oc_pixel_format_name": ([ctypes.c_uint32, ctypes.c_char_p, sz], sz),
        "oc_last_error_message": ([], cp),
        "oc_context_options_init": ([ctypes.POINTER(ContextOptions)], None),
        "oc_context_create": ([cp, ctypes.POINTER(ContextOptions), ctypes.POINTER(vp)], c_status),
        "oc_context_destroy": ([vp], None),
        "oc_context_app_id": ([vp], cp),
        "oc_context_state_directory": ([vp], cp),
        "oc_context_copy_devices": ([vp, ctypes.POINTER(vp)], c_status),
        "oc_device_list_count": ([vp], sz),
        "oc_device_list_get": ([vp, sz], vp),
        "oc_device_list_free": ([vp], None),
        "oc_device_retain": ([vp], vp),
        "oc_device_release": ([vp], None),
        "oc_device_unique_id": ([vp], cp),
        "oc_device_name": ([vp], cp),
        "oc_device_get_type": ([vp], ctypes.c_int),
        "oc_device_get_position": ([vp], ctypes.c_int),
        "oc_device_get_backend": ([vp], ctypes.c_int),
        "oc_device_is_connected": ([vp], ctypes.c_bool),
        "oc_device_vendor_id": ([vp], ctypes.c_uint16),
        "oc_device_supports_multitasking": ([vp], ctypes.c_bool),
        "oc_device_product_id": ([vp], ctypes.c_uint16),
        "oc_device_serial_number": ([vp], cp),
        "oc_device_get_property": ([vp, cp], cp),
        "oc_device_format_count": ([vp], sz),
        "oc_device_get_format": ([vp, sz, ctypes.POINTER(FormatInfo)], c_status),
        "oc_context_add_hotplug_callback": ([vp, HOTPLUG_CALLBACK, vp, ctypes.POINTER(c_callback_id)], c_status),
        "oc_context_remove_callback": ([vp, c_callback_id], c_status),
        "oc_rotation_coordinator_create": ([vp, vp, ctypes.c_int, ctypes.POINTER(vp)], c_status),
        "oc_rotation_coordinator_destroy": ([vp], None),
        "oc_rotation_coordinator_get_angles": ([vp, ctypes.POINTER(ctypes.c_int32), ctypes.POINTER(ctypes.c_int32)], c_status),
        "oc_rotation_coordinator_is_mirrored": ([vp], ctypes.c_bool),
        "oc_rotation_coordinator_set_host_orientation": ([vp, ctypes.c_int32], c_status),
        "oc_rotation_coordinator_follow_host_sensor": ([vp, cp], c_status),
        "oc_rotation_coordinator_set_interface_orientation": ([vp, ctypes.c_int32], c_status),
        "oc_rotation_coordinator_set_mounting_correction": ([vp, ctypes.c_int32], c_status),
        "oc_rotation_coordinator_add_callback": ([vp, ROTATION_CALLBACK, vp, ctypes.POINTER(c_callback_id)], c_status),
        "oc_rotation_coordinator_remove_callback": ([vp, c_callback_id], c_status),
        "oc_capture_session_create": ([vp, ctypes.POINTER(vp)], c_status),
        "oc_capture_session_destroy": ([vp], None),
        "oc_capture_session_begin_configuration": ([vp], c_status),
        "oc_capture_session_commit_configuration": ([vp], c_status),
        "oc_capture_session_set_input": ([vp, vp], c_status),
        "oc_capture_session_add_output": ([vp, vp], c_status),
        "oc_capture_session_set_audio_input": ([vp, vp], c_status),
        "oc_audio_data_output_create": ([ctypes.POINTER(vp)], c_status),
        "oc_audio_data_output_destroy": ([vp], None),
        "oc_capture_session_add_audio_output": ([vp, vp], c_status),
        "oc_capture_session_remove_audio_output": ([vp, vp], c_status),
        "oc_audio_data_output_set_callback": ([vp, AUDIO_CALLBACK, vp], c_status),
        "oc_audio_data_output_delivered_frames": ([vp], ctypes.c_uint64),
        "oc_audio_data_output_dropped_frames": ([vp], ctypes.c_uint64),
        "oc_capture_session_set_preferred_microphone_mode": ([vp, ctypes.c_int], c_status),
        "oc_capture_session_get_echo_cancellation": ([vp, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t], c_status),
        "oc_capture_session_set_audio_format": ([vp, ctypes.c_uint32, ctypes.c_uint32], c_status),
        "oc_capture_session_get_microphone_mode": ([vp, ctypes.POINTER(ctypes.c_int), ctypes.POINTER(ctypes.c_int),
                                                    ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t], c_status),
        "oc_microphone_mode_name": ([ctypes.c_int], ctypes.c_char_p),
        "oc_movie_file_output_create": ([ctypes.POINTER(vp)], c_status),
        "oc_movie_file_output_destroy": ([vp], None),
        "oc_capture_session_add_movie_file_output": ([vp, vp], c_status),
        "oc_capture_session_remove_movie_file_output": ([vp, vp], c_status),
        "oc_movie_file_output_set_rotation_angle": ([vp, ctypes.c_int32], c_status),
        "oc_movie_file_output_start_recording": ([vp, ctypes.c_char_p, RECORDING_CALLBACK, vp], c_status),
        "oc_movie_file_output_stop_recording": ([vp], c_status),
        "oc_movie_file_output_is_recording": ([vp], ctypes.c_bool),
        "oc_movie_file_output_recorded_duration": ([vp], ctypes.c_double),
        "oc_metadata_output_create": ([ctypes.c_uint32, ctypes.c_char_p, ctypes.POINTER(vp)], c_status),
        "oc_metadata_output_destroy": ([vp], None),
        "oc_capture_session_add_metadata_output": ([vp, vp], c_status),
        "oc_capture_session_remove_metadata_output": ([vp, vp], c_status),
        "oc_metadata_output_set_callback": ([vp, METADATA_CALLBACK, vp], c_status),
        "oc_metadata_output_set_rotation_angle": ([vp, ctypes.c_int32], c_status),
        "oc_metadata_output_set_mirrored": ([vp, ctypes.c_bool], c_status),
        "oc_metadata_output_set_max_rate": ([vp, ctypes.c_double], c_status),
        "oc_metadata_output_get_statistics": ([vp, ctypes.POINTER(MetadataStatistics)], c_status),
        "oc_photo_output_create": ([ctypes.POINTER(vp)], c_status),
        "oc_photo_output_destroy": ([vp], None),
        "oc_capture_session_add_photo_output": ([vp, vp], c_status),
        "oc_capture_session_remove_photo_output": ([vp, vp], c_status),
        "oc_photo_output_set_rotation_angle": ([vp, ctypes.c_int32], c_status),
        "oc_photo_output_set_mirrored": ([vp, ctypes.c_bool], c_status),
        "oc_photo_output_capture": ([vp, ctypes.POINTER(PhotoSettings), PHOTO_CALLBACK, vp], c_status),
        "oc_capture_session_remove_output": ([vp, vp], c_status),
        "oc_capture_session_can_add_output": ([vp, vp], ctypes.c_bool),
        "oc_capture_session_start_running": ([vp], c_status),
        "oc_capture_session_set_preset": ([vp, ctypes.c_int], c_status),
        "oc_device_supports_preset": ([vp, ctypes.c_int], ctypes.c_bool),
        "oc_capture_session_stop_running": ([vp], c_status),
        "oc_capture_session_is_running": ([vp], ctypes.c_bool),
        "oc_capture_session_get_hardware_cost": ([vp, ctypes.POINTER(HardwareCost)], c_status),
        "oc_capture_session_check_configuration": ([vp, ctypes.POINTER(ConfigurationCheck)], c_status),
        "oc_capture_session_set_bus_fit": ([vp, ctypes.c_int], c_status),
        "oc_capture_session_get_bus_fit": ([vp], ctypes.c_int),
        "oc_multi_cam_session_create": ([vp, ctypes.POINTER(vp)], c_status),
        "oc_multi_cam_session_destroy": ([vp], None),
        "oc_multi_cam_session_can_add_camera": ([vp, vp], ctypes.c_bool),
        "oc_multi_cam_session_add_camera": ([vp, vp, ctypes.POINTER(vp)], c_status),
        "oc_multi_cam_session_remove_camera": ([vp, vp], c_status),
        "oc_multi_cam_session_start_running": ([vp], c_status),
        "oc_multi_cam_session_stop_running": ([vp], c_status),
        "oc_multi_cam_session_is_running": ([vp], ctypes.c_bool),
        "oc_multi_cam_session_get_hardware_cost": ([vp, ctypes.POINTER(HardwareCost)], c_status),
        "oc_multi_cam_session_add_event_callback": ([vp, MULTI_CAM_EVENT_CALLBACK, vp, ctypes.POINTER(c_callback_id)], c_status),
        "oc_multi_cam_session_remove_callback": ([vp, c_callback_id], c_status),
        "oc_capture_session_set_automatically_switches_camera": ([vp, ctypes.c_bool], c_status),
        "oc_capture_session_automatically_switches_camera": ([vp], ctypes.c_bool),
        "oc_capture_session_is_recording": ([vp], ctypes.c_bool),
        "oc_capture_session_add_event_callback": ([vp, SESSION_EVENT_CALLBACK, vp, ctypes.POINTER(c_callback_id)], c_status),
        "oc_capture_session_remove_callback": ([vp, c_callback_id], c_status),
        "oc_video_data_output_create": ([ctypes.POINTER(vp)], c_status),
        "oc_video_data_output_destroy": ([vp], None),
        "oc_video_data_output_set_format": ([vp, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32], c_status),
        "oc_video_data_output_set_max_frame_rate": ([vp, Fraction], c_status),
        "oc_video_data_output_is_rotation_angle_supported": ([vp, ctypes.c_int32], ctypes.c_bool),
        "oc_video_data_output_set_rotation_angle": ([vp, ctypes.c_int32], c_status),
        "oc_video_data_output_set_mirrored": ([vp, ctypes.c_int], c_status),
        "oc_video_data_output_set_color_range": ([vp, ctypes.c_int], c_status),
        "oc_video_data_output_get_color_range": ([vp], ctypes.c_int),
        "oc_video_data_output_get_stop_status": ([vp], c_status),
        "oc_video_data_output_set_frame_callback": ([vp, FRAME_CALLBACK, vp], c_status),
        "oc_video_data_output_delivered_frames": ([vp], ctypes.c_uint64),
        "oc_video_data_output_dropped_frames": ([vp, ctypes.c_int], ctypes.c_uint64),
        "oc_frame_pixel_format": ([vp], ctypes.c_uint32),
        "oc_frame_width": ([vp], ctypes.c_uint32),
        "oc_frame_height": ([vp], ctypes.c_uint32),
        "oc_frame_sequence": ([vp], ctypes.c_uint64),
        "oc_frame_timestamp_ns": ([vp], ctypes.c_uint64),
        "oc_frame_is_full_range": ([vp], ctypes.c_bool),
        "oc_frame_plane_count": ([vp], ctypes.c_uint32),
        "oc_frame_plane_data": ([vp, ctypes.c_uint32, ctypes.POINTER(sz), ctypes.POINTER(ctypes.c_uint32)],
                                ctypes.POINTER(ctypes.c_uint8)),
        "oc_frame_retain": ([vp], vp),
        "oc_frame_release": ([vp], None),
        "oc_device_copy_controls": ([vp, ctypes.POINTER(vp)], c_status),
        "oc_control_list_count": ([vp], sz),
        "oc_control_list_get": ([vp, sz, ctypes.POINTER(ControlInfo)], c_status),
        "oc_control_list_get_menu_item": ([vp, sz, sz, ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(cp)], c_status),
        "oc_control_list_free": ([vp], None),
        "oc_device_set_control": ([vp, cp, ctypes.c_int64], c_status),
        "oc_device_set_control_string": ([vp, cp, cp], c_status),
        "oc_device_set_control_payload": ([vp, cp, ctypes.c_char_p, sz], c_status),
        "oc_control_list_get_payload": ([vp, sz, ctypes.c_void_p, sz], sz),
        "oc_device_lock_for_configuration": ([vp], c_status),
        "oc_device_unlock_for_configuration": ([vp], c_status),
        "oc_device_get_face_driven": ([vp, ctypes.c_int, ctypes.POINTER(FaceDrivenState)], c_status),
        "oc_device_set_face_driven": ([vp, ctypes.c_int, ctypes.c_bool, ctypes.c_bool], c_status),
        "oc_face_driven_tier_name": ([ctypes.c_int], ctypes.c_char_p),
        "oc_device_get_center_stage": ([vp, ctypes.POINTER(CenterStageState)], c_status),
        "oc_device_set_center_stage": ([vp, ctypes.c_bool], c_status),
        "oc_context_add_disconnected_callback": ([vp, vp, DISCONNECTED_CALLBACK, vp, ctypes.POINTER(c_callback_id)], c_status),
        "oc_discovery_session_create": ([vp, ctypes.c_uint32, ctypes.c_int, ctypes.c_int, ctypes.POINTER(vp)], c_status),
        "oc_discovery_session_copy_devices": ([vp, ctypes.POINTER(vp)], c_status),
        "oc_discovery_session_set_callback": ([vp, DISCOVERY_CALLBACK, vp], c_status),
        "oc_discovery_session_destroy": ([vp], None),
        "oc_context_copy_associated_microphone": ([vp, vp, ctypes.POINTER(vp)], c_status),
        "oc_context_copy_user_preferred_camera": ([vp, ctypes.POINTER(vp)], c_status),
        "oc_context_copy_system_preferred_camera": ([vp, ctypes.POINTER(vp)], c_status),
        "oc_context_set_user_preferred_camera": ([vp, vp], c_status),
        "oc_context_copy_state_problem": ([vp, ctypes.c_char_p, sz], sz),
        "oc_context_copy_backend_problem": ([vp, ctypes.c_int, ctypes.c_char_p, sz], sz),
        "oc_context_add_preferred_camera_callback": ([vp, PREFERRED_CALLBACK, vp, ctypes.POINTER(c_callback_id)], c_status),
        "oc_context_copy_default_microphone": ([vp, ctypes.POINTER(vp)], c_status),
        "oc_context_copy_microphone_route": ([vp, ctypes.POINTER(vp)], c_status),
        "oc_context_copy_preferred_microphone": ([vp, ctypes.POINTER(vp)], c_status),
        "oc_context_set_preferred_microphone": ([vp, vp], c_status),
        "oc_context_add_microphone_route_callback": ([vp, MICROPHONE_ROUTE_CALLBACK, vp, ctypes.POINTER(c_callback_id)], c_status),
        "oc_context_camera_authorization": ([vp], ctypes.c_int),
        "oc_context_uses_camera_portal": ([vp], ctypes.c_bool),
        "oc_camera_authorization_name": ([ctypes.c_int], cp),
        "oc_context_request_camera_access": ([vp, CAMERA_ACCESS_CALLBACK, vp], c_status),
        "oc_device_depth_format_count": ([vp], sz),
        "oc_device_get_depth_format": ([vp, sz, ctypes.POINTER(FormatInfo)], c_status),
        "oc_device_depth_format_runs_beside": ([vp, sz, sz], ctypes.c_bool),
        "oc_depth_data_output_create": ([ctypes.POINTER(vp)], c_status),
        "oc_depth_data_output_destroy": ([vp], None),
        "oc_depth_data_output_set_format": ([vp, ctypes.c_uint32, ctypes.c_uint32, ctypes.c_uint32], c_status),
        "oc_depth_data_output_set_frame_callback": ([vp, FRAME_CALLBACK, vp], c_status),
        "oc_depth_data_output_delivered_frames": ([vp], ctypes.c_uint64),
        "oc_depth_data_output_dropped_frames": ([vp, ctypes.c_int], ctypes.c_uint64),
        "oc_capture_session_add_depth_output": ([vp, vp], c_status),
        "oc_capture_session_remove_depth_output": ([vp, vp], c_status),
        "oc_capture_session_can_add_depth_output": ([vp, vp], ctypes.c_bool),
        "oc_capture_session_get_active_format": ([vp, ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_uint32),
                                                  ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(Fraction)], c_status),
        "oc_capture_session_get_active_depth_format": ([vp, ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_uint32),
                                                        ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(Fraction)], c_status),
        "oc_frame_depth_unit": ([vp], ctypes.c_float),
        "oc_output_synchronizer_create": ([vp, vp, ctypes.POINTER(vp)], c_status),
        "oc_output_synchronizer_create_for_cameras": ([vp, vp, ctypes.POINTER(vp)], c_status),
        "oc_output_synchronizer_destroy": ([vp], None),
        "oc_output_synchronizer_set_callback": ([vp, SYNCHRONIZED_CALLBACK, vp], c_status),
        "oc_output_synchronizer_delivered_pairs": ([vp], ctypes.c_uint64),
        "oc_output_synchronizer_unmatched_frames": ([vp, ctypes.c_int], ctypes.c_uint64),
    }
    for name, (argtypes, restype) in table.items():
        function = getattr(lib, name)
        function.argtypes = argtypes
        function.restype = restype
        if restype is c_status:
            function.errcheck = errcheck_status
    return lib
