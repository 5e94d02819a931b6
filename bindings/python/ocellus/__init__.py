"""Ocellus for Python: cameras and microphones on Linux, through libocellus.

    import ocellus
    with ocellus.Context("org.example.App") as ctx:
        for device in ctx.devices():
            print(device.unique_id, device.type, device.name)

Errors from the library raise `OcellusError` subclasses carrying the library's
own message. Callbacks run on a library thread; an exception raised in one is
reported through `sys.unraisablehook` (it cannot propagate into C) and later
callbacks still run.

This module only re-exports; each module follows a section of the C header
(docs/contributing.md).
"""

from ._library import _lib, version  # noqa: F401 - _lib: which file was loaded (tests ask)
from .errors import (OcellusError, InvalidArgument, InvalidHandle, BackendUnavailable, NotFound, WrongState, Timeout,
                     NoResources, Busy, Disconnected, IOFailure, LibraryUnavailable, PermissionDenied)
from ._callbacks import Registration
from .devices import Device, Format, DeviceType, Position, Backend, MediaType, Control, ControlType, pixel_format_code
from .devices import FaceDrivenAdjustment, FaceDrivenTier, FaceDrivenState, CenterStageState
from .context import Context, CameraAuthorization, HotplugEvent, PreferredCamera, program_app_id
from .discovery import DiscoverySession
from .audio import AudioDataOutput, MicrophoneMode, MicrophoneModeState
from .capture import (BusFit, Camera, CaptureSession, ConfigurationAdjustment, ConfigurationCheck, HardwareCost, Preset, SessionEvent,
                      VideoDataOutput, device_supports_preset, open_camera)
from .frames import Frame, RetainedFrame
from .movie import MovieFileOutput, Recording
from .photo import Photo, PhotoOutput
from .depth import DepthDataOutput, OutputSynchronizer
from .metadata import MetadataObject, MetadataObjectType, MetadataOutput, MetadataStatistics
from .multi_cam import MultiCamSession
from .rotation import RotationCoordinator

#: The binding's version: the C header's it was written against (the library's own is `version()`).
__version__ = "0.3.0"

__all__ = [
    "Context", "program_app_id", "CameraAuthorization", "Device", "Format", "DeviceType", "Position", "Backend", "HotplugEvent", "Registration",
    "PreferredCamera", "MediaType", "DiscoverySession", "Control", "ControlType",
    "OcellusError", "InvalidArgument", "InvalidHandle", "BackendUnavailable", "NotFound", "WrongState",
    "Timeout", "NoResources", "Busy", "Disconnected", "IOFailure", "LibraryUnavailable", "PermissionDenied", "version", "pixel_format_code", "__version__",
]
__all__ += ["Camera", "open_camera", "CaptureSession", "VideoDataOutput", "AudioDataOutput", "PhotoOutput", "Photo", "MovieFileOutput", "Recording", "Frame", "RetainedFrame", "SessionEvent", "Preset",
            "device_supports_preset"]
__all__ += ["MicrophoneMode", "MicrophoneModeState"]
__all__ += ["RotationCoordinator"]
__all__ += ["DepthDataOutput", "OutputSynchronizer"]
__all__ += ["MetadataOutput", "MetadataObjectType", "MetadataObject", "MetadataStatistics"]
__all__ += ["FaceDrivenAdjustment", "FaceDrivenTier", "FaceDrivenState"]
__all__ += ["CenterStageState"]
__all__ += ["HardwareCost", "BusFit", "MultiCamSession", "ConfigurationCheck", "ConfigurationAdjustment"]
