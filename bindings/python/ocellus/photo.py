"""Photo output (behaviour §4) for Python: stills from a running session, JPEG with EXIF."""

import ctypes
import weakref
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable, Optional

from . import _native
from ._callbacks import _Closable, _Requests
from ._library import _lib, _string, _text
from .errors import error_for

__all__ = ["PhotoOutput", "Photo"]


@dataclass(frozen=True)
class Photo:
    """A finished photo: JPEG bytes with EXIF."""

    data: bytes
    width: int
    height: int
    orientation: int
    sequence: int
    timestamp_ns: int
    path: Optional[str]


class PhotoOutput(_Closable):
    """Stills from a running session: `capture()` returns a Future resolved with a `Photo`
    (or failed with an OcellusError). JPEG encoding runs on the output's own thread."""

    def __init__(self, rotation_angle: int = 0, mirrored: bool = False):
        handle = ctypes.c_void_p()
        _lib.oc_photo_output_create(ctypes.byref(handle))
        self._handle = handle.value
        self._requests = _Requests()
        self._trampoline = _native.PHOTO_CALLBACK(_photo_completion(self._requests))
        self._finalizer = weakref.finalize(self, _destroy_photo_output, self._handle, self._trampoline)
        self.set_rotation_angle(rotation_angle)
        self.set_mirrored(mirrored)

    def set_rotation_angle(self, degrees: int) -> None:
        """The capture angle (clockwise to upright), written as EXIF Orientation."""
        _lib.oc_photo_output_set_rotation_angle(self._handle, degrees)

    def set_mirrored(self, mirrored: bool) -> None:
        """Whether photos are mirrored (as a front camera's preview), written as EXIF Orientation."""
        _lib.oc_photo_output_set_mirrored(self._handle, mirrored)

    def capture(self, path: Optional[str] = None, apply_rotation_to_pixels: bool = False, quality: int = 0) -> "Future[Photo]":
        """Requests a photo from the next frame; with `path`, the JPEG is also written there."""
        settings = _native.PhotoSettings(ctypes.sizeof(_native.PhotoSettings), apply_rotation_to_pixels, quality,
                                         path.encode() if path else None)
        return self._requests.call(_lib.oc_photo_output_capture, self._handle, ctypes.byref(settings), self._trampoline)


def _destroy_photo_output(handle: Optional[int], _trampoline: Any) -> None:
    _lib.oc_photo_output_destroy(handle)


def _photo_completion(requests: _Requests) -> Callable[..., None]:
    def done(_output: int, status: int, photo: Any, message: Optional[bytes], token: int) -> None:
        future = requests.take(token)
        if future is None:
            return
        if status != 0:
            future.set_exception(error_for(status, _string(message)))
            return
        value = photo.contents
        future.set_result(Photo(ctypes.string_at(value.data, value.size), value.width, value.height, value.orientation,
                                value.sequence, value.timestamp_ns, _text(value.path) if value.path else None))

    return done
