"""Ocellus for Python: cameras and microphones on Linux, through libocellus.

    import ocellus
    with ocellus.Context("org.example.App") as ctx:
        for device in ctx.devices():
            print(device.unique_id, device.type, device.name)

Errors from the library raise `OcellusError` subclasses carrying the library's
own message. Callbacks run on a library thread; an exception raised in one is
reported through `sys.unraisablehook` (it cannot propagate into C) and later
callbacks still run.
"""

import ctypes
import enum
import sys
import types
import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import Callable, List, Optional, Tuple

from . import _native

#: The binding's version: the C header's it was written against (the library's own is `version()`).
__version__ = "0.3.0"

__all__ = [
    "Context", "CameraAuthorization", "Device", "Format", "DeviceType", "Position", "Backend", "HotplugEvent", "Registration",
    "PreferredCamera", "MediaType", "DiscoverySession", "Control", "ControlType",
    "OcellusError", "InvalidArgument", "InvalidHandle", "BackendUnavailable", "NotFound", "WrongState",
    "Timeout", "NoResources", "Busy", "Disconnected", "IOFailure", "LibraryUnavailable", "PermissionDenied", "version", "pixel_format_code", "__version__",
]


class OcellusError(Exception):
    """A failed library call; `status` is the C oc_status, the text is the library's message."""

    status = -99

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        if status is not None:
            self.status = status


class InvalidArgument(OcellusError, ValueError):
    status = -1


class InvalidHandle(OcellusError):
    status = -2


class BackendUnavailable(OcellusError, ConnectionError):
    status = -3


class NotFound(OcellusError, LookupError):
    status = -4


class WrongState(OcellusError):
    status = -5


class Timeout(OcellusError, TimeoutError):
    status = -6


class NoResources(OcellusError):
    status = -7


class Busy(OcellusError):
    """The device is in use by another client, or another client holds its configuration lock."""
    status = -8


class Disconnected(OcellusError):
    status = -9


class IOFailure(OcellusError):
    """Reading or writing a file failed (unwritable path, disk full), or data was corrupt."""
    status = -10


class LibraryUnavailable(OcellusError):
    """An optional library Ocellus loads on first use (FFmpeg, for movies and H.264) is not installed."""
    status = -11


class PermissionDenied(OcellusError, PermissionError):
    """The app may not use the camera: the camera portal or the user refused, or the system's
    permissions keep it from the device (the message says which, and what to do)."""
    status = -12


_ERRORS = {cls.status: cls for cls in (InvalidArgument, InvalidHandle, BackendUnavailable, NotFound,
                                       WrongState, Timeout, NoResources, Busy, Disconnected, IOFailure,
                                       LibraryUnavailable, PermissionDenied)}


def _check(status, function, arguments):
    if status < 0:
        message = _lib.oc_last_error_message().decode("utf-8", "replace")
        raise _ERRORS.get(status, OcellusError)(message, status)
    return status


_lib = _native.declare(_native.load_library(), _check)


def _text(raw: Optional[bytes]) -> Optional[str]:
    return None if raw is None else raw.decode("utf-8", "replace")


def version() -> str:
    """The version of the loaded library."""
    return _text(_lib.oc_version())


class DeviceType(enum.IntEnum):
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
    UNSPECIFIED = 0
    FRONT = 1
    BACK = 2


class Backend(enum.IntEnum):
    PIPEWIRE = 0
    V4L2 = 1


class HotplugEvent(enum.IntEnum):
    ADDED = 0
    REMOVED = 1


class PreferredCamera(enum.IntEnum):
    """Which preferred camera changed."""

    USER = 0
    SYSTEM = 1


class MediaType(enum.IntEnum):
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
    flags: frozenset
    menu: dict
    payload: Optional[bytes] = None
    dimensions: tuple = ()

    @property
    def string(self) -> Optional[str]:
        """A string control's value."""
        if self.type != ControlType.STRING or self.payload is None:
            return None
        return self.payload.split(b"\0", 1)[0].decode("utf-8", "replace")


