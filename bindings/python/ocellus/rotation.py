"""The rotation coordinator (header section "Rotation coordinator")."""

import ctypes
import weakref
from typing import Callable, Optional, Set, Tuple, Union

from . import _native
from ._library import _lib
from ._callbacks import Registration, _Closable, register, unregister
from .context import Context
from .devices import Device

class RotationCoordinator(_Closable):
    """Preview and capture angles (clockwise degrees) for one camera; `host_orientation`
    and `interface_orientation` (an angle, or None for a UI that follows the device) are set by the app."""

    def __init__(self, context: Context, camera: Device, mirrored: Optional[bool] = None):
        handle = ctypes.c_void_p()
        _lib.oc_rotation_coordinator_create(context._handle_checked(), camera._handle,
                                            -1 if mirrored is None else int(mirrored), ctypes.byref(handle))
        self._context = context
        self._handle = handle.value
        self._registrations: Set[Registration] = set()
        self._finalizer = weakref.finalize(self, _lib.oc_rotation_coordinator_destroy, self._handle)

    @property
    def angles(self) -> Tuple[int, int]:
        """(preview, capture)."""
        preview, capture = ctypes.c_int32(), ctypes.c_int32()
        _lib.oc_rotation_coordinator_get_angles(self._handle, ctypes.byref(preview), ctypes.byref(capture))
        return preview.value, capture.value

    @property
    def mirrored(self) -> bool:
        """Whether the preview is mirrored (the front camera's default)."""
        return bool(_lib.oc_rotation_coordinator_is_mirrored(self._handle))

    def set_host_orientation(self, degrees: int) -> None:
        """The machine's orientation H (0, 90, 180, 270 clockwise from its natural one), set by the app."""
        _lib.oc_rotation_coordinator_set_host_orientation(self._handle, degrees)

    def follow_host_sensor(self, bus_address: Optional[str] = None) -> None:
        """Read H from iio-sensor-proxy (the system bus, or `bus_address`) and keep it current;
        raises BackendUnavailable when no proxy answers."""
        _lib.oc_rotation_coordinator_follow_host_sensor(self._handle, bus_address.encode() if bus_address else None)

    def set_interface_orientation(self, degrees: Optional[int]) -> None:
        """The app's UI orientation (an angle), or None for a UI that follows the device."""
        _lib.oc_rotation_coordinator_set_interface_orientation(self._handle, -1 if degrees is None else degrees)

    def set_mounting_correction(self, degrees: int) -> None:
        """An external camera's correction, kept for the camera across restarts."""
        _lib.oc_rotation_coordinator_set_mounting_correction(self._handle, degrees)

    def add_callback(self, callback: Callable[[int, int], None]) -> Registration:
        """Calls `callback(preview, capture)` on a library thread when the angles change."""
        return register(self, self._handle, _lib.oc_rotation_coordinator_add_callback, _native.ROTATION_CALLBACK,
                        callback, lambda _coordinator, preview, capture: (preview, capture))

    def remove_callback(self, registration: Union[Registration, int]) -> None:
        """Unregisters a callback (its `Registration`, or the ID it converts to)."""
        unregister(self, registration)

    def _remove_callback(self, callback_id: int) -> None:
        _lib.oc_rotation_coordinator_remove_callback(self._handle, callback_id)
