"""Errors from the library: each status code is an `OcellusError` subclass carrying the
library's own message (header section "Status codes and errors")."""

from typing import Optional



class OcellusError(Exception):
    """A failed library call; `status` is the C oc_status, the text is the library's message."""

    status = -99

    def __init__(self, message: str, status: Optional[int] = None):
        super().__init__(message)
        if status is not None:
            self.status = status


class InvalidArgument(OcellusError, ValueError):
    """An argument the library refused (out of range, malformed, NULL where a value is needed)."""
    status = -1


class InvalidHandle(OcellusError):
    """The object was closed (or its device went away for good)."""
    status = -2


class BackendUnavailable(OcellusError, ConnectionError):
    """PipeWire (or the portal, the sensor proxy) could not be reached."""
    status = -3


class NotFound(OcellusError, LookupError):
    """No device, control or callback with that name or ID."""
    status = -4


class WrongState(OcellusError):
    """The call does not fit the object's state (not running, already recording, inside a callback, …)."""
    status = -5


class Timeout(OcellusError, TimeoutError):
    """Nothing came in time (a frame, a camera that stalled, a daemon that did not answer)."""
    status = -6


class NoResources(OcellusError):
    """Memory, buffers or bandwidth ran out."""
    status = -7


class Busy(OcellusError):
    """The device is in use by another client, or another client holds its configuration lock."""
    status = -8


class Disconnected(OcellusError):
    """The device was unplugged (or its stream closed under it)."""
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


def error_for(status: int, message: str) -> OcellusError:
    """The exception for a status code the library returned."""
    return _ERRORS.get(status, OcellusError)(message, status)