# The library names each V4L2 flag bit as v4l2-ctl does.
_CONTROL_FLAGS = {1 << bit: _lib.oc_control_flag_name(1 << bit).decode() for bit in range(32) if _lib.oc_control_flag_name(1 << bit)}


def _fourcc(code: int) -> str:
    """The one name Ocellus gives a pixel format ("YUYV", "MJPG", "I420", …)."""
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
            raise InvalidHandle(_text(_lib.oc_last_error_message()))
        self._finalizer = weakref.finalize(self, _lib.oc_device_release, self._handle)
        self.unique_id: str = _text(_lib.oc_device_unique_id(self._handle))
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

    def _format(self, index: int, describe=None) -> Format:
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
        return _text(_lib.oc_device_name(self._handle))

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
                menu = {}
                for item in range(info.menu_count):
                    value, name = ctypes.c_int64(), ctypes.c_char_p()
                    _lib.oc_control_list_get_menu_item(listing, index, item, ctypes.byref(value), ctypes.byref(name))
                    menu[value.value] = _text(name.value)
                flags = frozenset(name for bit, name in _CONTROL_FLAGS.items() if info.flags & bit)
                payload = None
                if info.has_payload:
                    size = _lib.oc_control_list_get_payload(listing, index, None, 0)
                    if size:
                        buffer = ctypes.create_string_buffer(size)
                        _lib.oc_control_list_get_payload(listing, index, buffer, size)
                        payload = buffer.raw
                result.append(Control(info.id, _text(info.name), ControlType(info.type), info.minimum, info.maximum,
                                      info.step, info.default_value, info.value if info.has_value else None, flags, menu,
                                      payload, tuple(info.dimensions[:info.dimension_count])))
            return result
        finally:
            _lib.oc_control_list_free(listing)

    def set_control(self, name: str, value) -> None:
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

    def lock_for_configuration(self) -> "_ConfigurationLock":
        """Takes the exclusive configuration lock; use as a context manager or call `.unlock()`."""
        _lib.oc_device_lock_for_configuration(self._handle)
        return _ConfigurationLock(self)

    def same_instance(self, other: "Device") -> bool:
        """Whether both objects stand for the same plug-in of the device."""
        return self._handle == other._handle

    def __repr__(self) -> str:
        state = "" if self.connected else ", disconnected"
        return f"<ocellus.Device {self.unique_id!r} {self.type.label} {self.name!r}{state}>"


class _ConfigurationLock:
    def __init__(self, device: Device):
        self._device = device

    def unlock(self) -> None:
        _lib.oc_device_unlock_for_configuration(self._device._handle)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.unlock()


def _unraisable_hook_args_type():
    """CPython's UnraisableHookArgs, which its default hook insists on (it is not exported):
    taken from one unraisable exception reported to a hook of our own."""
    seen = []
    previous = sys.unraisablehook
    sys.unraisablehook = lambda args: seen.append(type(args))

    class _Raises:
        def __del__(self):
            raise RuntimeError

    try:
        _Raises()
    finally:
        sys.unraisablehook = previous
    return seen[0] if seen else None


_UnraisableHookArgs = _unraisable_hook_args_type()


def _report_callback_exception(callback):
    """Reports the exception being handled to sys.unraisablehook (whatever it is: CPython's
    default prints the traceback): it cannot propagate into C."""
    exc_type, exc, tb = sys.exc_info()
    fields = (exc_type, exc, tb, "Exception ignored in Ocellus callback", callback)
    sys.unraisablehook(_UnraisableHookArgs(fields) if _UnraisableHookArgs else
                       types.SimpleNamespace(exc_type=exc_type, exc_value=exc, exc_traceback=tb,
                                             err_msg=fields[3], object=callback))


