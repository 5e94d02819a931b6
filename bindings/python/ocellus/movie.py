"""Movie file output (behaviour §4) for Python: the session's camera (and microphone) into .mp4/.mov."""

import ctypes
import weakref
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Callable, Optional

from . import _native
from ._callbacks import _Closable, _Requests
from ._library import _lib, _string
from .errors import error_for

__all__ = ["MovieFileOutput", "Recording"]


@dataclass(frozen=True)
class Recording:
    """A finished movie file; `error` says why it ended early (the file plays up to then)."""

    path: str
    bytes: int
    width: int
    height: int
    duration: float
    frames: int
    dropped_frames: int
    rotation: int
    video_codec: str
    error: Optional[Exception]
    #: Seconds of sound (0 without a microphone).
    audio_duration: float = 0.0
    #: Sound frames left out (the writer fell two seconds behind, or the microphone changed format).
    dropped_audio_frames: int = 0


class MovieFileOutput(_Closable):
    """Records the session's camera to .mp4/.mov: `start_recording(path)` returns a Future
    resolved with a `Recording` once the file is finished (after `stop_recording()`)."""

    def __init__(self, rotation_angle: int = 0):
        handle = ctypes.c_void_p()
        _lib.oc_movie_file_output_create(ctypes.byref(handle))
        self._handle = handle.value
        self._requests = _Requests()
        self._trampoline = _native.RECORDING_CALLBACK(_recording_completion(self._requests))
        self._finalizer = weakref.finalize(self, _destroy_movie_file_output, self._handle, self._trampoline)
        self.set_rotation_angle(rotation_angle)

    def set_rotation_angle(self, degrees: int) -> None:
        """The capture angle (clockwise to upright) for the next recording's display matrix."""
        _lib.oc_movie_file_output_set_rotation_angle(self._handle, degrees)

    def start_recording(self, path: str) -> "Future[Recording]":
        """Records into `path` (.mp4 or .mov) until `stop_recording()`: the Future resolves with
        the `Recording` once the file is finished (its `error` says why it ended early)."""
        return self._requests.call(_lib.oc_movie_file_output_start_recording, self._handle, path.encode(), self._trampoline)

    def stop_recording(self) -> None:
        """Finishes the recording; its Future resolves once the file is complete."""
        _lib.oc_movie_file_output_stop_recording(self._handle)

    @property
    def is_recording(self) -> bool:
        """Whether a recording is in progress (until its file is finished)."""
        return bool(_lib.oc_movie_file_output_is_recording(self._handle))

    @property
    def recorded_duration(self) -> float:
        """Seconds of video recorded so far in the current recording."""
        return float(_lib.oc_movie_file_output_recorded_duration(self._handle))


def _destroy_movie_file_output(handle: Optional[int], _trampoline: Any) -> None:
    _lib.oc_movie_file_output_destroy(handle)


def _recording_completion(requests: _Requests) -> Callable[..., None]:
    def done(_output: int, status: int, message: Optional[bytes], summary: Any, token: int) -> None:
        future = requests.take(token)
        if future is None:
            return
        value = summary.contents
        error = error_for(status, _string(message)) if status != 0 else None
        future.set_result(Recording(_string(value.path), value.bytes, value.width, value.height, value.duration, value.frames,
                                    value.dropped_frames, value.rotation, _string(value.video_codec), error,
                                    value.audio_duration, value.dropped_audio_frames))

    return done
