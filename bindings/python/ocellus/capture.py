"""Capture sessions and video data outputs (behaviour §4) for Python.

Frames reach an output's callback as `Frame` objects (`frames.py`); photo and movie
outputs are in `photo.py` and `movie.py`, as the header's sections have them.
"""

import ctypes
import enum
import time
import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import (TYPE_CHECKING, Any, AsyncIterator, Callable, Dict, Generic, Iterator, List, Optional, Protocol, Set,
                    Tuple, TypeVar, Union)

from . import _native
from ._callbacks import Registration, _Closable, register, unregister
from ._library import _lib, _text
from .audio import AudioDataOutput, MicrophoneMode, MicrophoneModeState, _microphone_mode
from .devices import Device, _fourcc, pixel_format_code
from .errors import NotFound as NotFoundError, Timeout, WrongState
from .frames import Frame, RetainedFrame, _install_frame_callback
from .movie import MovieFileOutput
from .photo import PhotoOutput

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from .context import Context
    from .depth import DepthDataOutput
    from .metadata import MetadataOutput

__all__ = ["Camera", "open_camera", "CaptureSession", "VideoDataOutput", "SessionEvent", "Preset", "device_supports_preset",
           "BusFit", "HardwareCost", "ConfigurationCheck", "ConfigurationAdjustment"]


class Preset(enum.IntEnum):
    """What the stream aims for when no output pins a size."""

    HIGH = 0
    MEDIUM = 1
    LOW = 2
    PHOTO = 3
    VGA_640X480 = 4
    HD_1280X720 = 5
    HD_1920X1080 = 6
    UHD_3840X2160 = 7
    INPUT_PRIORITY = 8


def device_supports_preset(device: Device, preset: Preset) -> bool:
    """Whether `device` has a format for `preset`."""
    return bool(_lib.oc_device_supports_preset(device._handle, int(preset)))


class SessionEvent(enum.IntEnum):
    """What a session reports through `add_event_callback`: started, stopped, errors, interruptions, switches."""
    STARTED = 0
    STOPPED = 1
    RUNTIME_ERROR = 2
    INTERRUPTED = 3
    INTERRUPTION_ENDED = 4
    #: the `microphone` device's new input could not be opened; no sound until the route moves again
    AUDIO_INTERRUPTED = 5
    #: automatic switching made another camera the input (message: its unique ID)
    INPUT_SWITCHED = 6
    #: automatic switching waits for the recording to end (message: the camera's unique ID)
    SWITCH_DEFERRED = 7
    #: automatic switching could not move (message: unique ID, then why); the input is kept
    SWITCH_FAILED = 8
    #: a recording's encoder cannot keep up: it records every other frame until it catches up
    RECORDING_DEGRADED = 9
    #: the active microphone mode or its engine changed (message: the active mode's name, then why
    #: when it is not the preferred one)
    MICROPHONE_MODE_CHANGED = 10
    #: the camera runs another format than it would on an idle bus, to fit its USB bus, or because
    #: another app streams it in that format (message: "ID runs … instead of …: " and why); see `BusFit`
    FORMAT_FALLBACK = 11


class BusFit(enum.IntEnum):
    """Whether a session may run a format that fits its camera's USB bus instead of the one it
    would choose on an idle bus (MJPEG instead of raw, a lower rate or size), each time saying so
    with a FORMAT_FALLBACK event; also when the kernel refuses a format at stream-on."""
    #: fit, unless an output pins a pixel format the camera sends itself (the default)
    AUTOMATIC = 0
    ON = 1
    #: never: a configuration that does not fit is refused (NoResources)
    OFF = 2