class _Closable:
    """`close()` runs the object's finalizer once; usable as a context manager."""

    def close(self) -> None:
        self._finalizer()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Registration:
    """A registered callback; `remove()` (or leaving a `with` block) unregisters it and
    returns only after a call in flight has finished."""

    def __init__(self, context: "Context", callback_id: int, trampoline):
        self._context = context
        self._id = callback_id
        self._trampoline = trampoline  # keeps the C function pointer alive

    def remove(self) -> None:
        if self._id:
            callback_id, self._id = self._id, 0
            self._context._remove_callback(callback_id)
            self._context._registrations.discard(self)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class CameraAuthorization(enum.IntEnum):
    """Whether the app may use cameras (a sandboxed app asks the camera portal)."""
    NOT_DETERMINED = 0
    AUTHORIZED = 1
    DENIED = 2
    RESTRICTED = 3

    @property
    def label(self) -> str:
        """The name in JSON and the CLI: "not_determined", "authorized", "denied", "restricted"."""
        return _text(_lib.oc_camera_authorization_name(int(self)))


class Context:
    """A connection to the system's cameras for one application.

    `app_id`: 1–255 characters from [A-Za-z0-9._-], not starting with '.'.
    `pipewire_remote`: socket name or path (default: $PIPEWIRE_REMOTE, else PipeWire's default).
    Use as a context manager, or call `close()`.
    """

    def __init__(self, app_id: str, pipewire_remote: Optional[str] = None,
                 state_directory: Optional[str] = None, timeout_ms: int = 0):
        options = _native.ContextOptions()
        _lib.oc_context_options_init(ctypes.byref(options))
        options.pipewire_remote = pipewire_remote.encode() if pipewire_remote else None
        options.state_directory = state_directory.encode() if state_directory else None
        options.timeout_ms = timeout_ms
        handle = ctypes.c_void_p()
        _lib.oc_context_create(app_id.encode(), ctypes.byref(options), ctypes.byref(handle))
        self._handle = handle.value
        self._registrations = set()
        self._access_requests = {}
        self._finalizer = weakref.finalize(self, _lib.oc_context_destroy, self._handle)

    @property
    def app_id(self) -> str:
        return _text(_lib.oc_context_app_id(self._handle_checked()))

    @property
    def state_directory(self) -> str:
        """Where this app's state lives (option, $OCELLUS_STATE_DIR, $XDG_STATE_HOME/ocellus, ~/.local/state/ocellus)."""
        return _text(_lib.oc_context_state_directory(self._handle_checked()))

    def _handle_checked(self) -> int:
        if not self._finalizer.alive:
            raise InvalidHandle("the context is closed")
        return self._handle

    def devices(self) -> List[Device]:
        """Connected devices: cameras in the default selection order, then microphones."""
        listing = ctypes.c_void_p()
        _lib.oc_context_copy_devices(self._handle_checked(), ctypes.byref(listing))
        try:
            return [Device(_lib.oc_device_list_get(listing, i)) for i in range(_lib.oc_device_list_count(listing))]
        finally:
            _lib.oc_device_list_free(listing)

    def _register(self, add, c_type, callback, convert, *leading) -> Registration:
        """Registers `callback` through the C function `add`; `convert` maps C arguments to Python ones."""

        def trampoline(*arguments):
            try:
                callback(*convert(*arguments[:-1]))
            except BaseException:  # noqa: B036 - nothing may unwind into C
                _report_callback_exception(callback)

        c_trampoline = c_type(trampoline)
        callback_id = _native.c_callback_id()
        add(self._handle_checked(), *leading, c_trampoline, None, ctypes.byref(callback_id))
        registration = Registration(self, callback_id.value, c_trampoline)
        self._registrations.add(registration)
        return registration

    def add_hotplug_callback(self, callback: Callable[[HotplugEvent, Device], None]) -> Registration:
        """Calls `callback(event, device)` on a library thread when a device appears or goes away."""
        return self._register(_lib.oc_context_add_hotplug_callback, _native.HOTPLUG_CALLBACK, callback,
                              lambda _ctx, event, device: (HotplugEvent(event), Device(device)))

    def add_disconnected_callback(self, device: Device, callback: Callable[[Device], None]) -> Registration:
        """Calls `callback(device)` once, on a library thread, when `device` goes away."""
        return self._register(_lib.oc_context_add_disconnected_callback, _native.DISCONNECTED_CALLBACK, callback,
                              lambda _ctx, gone: (Device(gone),), device._handle)

    def add_preferred_camera_callback(self, callback: Callable[[PreferredCamera, Optional[Device]], None]) -> Registration:
        """Calls `callback(kind, camera)` when the user or system preferred camera changes
        (plug, unplug, a new choice, another process of this app choosing); `camera` is None when none."""
        return self._register(_lib.oc_context_add_preferred_camera_callback, _native.PREFERRED_CALLBACK, callback,
                              lambda _ctx, kind, camera: (PreferredCamera(kind), Device(camera) if camera else None))

    # behaviour §5 microphones

    @property
    def default_microphone(self) -> Optional[Device]:
        """The single `microphone` device (unique ID "microphone"), which follows the current
        input: its name is that input's. A session with it as audio input keeps recording when
        the route moves. None while no microphone is connected."""
        return self._copy_device(_lib.oc_context_copy_default_microphone)

    @property
    def microphone_route(self) -> Optional[Device]:
        """The input the `microphone` device stands for now (one of `devices()`), or None."""
        return self._copy_device(_lib.oc_context_copy_microphone_route)

    @property
    def preferred_microphone(self) -> Optional[Device]:
        """The app's preferred input while it is connected, else None."""
        return self._copy_device(_lib.oc_context_copy_preferred_microphone)

    @preferred_microphone.setter
    def preferred_microphone(self, microphone: Optional[Device]) -> None:
        """Routes the `microphone` device to this input while it is connected (None: the system's choice)."""
        _lib.oc_context_set_preferred_microphone(self._handle_checked(), microphone._handle if microphone else None)

    def add_microphone_route_callback(self, callback: Callable[[Optional[Device]], None]) -> Registration:
        """Calls `callback(input)` on a library thread when the `microphone` device's route moves
        (None: no microphone left)."""
        return self._register(_lib.oc_context_add_microphone_route_callback, _native.MICROPHONE_ROUTE_CALLBACK, callback,
                              lambda _ctx, device: (Device(device) if device else None,))

    def associated_microphone(self, camera: Device) -> Optional[Device]:
        """The camera's own microphone (same USB device) when connected, else None."""
        return self._copy_device(_lib.oc_context_copy_associated_microphone, camera._handle)

    def _copy_device(self, function, *arguments) -> Optional[Device]:
        handle = ctypes.c_void_p()
        function(self._handle_checked(), *arguments, ctypes.byref(handle))
        if not handle.value:
            return None
        device = Device(handle.value)
        _lib.oc_device_release(handle.value)  # Device() took its own reference
        return device

    def device(self, spec: str) -> Device:
        """The device a person means by `spec`: its unique ID, its index in `devices()` ("0"),
        a V4L2 node ("/dev/video2") or a part of its name only one device has ("logitech").
        Raises NotFound, or InvalidArgument for a name part several devices share."""
        return self._copy_device(_lib.oc_context_copy_device_matching, spec.encode())

    def device_by_unique_id(self, unique_id: str) -> Device:
        """The connected device with exactly this unique ID; raises NotFound."""
        return self._copy_device(_lib.oc_context_copy_device_by_unique_id, unique_id.encode())

    @property
    def user_preferred_camera(self) -> Optional[Device]:
        """The app's latest choice still connected, else the camera it last streamed from,
        else the first in the default order; None without cameras."""
        return self._copy_device(_lib.oc_context_copy_user_preferred_camera)

    @user_preferred_camera.setter
    def user_preferred_camera(self, camera: Device) -> None:
        _lib.oc_context_set_user_preferred_camera(self._handle_checked(), camera._handle)

    @property
    def system_preferred_camera(self) -> Optional[Device]:
        """The user preferred camera, unless an external camera was plugged in since the last choice."""
        return self._copy_device(_lib.oc_context_copy_system_preferred_camera)

    def _copy_text(self, function, *arguments) -> Optional[str]:
        size = function(self._handle_checked(), *arguments, None, 0)
        if size == 0:
            return None
        buffer = ctypes.create_string_buffer(size + 1)
        function(self._handle, *arguments, buffer, size + 1)
        return buffer.value.decode("utf-8", "replace")

    @property
    def state_problem(self) -> Optional[str]:
        """Why selection state could not be read or written (it then works in memory), or None."""
        return self._copy_text(_lib.oc_context_copy_state_problem)

    @property
    def camera_authorization(self) -> CameraAuthorization:
        """Whether this app may use cameras now."""
        return CameraAuthorization(_lib.oc_context_camera_authorization(self._handle_checked()))

    @property
    def uses_camera_portal(self) -> bool:
        """True when cameras come through the camera portal (a sandboxed app)."""
        return bool(_lib.oc_context_uses_camera_portal(self._handle_checked()))

    def request_camera_access(self) -> "concurrent.futures.Future":
        """Asks for camera access (the desktop's dialog, in a sandbox): a Future that resolves
        to the `CameraAuthorization`, or raises `PermissionDenied` when refused (and the
        other errors when the portal could not ask). `await ctx.camera_access()` in asyncio."""
        from concurrent.futures import Future

        future: Future = Future()

        def answered(_ctx, authorization, status, message, _user_data):
            try:
                if status == 0:
                    future.set_result(CameraAuthorization(authorization))
                else:
                    future.set_exception(_ERRORS.get(status, OcellusError)(_text(message), status))
            except BaseException:  # noqa: B036 - nothing may unwind into C
                _report_callback_exception(answered)
            finally:
                self._access_requests.pop(id(future), None)

        trampoline = _native.CAMERA_ACCESS_CALLBACK(answered)
        self._access_requests[id(future)] = trampoline   # alive until the one answer
        _lib.oc_context_request_camera_access(self._handle_checked(), trampoline, None)
        return future

    async def camera_access(self) -> CameraAuthorization:
        """`request_camera_access()` as an awaitable."""
        import asyncio

        return await asyncio.wrap_future(self.request_camera_access())

    def backend_problem(self, backend: "Backend") -> Optional[str]:
        """Why a backend is not running (e.g. no PipeWire daemon: the context then uses V4L2 alone), or None."""
        return self._copy_text(_lib.oc_context_copy_backend_problem, int(backend))

    def rotation_coordinator(self, camera: Device, mirrored: Optional[bool] = None) -> "RotationCoordinator":
        """behaviour §3 preview and capture angles for `camera` (mirrored: None for the camera's default)."""
        return RotationCoordinator(self, camera, mirrored)

    def capture_session(self) -> "CaptureSession":
        """A new capture session on this context's cameras."""
        from .capture import CaptureSession
        return CaptureSession(self)

    def discovery_session(self, device_types=(), media_type: MediaType = MediaType.ANY,
                          position: Position = Position.UNSPECIFIED) -> "DiscoverySession":
        """A live view of the devices of the given types (all when empty), media and position."""
        return DiscoverySession(self, device_types, media_type, position)

    def _remove_callback(self, callback_id: int) -> None:
        _lib.oc_context_remove_callback(self._handle_checked(), callback_id)

    def close(self) -> None:
        """Unregisters every callback (waiting for calls in flight) and disconnects. Idempotent."""
        self._registrations.clear()
        self._finalizer()

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class DiscoverySession(_Closable):
    """A live, filtered view of a context's devices (see `Context.discovery_session`)."""

    def __init__(self, context: Context, device_types, media_type: MediaType, position: Position):
        mask = 0
        for device_type in device_types:
            mask |= 1 << int(device_type)
        handle = ctypes.c_void_p()
        _lib.oc_discovery_session_create(context._handle_checked(), mask, int(media_type), int(position),
                                         ctypes.byref(handle))
        self._context = context  # keeps the context alive while the session is
        self._handle = handle.value
        self._trampoline = None
        self._finalizer = weakref.finalize(self, _lib.oc_discovery_session_destroy, self._handle)

    def devices(self) -> List[Device]:
        listing = ctypes.c_void_p()
        _lib.oc_discovery_session_copy_devices(self._handle, ctypes.byref(listing))
        try:
            return [Device(_lib.oc_device_list_get(listing, i)) for i in range(_lib.oc_device_list_count(listing))]
        finally:
            _lib.oc_device_list_free(listing)

    def set_callback(self, callback: Optional[Callable[[HotplugEvent, Device], None]]) -> None:
        """Calls `callback(event, device)` when a matching device is added or removed; None clears it."""
        if callback is None:
            _lib.oc_discovery_session_set_callback(self._handle, _native.DISCOVERY_CALLBACK(), None)
            self._trampoline = None
            return

        def trampoline(_session, event, device, _user_data):
            try:
                callback(HotplugEvent(event), Device(device))
            except BaseException:  # noqa: B036 - nothing may unwind into C
                _report_callback_exception(callback)

        new = _native.DISCOVERY_CALLBACK(trampoline)
        _lib.oc_discovery_session_set_callback(self._handle, new, None)
        self._trampoline = new


