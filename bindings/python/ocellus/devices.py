"""Devices, their formats and controls (header sections "Devices" and "Controls")."""

import ctypes
import enum
import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Callable, Dict, FrozenSet, List, Optional, Tuple, Union

from . import _native
from ._library import _lib, _string, _text
from .errors import InvalidHandle

class DeviceType(enum.IntEnum):
    """What a device is (AVFoundation's device types); `label` is its name in JSON and the CLI."""
    BUILT_IN_CAMERA = 0
    EXTERNAL_CAMERA = 1
    VIRTUAL_CAMERA = 2
    DEPTH_CAMERA = 3
    MICROPHONE = 4

    @property
    def label(self) -> str:
        """The name used in JSON and by the CLI, e.g. "external_camera"."""
        return self.name.lower()


class Position(enum.IntEnum):
    """Which side of the machine a built-in camera faces (UNSPECIFIED for external cameras)."""
    UNSPECIFIED = 0
    FRONT = 1
    BACK = 2


class Backend(enum.IntEnum):
    """Where a device was found: PipeWire, or raw V4L2 when no PipeWire daemon runs."""
    PIPEWIRE = 0
    V4L2 = 1


class MediaType(enum.IntEnum):
    """What a device captures, for filtering discovery sessions (ANY: both)."""
    ANY = 0
    VIDEO = 1
    AUDIO = 2


@dataclass(frozen=True)
class Format:
    """One format a device offers. `frame_rates` are exact fractions, highest first;
    with `frame_rates_are_range` they are the maximum and minimum of a range."""

    pixel_format: str
    width: int
    height: int
    frame_rates: List[Fraction]
    frame_rates_are_range: bool = False
    #: For a range of sizes (a driver's stepwise or continuous sizes): (min_width, min_height,
    #: step_width, step_height); `width` × `height` is then the largest. None for one size.
    size_range: Optional[Tuple[int, int, int, int]] = None


class ControlType(enum.IntEnum):
    """A control's kind, as V4L2 types it (integer, boolean, menu, string, array payloads, …)."""
    INTEGER = 1
    BOOLEAN = 2
    MENU = 3
    BUTTON = 4
    INTEGER64 = 5
    STRING = 7
    BITMASK = 8
    INTEGER_MENU = 9
    U8 = 0x0100
    U16 = 0x0101
    U32 = 0x0102
    AREA = 0x0106
    RECT = 0x0107


@dataclass(frozen=True)
class Control:
    """A camera control as the device describes it, with its value when it was read.
    `menu` maps the values to set to item names; `flags` holds V4L2's flag names as
    v4l2-ctl prints them ("read-only", "inactive", "volatile", "slider", "update", …).
    Strings, arrays and compound values have no `value` but a `payload` (their bytes as
    the driver keeps them; `string` decodes a string's) and arrays their `dimensions`."""

    id: int
    name: str
    type: ControlType
    minimum: int
    maximum: int
    step: int
    default: int
    value: Optional[int]
    flags: FrozenSet[str]
    menu: Dict[int, str]
    payload: Optional[bytes] = None
    dimensions: Tuple[int, ...] = ()

    @property
    def string(self) -> Optional[str]:
        """A string control's value."""
        if self.type != ControlType.STRING or self.payload is None:
            return None
        return self.payload.split(b"\0", 1)[0].decode("utf-8", "replace")


class FaceDrivenAdjustment(enum.IntEnum):
    """What follows the largest face in view (behaviour §4)."""
    EXPOSURE = 0
    FOCUS = 1


class FaceDrivenTier(enum.IntEnum):
    """How a camera is steered by faces: its own region of interest, or Ocellus metering the face."""
    NONE = 0
    CAMERA_REGION = 1
    HOST = 2

    @property
    def label(self) -> str:
        """"none", "roi" or "host", as `ocellus controls --json` writes it."""
        return _string(_lib.oc_face_driven_tier_name(self.value))


@dataclass(frozen=True)
class FaceDrivenState:
    """One face-driven adjustment of a camera: whether Ocellus decides (`automatically_adjusts`),
    whether it may run now (`enabled`), how the camera is steered, and whether it acts now."""

    automatically_adjusts: bool
    enabled: bool
    tier: FaceDrivenTier
    active: bool


@dataclass(frozen=True)
class CenterStageState:
    """A camera's Center Stage: whether the app wants its outputs framed on the faces in view,
    whether a session frames them now, and the window they show (x, y, width, height in 0…1 of
    the camera's picture; the whole picture while not active)."""

    enabled: bool
    active: bool
    window: Tuple[float, float, float, float]