class VideoDataOutput(_Closable):
    """Frames for one consumer. `pixel_format` ("YUYV", "NV12", "MJPEG", …), `width`/`height`
    and `max_frame_rate` pin what it receives; None means the camera's own."""

    def __init__(self, pixel_format: Optional[str] = None, width: Optional[int] = None,
                 height: Optional[int] = None, max_frame_rate: Optional[Fraction] = None):
        handle = ctypes.c_void_p()
        _lib.oc_video_data_output_create(ctypes.byref(handle))
        self._handle = handle.value
        self._finalizer = weakref.finalize(self, _lib.oc_video_data_output_destroy, self._handle)
        self._trampoline = None
        _lib.oc_video_data_output_set_format(self._handle, pixel_format_code(pixel_format) if pixel_format else 0,
                                             width or 0, height or 0)
        if max_frame_rate is not None:
            rate = Fraction(max_frame_rate)
            _lib.oc_video_data_output_set_max_frame_rate(self._handle, _native.Fraction(rate.numerator, rate.denominator))

    def is_rotation_angle_supported(self, degrees: int) -> bool:
        """Whether the output can turn its frames by `degrees` (multiples of 90)."""
        return bool(_lib.oc_video_data_output_is_rotation_angle_supported(self._handle, degrees))

    def set_rotation_angle(self, degrees: int) -> None:
        """Turn the pixels clockwise (costly; prefer rotating the display layer)."""
        _lib.oc_video_data_output_set_rotation_angle(self._handle, degrees)

    def set_mirrored(self, mirrored: Optional[bool]) -> None:
        """Flip the pixels (None: the default, unflipped)."""
        _lib.oc_video_data_output_set_mirrored(self._handle, -1 if mirrored is None else int(mirrored))

    @property
    def full_range(self) -> bool:
        """Whether YUV frames (NV12, I420, YUYV, UYVY) come in full range (0–255) rather than video
        range (luma 16–235, what OpenCV's `COLOR_YUV2BGR_*` codes expect; the default). RGB is always
        full range and GRAY8 full-range luma. Takes effect at the next commit or start."""
        return bool(_lib.oc_video_data_output_get_color_range(self._handle) == 1)

    @full_range.setter
    def full_range(self, full: bool) -> None:
        _lib.oc_video_data_output_set_color_range(self._handle, 1 if full else 0)

    def _raise_stop_error(self) -> None:
        """Raises the error that stopped the session on its own (Disconnected, Timeout, …), if one did."""
        _lib.oc_video_data_output_get_stop_status(self._handle)

    def set_frame_callback(self, callback: Optional[Callable[[Frame], None]]) -> None:
        """Calls `callback(frame)` for each frame, one at a time, on a library thread: the stream's
        while this is the session's only output, else the output's own (a slow callback then holds
        up only this output, whose frames drop as late meanwhile); None clears it."""
        self._trampoline = _install_frame_callback(_lib.oc_video_data_output_set_frame_callback, self._handle, callback)

    def read(self, timeout: Optional[float] = None) -> "RetainedFrame":
        """The newest frame not yet taken, as a frame of its own (`.image` is a NumPy image),
        waiting up to `timeout` seconds (None: until one comes). One frame is kept, never a
        queue: a slow reader gets the latest. Raises Timeout when none came in time, the error
        that stopped the session when it stopped on its own (Disconnected when the camera was
        unplugged, Timeout when it stalled), and WrongState at once when none can come (the
        output is not in a running session)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        handle = ctypes.c_void_p()
        while True:
            # Waits in slices of a second so that Ctrl-C is seen (ctypes releases the GIL meanwhile).
            left = 1.0 if deadline is None else max(0.0, min(1.0, deadline - time.monotonic()))
            try:
                _lib.oc_video_data_output_copy_next_frame(self._handle, int(left * 1000), ctypes.byref(handle))
                return RetainedFrame(handle.value or 0)
            except Timeout:
                if deadline is not None and time.monotonic() >= deadline:
                    # The C call saw only its last slice; say how long the caller waited.
                    raise Timeout(f"VideoDataOutput.read: no frame within {timeout:g} s") from None
            except WrongState:
                self._raise_stop_error()
                raise

    def __iter__(self) -> Iterator["RetainedFrame"]:
        """Every frame as it comes (the newest when the loop body is slow), until the session is
        stopped; a session that stops on its own raises its error (Disconnected, Timeout)."""
        while True:
            try:
                yield self.read()
            except WrongState:
                return

    def fileno(self) -> int:
        """A descriptor readable while a frame waits for `read()` (for selectors and event loops)."""
        fd = ctypes.c_int()
        _lib.oc_video_data_output_get_pollable_fd(self._handle, ctypes.byref(fd))
        return fd.value

    async def _frames(self) -> AsyncIterator["RetainedFrame"]:
        import asyncio

        loop = asyncio.get_running_loop()
        ready = asyncio.Event()
        loop.add_reader(self.fileno(), ready.set)
        try:
            while True:
                await ready.wait()
                ready.clear()
                try:
                    yield self.read(timeout=0)
                except Timeout:
                    continue   # another reader took it
                except WrongState:
                    return
        finally:
            loop.remove_reader(self.fileno())

    def __aiter__(self) -> AsyncIterator["RetainedFrame"]:
        """`async for frame in output`: frames on an asyncio loop, without a thread of its own."""
        return self._frames()

    @property
    def delivered_frames(self) -> int:
        """Frames handed to the callback or to `read()` so far."""
        return int(_lib.oc_video_data_output_delivered_frames(self._handle))

    @property
    def dropped_frames(self) -> Dict[str, int]:
        """Frames dropped so far, by reason: "late", "out_of_buffers", "discontinuity", "corrupt"."""
        reasons = ("late", "out_of_buffers", "discontinuity", "corrupt")
        return {name: int(_lib.oc_video_data_output_dropped_frames(self._handle, index)) for index, name in enumerate(reasons)}


@dataclass(frozen=True)
class HardwareCost:
    """A session's share of its camera's USB bus (behaviour §4): `total` the bus's periodic time
    taken with the session's stream (1.0 is all of it), `own` the stream's part, `others` how many
    interfaces besides the camera reserve time there now (other sessions, other processes), `bus`
    the root hub's name ("usb3"), and whether the stream `fits`."""

    fits: bool
    total: float
    own: float
    others: int
    bus: str


