"""Discovery sessions: the devices of some types, kept current (header section "Discovery sessions")."""

import ctypes
import weakref
from typing import Any, Callable, Iterable, List, Optional

from . import _native
from ._library import _lib
from ._callbacks import _Closable, c_callback
from .context import Context, HotplugEvent
from .devices import Device, DeviceType, MediaType, Position

class DiscoverySession(_Closable):
    """A live, filtered view of a context's devices (see `Context.discovery_session`)."""

    def __init__(self, context: Context, device_types: Iterable[DeviceType], media_type: MediaType, position: Position):
        mask = 0
        for device_type in device_types:
            mask |= 1 << int(device_type)
        handle = ctypes.c_void_p()
        _lib.oc_discovery_session_create(context._handle_checked(), mask, int(media_type), int(position),
                                         ctypes.byref(handle))
        self._context = context  # keeps the context alive while the session is
        self._handle = handle.value
        self._trampoline: Any = None
        self._finalizer = weakref.finalize(self, _lib.oc_discovery_session_destroy, self._handle)

    def devices(self) -> List[Device]:
        """The matching devices connected now, in the default selection order."""
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

        new = c_callback(_native.DISCOVERY_CALLBACK, callback,
                         lambda _session, event, device: (HotplugEvent(event), Device(device)))
        _lib.oc_discovery_session_set_callback(self._handle, new, None)
        self._trampoline = new