# The library names each V4L2 flag bit as v4l2-ctl does.
_CONTROL_FLAGS = {1 << bit: _lib.oc_control_flag_name(1 << bit).decode() for bit in range(32) if _lib.oc_control_flag_name(1 << bit)}


def _fourcc(code: int) -> str:
    """The one name Ocellus gives a pixel format ("YUYV", "MJPEG", "BGRA", "GRAY8", …), the name it was asked by."""
    buffer = ctypes.create_string_buffer(32)
    _lib.oc_pixel_format_name(code, buffer, len(buffer))
    return buffer.value.decode("ascii")


def pixel_format_code(name: str) -> int:
    """The fourcc for a pixel format by any of its everyday names (NV12, I420, YUYV, UYVY, MJPEG,
    BGRA, RGBA, BGR24, RGB24, GRAY8, …) or a V4L2 code; raises InvalidArgument for an unknown name."""
    code = ctypes.c_uint32()
    _lib.oc_pixel_format_from_name(name.encode(), ctypes.byref(code))
    return code.value


class Device:
    """A camera or microphone. Holds a library reference until garbage-collected.
    Everything but `connected` is fixed for the instance (and `name`, for the
    `microphone` device that follows the route); a replugged device is a new
    `Device` with the same `unique_id`."""

    def __init__(self, handle: int):
        self._handle = _lib.oc_device_retain(handle)
        if not self._handle:
            raise InvalidHandle(_string(_lib.oc_last_error_message()))
        self._finalizer = weakref.finalize(self, _lib.oc_device_release, self._handle)
        self.unique_id: str = _string(_lib.oc_device_unique_id(self._handle))
        self.type = DeviceType(_lib.oc_device_get_type(self._handle))
        self.position = Position(_lib.oc_device_get_position(self._handle))
        self.backend = Backend(_lib.oc_device_get_backend(self._handle))
        self.vendor_id: int = _lib.oc_device_vendor_id(self._handle)
        self.product_id: int = _lib.oc_device_product_id(self._handle)
        self.serial_number: Optional[str] = _text(_lib.oc_device_serial_number(self._handle))
        self.formats: List[Format] = [self._format(i) for i in range(_lib.oc_device_format_count(self._handle))]
        #: A depth camera's depth formats (empty for other cameras); see `depth_formats_beside`.
        self.depth_formats: List[Format] = [self._format(i, _lib.oc_device_get_depth_format)
                                            for i in range(_lib.oc_device_depth_format_count(self._handle))]

    def depth_formats_beside(self, format: Format) -> List[Format]:
        """The depth formats that can stream while the camera runs `format` (one of `formats`):
        all of them when depth has a function of its own; on a depth-only camera, `format` itself."""
        index = self.formats.index(format)
        return [depth for j, depth in enumerate(self.depth_formats)
                if _lib.oc_device_depth_format_runs_beside(self._handle, index, j)]

    def _format(self, index: int, describe: Optional[Callable[..., Any]] = None) -> Format:
        info = _native.FormatInfo(struct_size=ctypes.sizeof(_native.FormatInfo))
        (describe or _lib.oc_device_get_format)(self._handle, index, ctypes.byref(info))
        rates = [Fraction(info.frame_rates[i].numerator, info.frame_rates[i].denominator)
                 for i in range(info.frame_rate_count)]
        size_range = ((info.min_width, info.min_height, info.step_width, info.step_height)
                      if info.sizes_are_range else None)
        return Format(_fourcc(info.pixel_format), info.width, info.height, rates, bool(info.frame_rates_are_range),
                      size_range)

    @property
    def name(self) -> str:
        """The human name; the `microphone` device's is its current input's."""
        return _string(_lib.oc_device_name(self._handle))

    @property
    def connected(self) -> bool:
        """False, for good, once the device has gone away."""
        return bool(_lib.oc_device_is_connected(self._handle))

    @property
    def supports_multitasking(self) -> bool:
        """Whether several applications can stream it at once (PipeWire: yes; raw V4L2: no)."""
        return bool(_lib.oc_device_supports_multitasking(self._handle))

    def property(self, key: str) -> Optional[str]:
        """A backend property such as "device.bus-path" or "object.serial", or None."""
        return _text(_lib.oc_device_get_property(self._handle, key.encode()))

    def controls(self) -> List[Control]:
        """The camera's controls (brightness, focus, exposure, … and whatever the driver has)."""
        listing = ctypes.c_void_p()
        _lib.oc_device_copy_controls(self._handle, ctypes.byref(listing))
        try:
            result = []
            for index in range(_lib.oc_control_list_count(listing)):
                info = _native.ControlInfo(struct_size=ctypes.sizeof(_native.ControlInfo))
                _lib.oc_control_list_get(listing, index, ctypes.byref(info))
                menu: Dict[int, str] = {}
                for item in range(info.menu_count):
                    value, name = ctypes.c_int64(), ctypes.c_char_p()
                    _lib.oc_control_list_get_menu_item(listing, index, item, ctypes.byref(value), ctypes.byref(name))
                    menu[value.value] = _string(name.value)
                flags = frozenset(name for bit, name in _CONTROL_FLAGS.items() if info.flags & bit)
                payload = None
                if info.has_payload:
                    size = _lib.oc_control_list_get_payload(listing, index, None, 0)
                    if size:
                        buffer = ctypes.create_string_buffer(size)
                        _lib.oc_control_list_get_payload(listing, index, buffer, size)
                        payload = buffer.raw
                result.append(Control(info.id, _string(info.name), ControlType(info.type), info.minimum, info.maximum,
                                      info.step, info.default_value, info.value if info.has_value else None, flags, menu,
                                      payload, tuple(info.dimensions[:info.dimension_count])))
            return result
        finally:
            _lib.oc_control_list_free(listing)

    def set_control(self, name: str, value: Union[int, str, bytes, bytearray]) -> None:
        """Sets a control by name: an int, a str for string controls, or bytes laid out as
        `Control.payload` for arrays and compound values. Raises InvalidArgument (out of range, not
        a menu item, a wrong size), WrongState (read-only), Busy (locked by another client) or
        NotFound, with the library's message."""
        if isinstance(value, str):
            _lib.oc_device_set_control_string(self._handle, name.encode(), value.encode())
        elif isinstance(value, (bytes, bytearray)):
            _lib.oc_device_set_control_payload(self._handle, name.encode(), bytes(value), len(value))
        else:
            _lib.oc_device_set_control(self._handle, name.encode(), value)

    def face_driven(self, adjustment: FaceDrivenAdjustment) -> FaceDrivenState:
        """Face-driven exposure or focus of this camera (AVFoundation's isFaceDrivenAutoExposureEnabled)."""
        state = _native.FaceDrivenState(struct_size=ctypes.sizeof(_native.FaceDrivenState))
        _lib.oc_device_get_face_driven(self._handle, int(adjustment), ctypes.byref(state))
        return FaceDrivenState(state.automatically_adjusts, state.enabled, FaceDrivenTier(state.tier), state.active)

    def set_face_driven(self, adjustment: FaceDrivenAdjustment, automatically_adjusts: bool, enabled: bool = True) -> None:
        """Lets Ocellus decide (`automatically_adjusts`), or turns the adjustment on or off (`enabled`)
        for this camera in this context; a running session gives back what it changed when turned off."""
        _lib.oc_device_set_face_driven(self._handle, int(adjustment), automatically_adjusts, enabled)

    def center_stage(self) -> CenterStageState:
        """This camera's Center Stage (AVFoundation's isCenterStageEnabled and isCenterStageActive)."""
        state = _native.CenterStageState(struct_size=ctypes.sizeof(_native.CenterStageState))
        _lib.oc_device_get_center_stage(self._handle, ctypes.byref(state))
        window = state.window
        return CenterStageState(state.enabled, state.active, (window[0], window[1], window[2], window[3]))

    def set_center_stage(self, enabled: bool) -> None:
        """Frames this camera's outputs on the faces in view (or stops, zooming back out), at once,
        for every session of this context that streams it."""
        _lib.oc_device_set_center_stage(self._handle, enabled)

    def lock_for_configuration(self) -> "_ConfigurationLock":
        """Takes the exclusive configuration lock; use as a context manager or call `.unlock()`."""
        _lib.oc_device_lock_for_configuration(self._handle)
        return _ConfigurationLock(self)

    def same_instance(self, other: "Device") -> bool:
        """Whether both objects stand for the same plug-in of the device."""
        return bool(self._handle == other._handle)

    def __repr__(self) -> str:
        state = "" if self.connected else ", disconnected"
        return f"<ocellus.Device {self.unique_id!r} {self.type.label} {self.name!r}{state}>"


class _ConfigurationLock:
    def __init__(self, device: Device):
        self._device = device

    def unlock(self) -> None:
        _lib.oc_device_unlock_for_configuration(self._device._handle)

    def __enter__(self) -> "_ConfigurationLock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.unlock()