from .capture import (AudioDataOutput, Camera, CaptureSession, Frame, MovieFileOutput, Photo, PhotoOutput, Preset,  # noqa: E402
                      Recording, RetainedFrame, SessionEvent, VideoDataOutput, device_supports_preset, open_camera)

__all__ += ["Camera", "open_camera", "CaptureSession", "VideoDataOutput", "AudioDataOutput", "PhotoOutput", "Photo", "MovieFileOutput", "Recording", "Frame", "RetainedFrame", "SessionEvent", "Preset",
            "device_supports_preset"]


class RotationCoordinator(_Closable):
    """Preview and capture angles (clockwise degrees) for one camera; `host_orientation`
    and `interface_orientation` (an angle, or None for a UI that follows the device) are set by the app."""

    def __init__(self, context: Context, camera: Device, mirrored: Optional[bool] = None):
        handle = ctypes.c_void_p()
        _lib.oc_rotation_coordinator_create(context._handle_checked(), camera._handle,
                                            -1 if mirrored is None else int(mirrored), ctypes.byref(handle))
        self._context = context
        self._handle = handle.value
        self._callbacks = {}
        self._finalizer = weakref.finalize(self, _lib.oc_rotation_coordinator_destroy, self._handle)

    @property
    def angles(self):
        """(preview, capture)."""
        preview, capture = ctypes.c_int32(), ctypes.c_int32()
        _lib.oc_rotation_coordinator_get_angles(self._handle, ctypes.byref(preview), ctypes.byref(capture))
        return preview.value, capture.value

    @property
    def mirrored(self) -> bool:
        return bool(_lib.oc_rotation_coordinator_is_mirrored(self._handle))

    def set_host_orientation(self, degrees: int) -> None:
        _lib.oc_rotation_coordinator_set_host_orientation(self._handle, degrees)

    def follow_host_sensor(self, bus_address: Optional[str] = None) -> None:
        """Read H from iio-sensor-proxy (the system bus, or `bus_address`) and keep it current;
        raises BackendUnavailable when no proxy answers."""
        _lib.oc_rotation_coordinator_follow_host_sensor(self._handle, bus_address.encode() if bus_address else None)

    def set_interface_orientation(self, degrees: Optional[int]) -> None:
        _lib.oc_rotation_coordinator_set_interface_orientation(self._handle, -1 if degrees is None else degrees)

    def set_mounting_correction(self, degrees: int) -> None:
        """An external camera's correction, kept for the camera across restarts."""
        _lib.oc_rotation_coordinator_set_mounting_correction(self._handle, degrees)

    def add_callback(self, callback: Callable[[int, int], None]) -> int:
        """Calls `callback(preview, capture)` on a library thread when the angles change; returns an ID."""

        def trampoline(_coordinator, preview, capture, _user_data):
            try:
                callback(preview, capture)
            except BaseException:  # noqa: B036
                _report_callback_exception(callback)

        c_trampoline = _native.ROTATION_CALLBACK(trampoline)
        callback_id = _native.c_callback_id()
        _lib.oc_rotation_coordinator_add_callback(self._handle, c_trampoline, None, ctypes.byref(callback_id))
        self._callbacks[callback_id.value] = c_trampoline
        return callback_id.value

    def remove_callback(self, callback_id: int) -> None:
        _lib.oc_rotation_coordinator_remove_callback(self._handle, callback_id)
        self._callbacks.pop(callback_id, None)


__all__ += ["RotationCoordinator"]

from .depth import DepthDataOutput, OutputSynchronizer  # noqa: E402

__all__ += ["DepthDataOutput", "OutputSynchronizer"]
