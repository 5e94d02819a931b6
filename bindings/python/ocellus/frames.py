"""Frames for Python: a frame during its callback (`Frame`), whose `planes` are NumPy arrays
viewing the camera's buffer without a copy, valid only during the callback; `frame.retain()`
returns a `RetainedFrame` that owns a copy and stays valid."""

import ctypes
import weakref
from typing import TYPE_CHECKING, Any, Callable, List, Optional

from . import _native
from ._callbacks import c_callback
from ._library import _lib, _string, _text
from .devices import _fourcc
from .errors import WrongState

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

__all__ = ["Frame", "RetainedFrame"]


class Frame:
    """A frame during its callback: properties and NumPy views of its planes."""

    def __init__(self, handle: int):
        self._handle = handle

    @property
    def width(self) -> int:
        """Width in pixels."""
        return int(_lib.oc_frame_width(self._handle))

    @property
    def height(self) -> int:
        """Height in pixels."""
        return int(_lib.oc_frame_height(self._handle))

    @property
    def pixel_format(self) -> str:
        """The pixel format's name ("NV12", "YUYV", "MJPEG", "BGRA", …)."""
        return _fourcc(_lib.oc_frame_pixel_format(self._handle))

    @property
    def sequence(self) -> int:
        """The frame's number in its stream (gaps are frames dropped before Ocellus saw them)."""
        return int(_lib.oc_frame_sequence(self._handle))

    @property
    def timestamp_ns(self) -> int:
        """CLOCK_MONOTONIC nanoseconds of the capture."""
        return int(_lib.oc_frame_timestamp_ns(self._handle))

    @property
    def full_range(self) -> bool:
        """True for full-range samples (0-255, decoded JPEG), False for limited (16-235)."""
        return bool(_lib.oc_frame_is_full_range(self._handle))

    @property
    def planes(self) -> List["NDArray[np.uint8]"]:
        """One uint8 array per plane, shaped (rows, stride): no copy."""
        import numpy as np

        count = _lib.oc_frame_plane_count(self._handle)
        if count == 0:
            raise WrongState(_text(_lib.oc_last_error_message()) or "the frame is no longer valid")
        result: List["NDArray[np.uint8]"] = []
        for index in range(count):
            size, stride = ctypes.c_size_t(), ctypes.c_uint32()
            data = _lib.oc_frame_plane_data(self._handle, index, ctypes.byref(size), ctypes.byref(stride))
            if not data:
                raise WrongState(_string(_lib.oc_last_error_message()))
            # The array's memory keeps this frame (and so a retained frame's copy) alive.
            memory: Any = (ctypes.c_uint8 * size.value).from_address(ctypes.addressof(data.contents))
            memory._frame = self
            flat = np.frombuffer(memory, dtype=np.uint8)
            rows = size.value // stride.value if stride.value else 1
            result.append(flat[: rows * stride.value].reshape(rows, stride.value) if stride.value else flat)
        return result

    @property
    def depth_unit(self) -> float:
        """Metres per unit of a depth map's samples (0.001: millimetres, unless the camera says
        otherwise; 1.0 for float metres); 0.0 for a picture."""
        return float(_lib.oc_frame_depth_unit(self._handle))

    @property
    def depth(self) -> "NDArray[Any]":
        """A depth map as a read-only NumPy array shaped (height, width), without a copy:
        uint16 in `depth_unit` metres (Z16, Y16, Y12; 0 where the camera measured nothing),
        or float32 metres ("Z32F"). Valid during the callback, like `planes`."""
        import numpy as np

        name = self.pixel_format
        if name not in ("Z16", "Y16", "Y12", "Z32F"):
            raise ValueError(f"a {name} frame is not a depth map")
        plane = self.planes[0]
        dtype: "np.dtype[Any]" = np.dtype(np.float32) if name == "Z32F" else np.dtype("<u2")
        width, height, stride = self.width, self.height, plane.shape[1]
        array = np.lib.stride_tricks.as_strided(plane.reshape(-1).view(dtype), shape=(height, width),
                                                strides=(stride, 4 if name == "Z32F" else 2))
        array = array.view()
        array.flags.writeable = False
        return array

    #: bytes per pixel of the packed formats `image` shapes as (height, width, channels)
    _PACKED = {"YUYV": 2, "UYVY": 2, "BGRA": 4, "RGBA": 4, "BGRX": 4, "BGR24": 3, "RGB24": 3}

    @property
    def image(self) -> "NDArray[Any]":
        """The frame as one read-only NumPy array shaped as OpenCV expects: (h, w, 2) for
        YUYV/UYVY, (h, w, 4) for BGRA/RGBA, (h, w, 3) for BGR24/RGB24, (h, w) for GRAY8, and
        (h * 3 / 2, w) for NV12 and I420 (ready for cv2.cvtColor's COLOR_YUV2BGR_NV12/_I420).
        A view where the planes lie as OpenCV wants them; else a copy. MJPEG: the JPEG's bytes."""
        import numpy as np

        planes = self.planes
        width, height, name = self.width, self.height, self.pixel_format
        if name in self._PACKED:
            channels = self._PACKED[name]
            flat = planes[0].reshape(-1)
            array = np.lib.stride_tricks.as_strided(flat, shape=(height, width, channels),
                                                    strides=(planes[0].shape[1], channels, 1))
        elif name == "GRAY8":
            array = planes[0][:height, :width]
        elif name in ("NV12", "I420"):
            chroma = [plane.reshape(-1) for plane in planes[1:]]
            luma = planes[0]
            contiguous = luma.shape[1] == width and all(
                part.ctypes.data == luma.ctypes.data + luma.size + sum(p.size for p in chroma[:i])
                for i, part in enumerate(chroma))
            if contiguous:
                memory: Any = (ctypes.c_uint8 * (width * height * 3 // 2)).from_address(luma.ctypes.data)
                memory._frame = self
                array = np.frombuffer(memory, dtype=np.uint8).reshape(height * 3 // 2, width)
            else:   # padded rows: each plane's visible part, packed as OpenCV expects
                visible = [planes[1][:height // 2, :width]] if name == "NV12" else [p[:height // 2, :width // 2] for p in planes[1:3]]
                array = np.concatenate([luma[:height, :width].reshape(-1)] + [p.reshape(-1) for p in visible]).reshape(height * 3 // 2, width)
        else:
            array = planes[0].reshape(-1)
        array = array.view()
        array.flags.writeable = False
        return array

    def retain(self) -> "RetainedFrame":
        """A copy of this frame that stays valid after the callback."""
        handle = _lib.oc_frame_retain(self._handle)
        if not handle:
            raise ValueError(_string(_lib.oc_last_error_message()))
        return RetainedFrame(handle)


def _install_frame_callback(setter: Callable[..., Any], handle: Optional[int],
                            callback: Optional[Callable[["Frame"], None]]) -> Any:
    """Sets a C frame callback that hands `callback` each frame as a `Frame` (None clears it);
    returns the trampoline, which the output keeps alive while it is set."""
    if callback is None:
        setter(handle, _native.FRAME_CALLBACK(), None)
        return None

    new = c_callback(_native.FRAME_CALLBACK, callback, lambda _output, frame: (Frame(frame),))
    setter(handle, new, None)
    return new


class RetainedFrame(Frame):
    """A frame kept beyond its callback; its memory is released with the object."""

    def __init__(self, handle: int):
        super().__init__(handle)
        self._finalizer = weakref.finalize(self, _lib.oc_frame_release, handle)
