"""Microphone input, microphone modes and audio data outputs (behaviour §4, §5) for Python."""

import ctypes
import enum
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple

from . import _native
from ._callbacks import _Closable, c_callback
from ._library import _lib, _string

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["AudioDataOutput", "MicrophoneMode", "MicrophoneModeState"]


class MicrophoneMode(enum.IntEnum):
    """What a session does to its microphone's sound (AVFoundation's MicrophoneMode)."""

    #: the signal as PipeWire gives it (the default)
    STANDARD = 0
    #: the untouched signal, bit-exact
    WIDE_SPECTRUM = 1
    #: typing, clicks, fans and traffic suppressed, the voice kept (RNNoise; mono; 28 ms later), and the
    #: echo of what the machine plays cancelled (webrtc-audio-processing)
    VOICE_ISOLATION = 2


@dataclass(frozen=True)
class MicrophoneModeState:
    """A session's microphone mode: preferred, active, the engine doing it ("none" when nothing
    processes) and why the active mode is not the preferred one ("" when it is); in voice
    isolation, the echo canceller removing what the machine plays ("webrtc"; "none" otherwise)
    and why there is none ("" when there is, or in another mode)."""

    preferred: MicrophoneMode
    active: MicrophoneMode
    engine: str
    reason: str
    echo_canceller: str = "none"
    echo_cancellation_reason: str = ""


def _microphone_mode(session_handle: Optional[int]) -> MicrophoneModeState:
    preferred, active = ctypes.c_int(), ctypes.c_int()
    engine, reason = ctypes.create_string_buffer(64), ctypes.create_string_buffer(1024)
    canceller, echo_reason = ctypes.create_string_buffer(64), ctypes.create_string_buffer(1024)
    _lib.oc_capture_session_get_microphone_mode(session_handle, ctypes.byref(preferred), ctypes.byref(active),
                                                engine, len(engine), reason, len(reason))
    _lib.oc_capture_session_get_echo_cancellation(session_handle, canceller, len(canceller), echo_reason, len(echo_reason))
    return MicrophoneModeState(MicrophoneMode(preferred.value), MicrophoneMode(active.value), _string(engine.value),
                               _string(reason.value), _string(canceller.value), _string(echo_reason.value))


class AudioDataOutput(_Closable):
    """PCM from the session's microphone: `callback(samples, timestamp_ns)` with a float32
    NumPy array shaped (frames, channels) viewing the library's buffer (valid during the call)."""

    def __init__(self) -> None:
        handle = ctypes.c_void_p()
        _lib.oc_audio_data_output_create(ctypes.byref(handle))
        self._handle = handle.value
        self._finalizer = weakref.finalize(self, _lib.oc_audio_data_output_destroy, self._handle)
        self._trampoline: Any = None

    def set_callback(self, callback: Optional[Callable[["NDArray[np.float32]", int], None]]) -> None:
        """Calls `callback(samples, timestamp_ns)` for every buffer (None: no more calls)."""
        if callback is None:
            _lib.oc_audio_data_output_set_callback(self._handle, _native.AUDIO_CALLBACK(), None)
            self._trampoline = None
            return
        import numpy as np

        def convert(_output: int, samples: Any, frames: int, channels: int, _rate: int,
                    timestamp_ns: int) -> Tuple["NDArray[np.float32]", int]:
            return np.ctypeslib.as_array(samples, shape=(frames * channels,)).reshape(frames, channels), timestamp_ns

        new = c_callback(_native.AUDIO_CALLBACK, callback, convert)
        _lib.oc_audio_data_output_set_callback(self._handle, new, None)
        self._trampoline = new

    @property
    def delivered_frames(self) -> int:
        """PCM frames delivered so far."""
        return int(_lib.oc_audio_data_output_delivered_frames(self._handle))

    @property
    def dropped_frames(self) -> int:
        """PCM frames that never reached the output: a microphone mode's engine fell a second behind."""
        return int(_lib.oc_audio_data_output_dropped_frames(self._handle))
