"""Metadata outputs (behaviour §4): faces and machine-readable codes seen in a session's frames.

`MetadataOutput(MetadataObjectType.FACE | MetadataObjectType.CODE)` joins a session with
`session.add_metadata_output(output)`; its callback gets `(objects, timestamp_ns)` for each
analysed frame that held objects, and once `([], timestamp_ns)` when they have all gone. Bounds
are (x, y, width, height) in 0...1 of the delivered picture, x and y its top-left corner.
"""

import ctypes
import enum
import weakref
from dataclasses import dataclass
from typing import Any, Callable, List, Optional, Tuple

from . import _native
from ._callbacks import _Closable, c_callback
from ._library import _lib

__all__ = ["MetadataObjectType", "MetadataObject", "MetadataStatistics", "MetadataOutput"]


class MetadataObjectType(enum.IntFlag):
    """What a metadata output looks for (OC_METADATA_OBJECT_*)."""

    FACE = 1 << 0
    CODE = 1 << 1


@dataclass(frozen=True)
class MetadataObject:
    """One object seen in a frame: `type` "face" (with `face_id`, stable while the face stays in
    view) or "code" (with `symbology`, e.g. "qr", its `text` and its bytes as `data`)."""

    type: str
    bounds: Tuple[float, float, float, float]
    confidence: float
    face_id: Optional[int] = None
    symbology: Optional[str] = None
    text: Optional[str] = None
    data: Optional[bytes] = None


@dataclass(frozen=True)
class MetadataStatistics:
    """A metadata output's counts: deliveries made and the objects in them, frames analysed,
    frames dropped because the last was still being searched, frames that could not be decoded."""

    deliveries: int
    objects: int
    analysed_frames: int
    dropped_frames: int
    corrupt_frames: int


def _object(view: Any) -> MetadataObject:
    bounds = (float(view.x), float(view.y), float(view.width), float(view.height))
    if view.type == MetadataObjectType.FACE:
        return MetadataObject("face", bounds, float(view.confidence), face_id=int(view.face_id))
    return MetadataObject("code", bounds, float(view.confidence), symbology=view.symbology.decode(),
                          text=view.text.decode("utf-8", "replace"), data=ctypes.string_at(view.bytes, view.byte_count))


class MetadataOutput(_Closable):
    """Faces (OpenCV) and codes (zxing-cpp) in a session's frames, searched on the output's own
    thread at most `max_rate` frames a second. `face_model` names a cascade (.xml) or a YuNet
    model (.onnx); None for the system's. Raises LibraryUnavailable naming what is missing."""

    def __init__(self, types: MetadataObjectType = MetadataObjectType.FACE, face_model: Optional[str] = None,
                 rotation_angle: int = 0, mirrored: bool = False, max_rate: Optional[float] = None):
        handle = ctypes.c_void_p()
        _lib.oc_metadata_output_create(int(types), face_model.encode() if face_model else None, ctypes.byref(handle))
        self._handle = handle.value
        self._finalizer = weakref.finalize(self, _lib.oc_metadata_output_destroy, self._handle)
        self._trampoline: Any = None
        self.set_rotation_angle(rotation_angle)
        self.set_mirrored(mirrored)
        if max_rate is not None:
            self.set_max_rate(max_rate)

    def set_callback(self, callback: Optional[Callable[[List[MetadataObject], int], None]]) -> None:
        """Calls `callback(objects, timestamp_ns)` on the output's thread (None: no more calls)."""
        if callback is None:
            _lib.oc_metadata_output_set_callback(self._handle, _native.METADATA_CALLBACK(), None)
            self._trampoline = None
            return

        def convert(_output: int, timestamp_ns: int, objects: Any, count: int) -> Tuple[List[MetadataObject], int]:
            return [_object(objects[index]) for index in range(count)], int(timestamp_ns)

        new = c_callback(_native.METADATA_CALLBACK, callback, convert)
        _lib.oc_metadata_output_set_callback(self._handle, new, None)
        self._trampoline = new

    def set_rotation_angle(self, degrees: int) -> None:
        """The clockwise angle of the delivered picture (the rotation coordinator's): bounds are in it."""
        _lib.oc_metadata_output_set_rotation_angle(self._handle, degrees)

    def set_mirrored(self, mirrored: bool) -> None:
        """Whether the delivered picture is mirrored (after rotation), as a front camera's preview."""
        _lib.oc_metadata_output_set_mirrored(self._handle, mirrored)

    def set_max_rate(self, per_second: float) -> None:
        """Frames analysed per second at most (default 10; 0.1 to 120)."""
        _lib.oc_metadata_output_set_max_rate(self._handle, per_second)

    @property
    def statistics(self) -> MetadataStatistics:
        """The output's counts so far."""
        counts = _native.MetadataStatistics(ctypes.sizeof(_native.MetadataStatistics))
        _lib.oc_metadata_output_get_statistics(self._handle, ctypes.byref(counts))
        return MetadataStatistics(int(counts.deliveries), int(counts.objects), int(counts.analysed_frames),
                                  int(counts.dropped_frames), int(counts.corrupt_frames))
