"""The context: devices, hotplug, camera selection and access (header sections "Context",
"Hotplug", "Camera selection")."""

import ctypes
import enum
import pathlib
import re
import sys
import weakref
import concurrent.futures
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterable, List, Optional, Set

from . import _native
from ._library import _lib, _string
from ._callbacks import Registration, _report_callback_exception, register
from .devices import Backend, Device, DeviceType, MediaType, Position
from .errors import InvalidHandle, NotFound, error_for

if TYPE_CHECKING:
    from .capture import CaptureSession
    from .discovery import DiscoverySession
    from .multi_cam import MultiCamSession
    from .rotation import RotationCoordinator


class HotplugEvent(enum.IntEnum):
    """Whether a hotplug callback's device was plugged in or went away."""
    ADDED = 0
    REMOVED = 1


class PreferredCamera(enum.IntEnum):
    """Which preferred camera changed."""

    USER = 0
    SYSTEM = 1


class CameraAuthorization(enum.IntEnum):
    """Whether the app may use cameras (a sandboxed app asks the camera portal)."""
    NOT_DETERMINED = 0
    AUTHORIZED = 1
    DENIED = 2
    RESTRICTED = 3

    @property
    def label(self) -> str:
        """The name in JSON and the CLI: "not_determined", "authorized", "denied", "restricted"."""
        return _string(_lib.oc_camera_authorization_name(int(self)))