class ConfigurationAdjustment(enum.IntFlag):
    """What a configuration runs differently from what it asks (`ConfigurationCheck.adjusted`)."""

    PIXEL_FORMAT = 1 << 0
    SIZE = 1 << 1
    FRAME_RATE = 1 << 2
    #: Why: to fit the camera's USB bus.
    FOR_BUS = 1 << 3


@dataclass(frozen=True)
class ConfigurationCheck:
    """What a session's configuration runs against what it asks, before anything streams
    (libcamera's validate()): the camera's `pixel_format`, `width`, `height` and `frame_rate`,
    what was `asked` (pixel format, width, height, rate), what was `adjusted`, and `reason`."""

    adjusted: ConfigurationAdjustment
    pixel_format: str
    width: int
    height: int
    frame_rate: Fraction
    asked: Tuple[str, int, int, Fraction]
    reason: str

    @property
    def as_asked(self) -> bool:
        """Whether it runs as asked (nothing `adjusted`)."""
        return not self.adjusted


class CaptureSession(_Closable):
    """A camera, outputs and one stream feeding them. Use `running()` as a context manager
    or `start_running()`/`stop_running()` (not from a frame callback)."""

    def __init__(self, context: "Context"):
        handle = ctypes.c_void_p()
        _lib.oc_capture_session_create(context._handle_checked(), ctypes.byref(handle))
        self._adopt(context, handle.value or 0, owner=None)
        self._finalizer = weakref.finalize(self, _lib.oc_capture_session_destroy, self._handle)

    def _adopt(self, context: "Context", handle: int, owner: Any) -> None:
        self._context = context
        self._handle = handle
        self._owner = owner   # a multi-camera session owning this branch, kept alive by it
        self._outputs: List[Any] = []
        self._registrations: Set[Registration] = set()

    @classmethod
    def _branch(cls, context: "Context", handle: int, owner: Any) -> "CaptureSession":
        """A multi-camera session's branch: the session's handle, destroyed with it (close() does nothing)."""
        branch = cls.__new__(cls)
        branch._adopt(context, handle, owner)
        branch._finalizer = lambda: None
        return branch

    def set_input(self, camera: Device) -> None:
        """The camera the session streams (a `Device` from the context); applies at the next commit or start."""
        _lib.oc_capture_session_set_input(self._handle, camera._handle)

    def set_preset(self, preset: "Preset") -> None:
        """What the stream aims for when no output pins a size (`Preset`)."""
        _lib.oc_capture_session_set_preset(self._handle, int(preset))

    def add_output(self, output: VideoDataOutput) -> None:
        """Adds a video data output (frames to a callback or `read()`)."""
        _lib.oc_capture_session_add_output(self._handle, output._handle)
        self._outputs.append(output)

    def remove_output(self, output: VideoDataOutput) -> None:
        """Removes a video data output; it gets no more frames."""
        _lib.oc_capture_session_remove_output(self._handle, output._handle)
        self._outputs.remove(output)

    def add_depth_output(self, output: "DepthDataOutput") -> None:
        """A `DepthDataOutput`: the input (a depth camera) then streams depth beside its picture."""
        _lib.oc_capture_session_add_depth_output(self._handle, output._handle)
        self._outputs.append(output)

    def remove_depth_output(self, output: "DepthDataOutput") -> None:
        """Removes a depth data output; the camera stops streaming depth when none is left."""
        _lib.oc_capture_session_remove_depth_output(self._handle, output._handle)
        self._outputs.remove(output)

    def can_add_depth_output(self, output: "DepthDataOutput") -> bool:
        """Whether the input can stream depth beside its picture for this output."""
        return bool(_lib.oc_capture_session_can_add_depth_output(self._handle, output._handle))

    @property
    def active_format(self) -> Tuple[str, int, int, Optional[Fraction]]:
        """(pixel_format, width, height, frame_rate) the running session's camera stream runs at."""
        return self._active(_lib.oc_capture_session_get_active_format)

    @property
    def active_depth_format(self) -> Tuple[str, int, int, Optional[Fraction]]:
        """(pixel_format, width, height, frame_rate) the running session's depth outputs get."""
        return self._active(_lib.oc_capture_session_get_active_depth_format)

    def _active(self, get: Callable[..., Any]) -> Tuple[str, int, int, Optional[Fraction]]:
        code, width, height, rate = ctypes.c_uint32(), ctypes.c_uint32(), ctypes.c_uint32(), _native.Fraction()
        get(self._handle, ctypes.byref(code), ctypes.byref(width), ctypes.byref(height), ctypes.byref(rate))
        return (_fourcc(code.value), width.value, height.value,
                Fraction(rate.numerator, rate.denominator) if rate.denominator else None)

    def set_audio_input(self, microphone: Optional[Device]) -> None:
        """The session's microphone (None removes it): heard by audio outputs and recordings."""
        _lib.oc_capture_session_set_audio_input(self._handle, microphone._handle if microphone else None)

    @property
    def preferred_microphone_mode(self) -> MicrophoneMode:
        """The microphone mode the app prefers for the session's sound (STANDARD by default).

        Setting it applies at once, running or not; the engine it needs is loaded then. When it
        cannot be, `microphone_mode.active` says what runs instead and `.reason` why (no error,
        as AVFoundation's preferred mode)."""
        return self.microphone_mode.preferred

    @preferred_microphone_mode.setter
    def preferred_microphone_mode(self, mode: MicrophoneMode) -> None:
        _lib.oc_capture_session_set_preferred_microphone_mode(self._handle, int(mode))

    @property
    def microphone_mode(self) -> MicrophoneModeState:
        """What was preferred, what really runs, the engine doing it and why they differ."""
        return _microphone_mode(self._handle)

    def set_audio_format(self, sample_rate: Optional[int] = None, channels: Optional[int] = None) -> None:
        """The rate and channel count sound is delivered in; None for either: the microphone's own.
        By default 48000 Hz, 2 channels. Applies when the microphone stream next opens. Voice
        isolation runs at 48000 Hz (with the microphone's own rate, a stream wanting it opens so)."""
        _lib.oc_capture_session_set_audio_format(self._handle, sample_rate or 0, channels or 0)

    def add_audio_output(self, output: AudioDataOutput) -> None:
        """Adds an audio data output, fed by the session's microphone (`set_audio_input`)."""
        _lib.oc_capture_session_add_audio_output(self._handle, output._handle)
        self._outputs.append(output)

    def remove_audio_output(self, output: AudioDataOutput) -> None:
        """Removes an audio data output."""
        _lib.oc_capture_session_remove_audio_output(self._handle, output._handle)
        self._outputs.remove(output)

    def add_photo_output(self, output: PhotoOutput) -> None:
        """Adds a photo output; photos come from the running stream."""
        _lib.oc_capture_session_add_photo_output(self._handle, output._handle)
        self._outputs.append(output)

    def remove_photo_output(self, output: PhotoOutput) -> None:
        """Removes a photo output."""
        _lib.oc_capture_session_remove_photo_output(self._handle, output._handle)
        self._outputs.remove(output)

    def add_metadata_output(self, output: "MetadataOutput") -> None:
        """Adds a metadata output; it searches the running stream's frames for faces and codes."""
        _lib.oc_capture_session_add_metadata_output(self._handle, output._handle)
        self._outputs.append(output)

    def remove_metadata_output(self, output: "MetadataOutput") -> None:
        """Removes a metadata output."""
        _lib.oc_capture_session_remove_metadata_output(self._handle, output._handle)
        self._outputs.remove(output)

    def add_movie_file_output(self, output: MovieFileOutput) -> None:
        """Adds a movie file output; it records the camera (and the microphone, when the session has one)."""
        _lib.oc_capture_session_add_movie_file_output(self._handle, output._handle)
        self._outputs.append(output)

    def remove_movie_file_output(self, output: MovieFileOutput) -> None:
        """Removes a movie file output; a recording in progress is finished first."""
        _lib.oc_capture_session_remove_movie_file_output(self._handle, output._handle)
        self._outputs.remove(output)

    def can_add_output(self, output: VideoDataOutput) -> bool:
        """Whether the output could be added now (its pinned format is one the input offers)."""
        return bool(_lib.oc_capture_session_can_add_output(self._handle, output._handle))

    def begin_configuration(self) -> None:
        """Starts a batch of changes that apply together at `commit_configuration()`."""
        _lib.oc_capture_session_begin_configuration(self._handle)

    def commit_configuration(self) -> None:
        """Applies the batched changes together; raises InvalidArgument when the outputs cannot be served."""
        _lib.oc_capture_session_commit_configuration(self._handle)

    def start_running(self) -> None:
        """Starts the stream; raises Busy when another client holds the camera (the session then retries),
        Disconnected, WrongState without an input. Not from a frame callback."""
        _lib.oc_capture_session_start_running(self._handle)

    def stop_running(self) -> None:
        """Stops the stream, returning after the last frame callback has returned. Not from a frame callback."""
        _lib.oc_capture_session_stop_running(self._handle)

    @property
    def is_running(self) -> bool:
        """Whether the stream runs (False after it stopped on its own, e.g. the camera was unplugged)."""
        return bool(_lib.oc_capture_session_is_running(self._handle))

    def hardware_cost(self) -> Optional[HardwareCost]:
        """The share of its USB bus the camera's stream takes with the configuration as it stands,
        beside what the bus carries now (every process's streams); None for a camera not on USB,
        without an input, or when no format serves the outputs. Read it before starting: a
        configuration that does not fit is refused (NoResources) with what would fit."""
        cost = _native.HardwareCost(struct_size=ctypes.sizeof(_native.HardwareCost))
        try:
            _lib.oc_capture_session_get_hardware_cost(self._handle, ctypes.byref(cost))
        except NotFoundError:
            return None
        return HardwareCost(bool(cost.fits), float(cost.total), float(cost.own), int(cost.others), cost.bus.decode())

    def check_configuration(self) -> Optional[ConfigurationCheck]:
        """What the configuration as it stands (inside `configure()`, with the changes not
        committed yet) would run if committed now, and whether that is as asked; None without an
        input. Raises what committing would (NoResources when nothing fits the bus,
        InvalidArgument when no format serves the outputs)."""
        check = _native.ConfigurationCheck(struct_size=ctypes.sizeof(_native.ConfigurationCheck))
        try:
            _lib.oc_capture_session_check_configuration(self._handle, ctypes.byref(check))
        except NotFoundError:
            return None
        return ConfigurationCheck(ConfigurationAdjustment(check.adjusted), _fourcc(check.pixel_format), int(check.width), int(check.height),
                                  Fraction(check.frame_rate.numerator, check.frame_rate.denominator),
                                  (_fourcc(check.asked_pixel_format), int(check.asked_width), int(check.asked_height),
                                   Fraction(check.asked_frame_rate.numerator, check.asked_frame_rate.denominator)),
                                  check.reason.decode("utf-8", "replace"))

    @property
    def bus_fit(self) -> BusFit:
        """Whether formats are chosen to fit the camera's USB bus (`BusFit`; AUTOMATIC by default).
        Setting it applies like other changes; NoResources when, turned OFF, the format no longer fits."""
        return BusFit(_lib.oc_capture_session_get_bus_fit(self._handle))

    @bus_fit.setter
    def bus_fit(self, fit: BusFit) -> None:
        _lib.oc_capture_session_set_bus_fit(self._handle, int(fit))

    @property
    def automatically_switches_camera(self) -> bool:
        """behaviour §4 automatic switching (opt-in): the input follows the context's system preferred
        camera, never while recording (the switch waits for the recording's end)."""
        return bool(_lib.oc_capture_session_automatically_switches_camera(self._handle))

    @automatically_switches_camera.setter
    def automatically_switches_camera(self, enabled: bool) -> None:
        _lib.oc_capture_session_set_automatically_switches_camera(self._handle, bool(enabled))

    @property
    def is_recording(self) -> bool:
        """Whether a movie file output of the session records (until its file is finished)."""
        return bool(_lib.oc_capture_session_is_recording(self._handle))

    def running(self) -> "_Running[CaptureSession]":
        """`with session.running():` starts the stream and stops it on exit."""
        return _Running(self)

    def add_event_callback(self, callback: Callable[[SessionEvent, Optional[str]], None]) -> Registration:
        """Calls `callback(event, message)` for every `SessionEvent` (message: the error, or for
        INPUT_SWITCHED / SWITCH_DEFERRED the camera's unique ID; None when empty)."""

        def convert(_session: int, event: int, _status: int,
                    message: Optional[bytes]) -> Optional[Tuple[SessionEvent, Optional[str]]]:
            if event not in SessionEvent._value2member_map_:
                return None   # a newer library's event this binding does not know yet
            return SessionEvent(event), _text(message) or None

        return register(self, self._handle, _lib.oc_capture_session_add_event_callback,
                        _native.SESSION_EVENT_CALLBACK, callback, convert)

    def remove_event_callback(self, registration: Union[Registration, int]) -> None:
        """Unregisters a callback (its `Registration`, or the ID it converts to)."""
        unregister(self, registration)

    def _remove_callback(self, callback_id: int) -> None:
        _lib.oc_capture_session_remove_callback(self._handle, callback_id)


