"""Multi-camera sessions (behaviour §4) for Python.

Several cameras stream together, started and stopped as one. `add_camera` returns the
camera's branch, a `CaptureSession` for that camera's outputs; its formats are chosen
beside the cameras added before it, so that the session fits its USB buses together:

    multi = MultiCamSession(ctx)
    for camera in cameras:
        multi.add_camera(camera).add_output(VideoDataOutput())
    print(multi.hardware_cost())
    with multi.running():
        ...
"""

import ctypes
import weakref
from typing import TYPE_CHECKING, Callable, Dict, List, Optional, Set, Tuple, Union

from . import _native
from ._callbacks import Registration, _Closable, register, unregister
from ._library import _lib, _text
from .capture import CaptureSession, HardwareCost, SessionEvent, _Running
from .devices import Device
from .errors import NotFound as NotFoundError

if TYPE_CHECKING:
    from .context import Context

__all__ = ["MultiCamSession"]


class MultiCamSession(_Closable):
    """Several cameras, each with its own outputs through its branch, started and stopped as one.
    Automatic switching stays a single-camera feature: branches neither switch, start nor stop
    on their own."""

    def __init__(self, context: "Context"):
        handle = ctypes.c_void_p()
        _lib.oc_multi_cam_session_create(context._handle_checked(), ctypes.byref(handle))
        self._context = context
        self._handle = handle.value
        self._branches: Dict[str, CaptureSession] = {}
        self._registrations: Set[Registration] = set()
        self._finalizer = weakref.finalize(self, _lib.oc_multi_cam_session_destroy, self._handle)

    def can_add_camera(self, camera: Device) -> bool:
        """Whether `camera` could join: a connected camera with video formats, not in the session."""
        return bool(_lib.oc_multi_cam_session_can_add_camera(self._handle, camera._handle))

    def add_camera(self, camera: Device) -> CaptureSession:
        """Adds `camera` (while stopped) and returns its branch, to which its outputs are added."""
        branch = ctypes.c_void_p()
        _lib.oc_multi_cam_session_add_camera(self._handle, camera._handle, ctypes.byref(branch))
        session = CaptureSession._branch(self._context, branch.value or 0, self)
        self._branches[camera.unique_id] = session
        return session

    def remove_camera(self, camera: Device) -> None:
        """Removes `camera` and its branch (while stopped)."""
        _lib.oc_multi_cam_session_remove_camera(self._handle, camera._handle)
        self._branches.pop(camera.unique_id, None)

    def branch(self, camera: Device) -> Optional[CaptureSession]:
        """The branch of `camera`, if it is in the session."""
        return self._branches.get(camera.unique_id)

    @property
    def cameras(self) -> List[str]:
        """The unique IDs of the session's cameras, in the order they were added (and start)."""
        return list(self._branches)

    def start_running(self) -> None:
        """Starts every camera; when one cannot start, those started are stopped and the error
        (NoResources when it does not fit its bus) starts with its unique ID."""
        _lib.oc_multi_cam_session_start_running(self._handle)

    def stop_running(self) -> None:
        """Stops every camera, returning after their last frame callbacks. Not from a frame callback."""
        _lib.oc_multi_cam_session_stop_running(self._handle)

    @property
    def is_running(self) -> bool:
        """Whether the cameras stream (False after one of them ended on its own)."""
        return bool(_lib.oc_multi_cam_session_is_running(self._handle))

    def running(self) -> "_Running[MultiCamSession]":
        """`with multi.running():` starts every camera and stops them on exit."""
        return _Running(self)

    def hardware_cost(self) -> Optional[HardwareCost]:
        """The most loaded USB bus with every camera of the session on it (`fits`: every bus
        fits); None when no camera is on USB. Each camera's share is its branch's `hardware_cost()`."""
        cost = _native.HardwareCost(struct_size=ctypes.sizeof(_native.HardwareCost))
        try:
            _lib.oc_multi_cam_session_get_hardware_cost(self._handle, ctypes.byref(cost))
        except NotFoundError:
            return None
        return HardwareCost(bool(cost.fits), float(cost.total), float(cost.own), int(cost.others), cost.bus.decode())

    def add_event_callback(self, callback: Callable[[SessionEvent, Optional[str], Optional[str]], None]) -> Registration:
        """Calls `callback(event, camera, message)`: STARTED and STOPPED for the session (camera
        None), RUNTIME_ERROR when a camera's stream ended on its own (every camera stopped), and
        the branches' other events (FORMAT_FALLBACK, INTERRUPTED, …) with the camera's unique ID."""

        def convert(_session: int, event: int, camera: Optional[bytes], _status: int,
                    message: Optional[bytes]) -> Optional[Tuple[SessionEvent, Optional[str], Optional[str]]]:
            if event not in SessionEvent._value2member_map_:
                return None   # a newer library's event this binding does not know yet
            return SessionEvent(event), _text(camera) or None, _text(message) or None

        return register(self, self._handle, _lib.oc_multi_cam_session_add_event_callback,
                        _native.MULTI_CAM_EVENT_CALLBACK, callback, convert)

    def remove_event_callback(self, registration: Union[Registration, int]) -> None:
        """Unregisters a callback (its `Registration`, or the ID it converts to)."""
        unregister(self, registration)

    def _remove_callback(self, callback_id: int) -> None:
        _lib.oc_multi_cam_session_remove_callback(self._handle, callback_id)