def program_app_id() -> str:
    """The app ID a program gets when it names none: its script's name ("scanner" for
    scanner.py, a package's name for `python -m package`), else the interpreter's — as PipeWire
    names clients by program, so that two programs never share selection state by accident."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None) or (sys.argv[0] if sys.argv and sys.argv[0] not in ("", "-c", "-m") else "")
    name = pathlib.PurePath(path).stem if path else ""
    if name == "__main__":
        name = pathlib.PurePath(path).parent.name
    if not name:
        name = pathlib.PurePath(sys.executable or "python").name
    return re.sub(r"[^A-Za-z0-9._-]", "_", name).lstrip(".")[:255] or "python"


def _found(device: Optional[Device], spec: str) -> Device:
    """A device the library found (it raises NotFound itself; this only says so to the type checker)."""
    if device is None:
        raise NotFound(f"no device matches {spec!r}")
    return device


class Context:
    """A connection to the system's cameras for one application.

    `app_id`: 1–255 characters from [A-Za-z0-9._-], not starting with '.'; by default the
    program's (`program_app_id()`): give one to keep the app's state across renames.
    `pipewire_remote`: socket name or path (default: $PIPEWIRE_REMOTE, else PipeWire's default).
    Use as a context manager, or call `close()`.
    """

    def __init__(self, app_id: Optional[str] = None, pipewire_remote: Optional[str] = None,
                 state_directory: Optional[str] = None, timeout_ms: int = 0):
        options = _native.ContextOptions()
        _lib.oc_context_options_init(ctypes.byref(options))
        options.pipewire_remote = pipewire_remote.encode() if pipewire_remote else None
        options.state_directory = state_directory.encode() if state_directory else None
        options.timeout_ms = timeout_ms
        handle = ctypes.c_void_p()
        _lib.oc_context_create((app_id if app_id is not None else program_app_id()).encode(), ctypes.byref(options),
                               ctypes.byref(handle))
        self._handle: int = handle.value or 0
        self._registrations: Set[Registration] = set()
        self._access_requests: Dict[int, Any] = {}
        self._finalizer = weakref.finalize(self, _lib.oc_context_destroy, self._handle)

    @property
    def app_id(self) -> str:
        """The app ID state and access are kept under (given, or the program's)."""
        return _string(_lib.oc_context_app_id(self._handle_checked()))

    @property
    def state_directory(self) -> str:
        """Where this app's state lives (option, $OCELLUS_STATE_DIR, $XDG_STATE_HOME/ocellus, ~/.local/state/ocellus)."""
        return _string(_lib.oc_context_state_directory(self._handle_checked()))

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

    def _register(self, add: Callable[..., Any], c_type: Any, callback: Callable[..., Any], convert: Callable[..., Any],
                  *leading: Any) -> Registration:
        """Registers `callback` through the C function `add`; `convert` maps C arguments to Python ones."""
        return register(self, self._handle_checked(), add, c_type, callback, convert, *leading)

    def add_hotplug_callback(self, callback: Callable[[HotplugEvent, Device], None]) -> Registration:
        """Calls `callback(event, device)` on a library thread when a device appears or goes away."""
        return self._register(_lib.oc_context_add_hotplug_callback, _native.HOTPLUG_CALLBACK, callback,
                              lambda _ctx, event, device: (HotplugEvent(event), Device(device)))

    def add_disconnected_callback(self, device: Device, callback: Callable[[Device], None]) -> Registration:
        """Calls `callback(device)` once, on a library thread, when `device` goes away."""
        return self._register(_lib.oc_context_add_disconnected_callback, _native.DEVICE_DISCONNECTED_CALLBACK, callback,
                              lambda _ctx, gone: (Device(gone),), device._handle)

    def add_preferred_camera_callback(self, callback: Callable[[PreferredCamera, Optional[Device]], None]) -> Registration:
        """Calls `callback(kind, camera)` when the user or system preferred camera changes
        (plug, unplug, a new choice, another process of this app choosing); `camera` is None when none."""
        return self._register(_lib.oc_context_add_preferred_camera_callback, _native.PREFERRED_CAMERA_CALLBACK, callback,
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

    def _copy_device(self, function: Callable[..., Any], *arguments: Any) -> Optional[Device]:
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
        return _found(self._copy_device(_lib.oc_context_copy_device_matching, spec.encode()), spec)

    def device_by_unique_id(self, unique_id: str) -> Device:
        """The connected device with exactly this unique ID; raises NotFound."""
        return _found(self._copy_device(_lib.oc_context_copy_device_by_unique_id, unique_id.encode()), unique_id)

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

    def _copy_text(self, function: Callable[..., Any], *arguments: Any) -> Optional[str]:
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

    def request_camera_access(self) -> "concurrent.futures.Future[CameraAuthorization]":
        """Asks for camera access (the desktop's dialog, in a sandbox): a Future that resolves
        to the `CameraAuthorization`, or raises `PermissionDenied` when refused (and the
        other errors when the portal could not ask). `await ctx.camera_access()` in asyncio."""
        from concurrent.futures import Future

        future: "Future[CameraAuthorization]" = Future()

        def answered(_ctx: int, authorization: int, status: int, message: Optional[bytes], _user_data: int) -> None:
            try:
                if status == 0:
                    future.set_result(CameraAuthorization(authorization))
                else:
                    future.set_exception(error_for(status, _string(message)))
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

    def missing_backends_said(self) -> str:
        """"; the pipewire backend is not running: …" per backend that is not, for an error
        that found no device ("" when every backend runs)."""
        from .devices import Backend
        return "".join(f"; the {backend.name.lower()} backend is not running: {problem}"
                       for backend in Backend if (problem := self.backend_problem(backend)))

    def rotation_coordinator(self, camera: Device, mirrored: Optional[bool] = None) -> "RotationCoordinator":
        """behaviour §3 preview and capture angles for `camera` (mirrored: None for the camera's default)."""
        from .rotation import RotationCoordinator
        return RotationCoordinator(self, camera, mirrored)

    def capture_session(self) -> "CaptureSession":
        """A new capture session on this context's cameras."""
        from .capture import CaptureSession
        return CaptureSession(self)

    def multi_cam_session(self) -> "MultiCamSession":
        """A new multi-camera session on this context's cameras."""
        from .multi_cam import MultiCamSession
        return MultiCamSession(self)

    def discovery_session(self, device_types: Iterable["DeviceType"] = (), media_type: MediaType = MediaType.ANY,
                          position: Position = Position.UNSPECIFIED) -> "DiscoverySession":
        """A live view of the devices of the given types (all when empty), media and position."""
        from .discovery import DiscoverySession
        return DiscoverySession(self, device_types, media_type, position)

    def _remove_callback(self, callback_id: int) -> None:
        _lib.oc_context_remove_callback(self._handle_checked(), callback_id)

    def close(self) -> None:
        """Unregisters every callback (waiting for calls in flight) and disconnects. Idempotent."""
        self._registrations.clear()
        self._finalizer()

    def __enter__(self) -> "Context":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
