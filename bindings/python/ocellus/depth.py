"""Depth data outputs and the output synchronizer (behaviour §4, depth) for Python.

A depth map reaches its callback as a `Frame` whose `depth` is a NumPy (h, w) array
viewing the camera's buffer (uint16 in `frame.depth_unit` metres, or float32 metres
when the output asks for "Z32F"). An `OutputSynchronizer` hands a video frame and the
depth map of the same instant to one callback as a tuple.
"""

import ctypes
import weakref
from typing import Callable, Dict, Optional, Tuple, Union

from . import _native
from ._callbacks import _Closable, c_callback
from ._library import _lib
from .devices import pixel_format_code
from .capture import VideoDataOutput
from .frames import Frame, _install_frame_callback

__all__ = ["DepthDataOutput", "OutputSynchronizer"]

_DROP_REASONS = ("late", "out_of_buffers", "discontinuity", "corrupt")


class DepthDataOutput(_Closable):
    """Depth maps for one consumer. `pixel_format`: None for the camera's (Z16, Y16, Y12),
    "Z32F" for float32 metres; `width`/`height` pin a size the camera offers (depth is
    never scaled); None lets the session pick the one beside the picture."""

    def __init__(self, pixel_format: Optional[str] = None, width: Optional[int] = None, height: Optional[int] = None):
        handle = ctypes.c_void_p()
        _lib.oc_depth_data_output_create(ctypes.byref(handle))
        self._handle = handle.value
        self._finalizer = weakref.finalize(self, _lib.oc_depth_data_output_destroy, self._handle)
        self._trampoline = None
        _lib.oc_depth_data_output_set_format(self._handle, pixel_format_code(pixel_format) if pixel_format else 0,
                                             width or 0, height or 0)

    def set_frame_callback(self, callback: Optional[Callable[[Frame], None]]) -> None:
        """Calls `callback(frame)` on the depth stream's thread for each map; None clears it."""
        self._trampoline = _install_frame_callback(_lib.oc_depth_data_output_set_frame_callback, self._handle, callback)

    @property
    def delivered_frames(self) -> int:
        """Depth maps handed to the callback so far."""
        return int(_lib.oc_depth_data_output_delivered_frames(self._handle))

    @property
    def dropped_frames(self) -> Dict[str, int]:
        """Maps dropped so far, by reason: "late", "out_of_buffers", "discontinuity", "corrupt"."""
        return {name: int(_lib.oc_depth_data_output_dropped_frames(self._handle, index)) for index, name in enumerate(_DROP_REASONS)}


class OutputSynchronizer(_Closable):
    """Pairs `video`'s frames with `depth`'s maps captured at the same instant — or, given a
    second VideoDataOutput, the frames of two cameras (each in its own session) by the
    kernel's capture time; while it lives, the outputs' own callbacks are not called.
    `callback((frame, partner))` runs on a stream thread with views valid during the call."""

    def __init__(self, video: VideoDataOutput, depth: Union[DepthDataOutput, VideoDataOutput]):
        handle = ctypes.c_void_p()
        self._cameras = isinstance(depth, VideoDataOutput)
        create = _lib.oc_output_synchronizer_create_for_cameras if self._cameras else _lib.oc_output_synchronizer_create
        create(video._handle, depth._handle, ctypes.byref(handle))
        self._handle = handle.value
        self._outputs = (video, depth)   # the outputs outlive the synchronizer
        self._trampoline = None
        self._finalizer = weakref.finalize(self, _lib.oc_output_synchronizer_destroy, self._handle)

    def set_callback(self, callback: Optional[Callable[[Tuple[Frame, Frame]], None]]) -> None:
        """Calls `callback((frame, depth_map))` for each pair; None clears it."""
        if callback is None:
            _lib.oc_output_synchronizer_set_callback(self._handle, _native.SYNCHRONIZED_CALLBACK(), None)
            self._trampoline = None
            return

        new = c_callback(_native.SYNCHRONIZED_CALLBACK, callback,
                         lambda _synchronizer, video, depth: ((Frame(video), Frame(depth)),))
        _lib.oc_output_synchronizer_set_callback(self._handle, new, None)
        self._trampoline = new

    @property
    def delivered_pairs(self) -> int:
        """Pairs handed to the callback so far."""
        return int(_lib.oc_output_synchronizer_delivered_pairs(self._handle))

    @property
    def unmatched_frames(self) -> Dict[str, int]:
        """Frames that found no partner: {"video": n, "depth": n}, or for two cameras {"first": n, "second": n}."""
        return {name: int(_lib.oc_output_synchronizer_unmatched_frames(self._handle, index))
                for index, name in enumerate(("first", "second") if self._cameras else ("video", "depth"))}
