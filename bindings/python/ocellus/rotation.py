"""The rotation coordinator (header section "Rotation coordinator")."""

import ctypes
import weakref
from typing import Callable, Optional

from . import _native
from ._library import _lib
from ._callbacks import _Closable, _report_callback_exception
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