_SessionT = TypeVar("_SessionT", bound="_Runnable")


class _Runnable(Protocol):
    def start_running(self) -> None: ...

    def stop_running(self) -> None: ...


class _Running(Generic[_SessionT]):
    """What `running()` of a session (or a multi-camera session) returns: starts it on entry, stops it on exit."""

    def __init__(self, session: _SessionT):
        self._session = session

    def __enter__(self) -> _SessionT:
        self._session.start_running()
        return self._session

    def __exit__(self, *exc: object) -> None:
        self._session.stop_running()


class Camera(_Closable):
    """A camera streaming into one output, ready to `read()`: what `open_camera` returns."""

    def __init__(self, context: "Context", device: Device, output: VideoDataOutput, owns_context: bool):
        self.context, self.device, self.output = context, device, output
        self._owns_context = owns_context
        self.session = context.capture_session()
        self.session.set_input(device)
        self.session.add_output(output)
        self.session.start_running()

    def read(self, timeout: Optional[float] = 10.0) -> "NDArray[Any]":
        """The newest picture as a read-only NumPy image (`Frame.image`), waiting up to `timeout` s."""
        return self.output.read(timeout).image

    def __iter__(self) -> Iterator["NDArray[Any]"]:
        """Every picture as it comes (the newest when the loop body is slow), until the camera closes."""
        for frame in self.output:
            yield frame.image

    def close(self) -> None:
        """Stops the stream and releases the session, the output and a context `open_camera` made."""
        self.session.close()
        self.output.close()
        if self._owns_context:
            self.context.close()


def open_camera(pixel_format: Optional[str] = "BGR24", width: Optional[int] = None, height: Optional[int] = None,
                camera: Union[Device, str, None] = None, app_id: Optional[str] = None,
                context: Optional["Context"] = None) -> Camera:
    """A streaming camera in one call: the system preferred camera (or `camera`: a Device, or
    anything `Context.device()` takes — a unique ID, an index, a node, part of a name), its frames as `pixel_format` (OpenCV's BGR24 by default) at `width`x`height`
    (default: the camera's), for the app `app_id` (default: the program's, see `Context`).
    Close it (or use `with`) to stop.

        import ocellus
        with ocellus.open_camera() as camera:
            image = camera.read()   # (height, width, 3) uint8, B G R
    """
    from .context import Context

    owns = context is None
    context = context or Context(app_id)
    try:
        if camera is None:
            device = context.system_preferred_camera
            if device is None:
                raise NotFoundError("no camera is connected" + context.missing_backends_said())
        elif isinstance(camera, str):
            device = context.device(camera)
        else:
            device = camera
        return Camera(context, device, VideoDataOutput(pixel_format, width, height), owns)
    except BaseException:
        if owns:
            context.close()
        raise
