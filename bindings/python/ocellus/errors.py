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


def error_for(status: int, message: str) -> OcellusError:
    """The exception for a status code the library returned."""
    return _ERRORS.get(status, OcellusError)(message, status)
