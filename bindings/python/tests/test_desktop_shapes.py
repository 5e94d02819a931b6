"""PipeWire nodes shaped like real desktops' (shared device dumps: a Surface Pro 9 with IPU6 and
libcamera, a Galaxy Book5 Pro whose V4L2 monitor publishes every raw IPU7 capture queue, a
Video node for a UVC metadata queue), published on the test bed's real daemon: one camera per
physical camera, built in where the firmware has it, stable IDs."""
import pytest

import ocellus
from ocellus import DeviceType, Position


def listed_cameras(context):
    return {d.unique_id: d for d in context.devices() if d.type is not DeviceType.MICROPHONE}


@pytest.fixture
def surface(cameras):
    # libcamera's nodes for the front and rear sensors: the rear one without a location, as on the Surface Pro 9.
    cameras.add("libcamfront", "--prop", "device.api=libcamera", "--prop", "api.libcamera.path=_SB_.PC00.I2C3.CAMF",
                     "--prop", "api.libcamera.location=front", "--prop", "api.libcamera.rotation=180",
                     "--desc", "Built-in Front Camera")
    cameras.add("libcamrear", "--prop", "device.api=libcamera", "--prop", "api.libcamera.path=_SB_.PC00.I2C2.CAMR",
                     "--prop", "api.libcamera.rotation=0", "--desc", "ov13858")
    yield


def test_libcamera_cameras_are_built_in_with_or_without_a_location(surface):
    with ocellus.Context("org.ocellus.test.desktop") as context:
        found = listed_cameras(context)
        front, rear = found["platform-_SB_.PC00.I2C3.CAMF"], found["platform-_SB_.PC00.I2C2.CAMR"]
        assert (front.type, front.position) == (DeviceType.BUILT_IN_CAMERA, Position.FRONT)
        # No location: still the machine's own camera, never a virtual one; where it faces is not known.
        assert (rear.type, rear.position) == (DeviceType.BUILT_IN_CAMERA, Position.UNSPECIFIED)
        assert rear.name == "ov13858"


@pytest.mark.parametrize("caps", ["24201000", "04a00000"], ids=["isp-capture-queue", "metadata-queue"])
def test_nodes_that_are_no_camera_are_not_listed(cameras, caps):
    # IPU6/IPU7 ISYS queues (multi-planar capture driven by a media-controller pipeline) and a
    # metadata queue, as PipeWire's V4L2 monitor publishes them: card "ipu7" tells nothing.
    cameras.add("rawqueue", "--prop", "device.api=v4l2", "--prop", "api.v4l2.path=/dev/video21",
                     "--prop", "api.v4l2.cap.driver=isys", "--prop", "api.v4l2.cap.card=ipu7",
                     "--prop", f"api.v4l2.cap.device-caps={caps}", "--desc", "ipu7 (V4L2)")
    cameras.add("realcam", "--prop", "device.api=v4l2", "--prop", "api.v4l2.path=/dev/video22",
                     "--prop", "api.v4l2.cap.driver=uvcvideo", "--prop", "api.v4l2.cap.device-caps=04200001",
                     "--desc", "A real capture node")
    with ocellus.Context("org.ocellus.test.desktop") as context:
        names = {d.name for d in listed_cameras(context).values()}
    assert "A real capture node" in names and "ipu7 (V4L2)" not in names
