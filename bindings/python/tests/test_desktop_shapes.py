"""PipeWire nodes shaped like real desktops' (shared device dumps: a Surface Pro 9 with IPU6 and
libcamera, a Galaxy Book5 Pro whose V4L2 monitor publishes every raw IPU7 capture queue, a
Video node for a UVC metadata queue), published on the test bed's real daemon: one camera per
physical camera, built in where the firmware has it, stable IDs."""
import json
from pathlib import Path

import pytest

import ocellus
from ocellus import DeviceType, Position


def listed_cameras(context):
    return {d.unique_id: d for d in context.devices() if d.type is not DeviceType.MICROPHONE}


DUMPS = Path(__file__).parent / "dumps"


@pytest.fixture
def surface(cameras):
    """The Surface Pro 9's Video/Source nodes, replayed from the dump: each published with the
    properties it was recorded with (keys it did not have are null there and left out)."""
    nodes = json.loads((DUMPS / "surface-pro9-ipu6-libcamera-pipewire-nodes-projection/pw-dump.projection.json").read_text())
    for node in nodes:
        props = node["info"]["props"] if "info" in node else node["props"]
        published = {k: v for k, v in props.items() if v is not None and k not in ("media.class", "object.serial", "node.name")}
        cameras.add(props["node.name"], *[arg for key, value in published.items() for arg in ("--prop", f"{key}={value}")])
    yield {props["node.name"]: props for props in (n["info"]["props"] if "info" in n else n["props"] for n in nodes)}


def test_a_replayed_ipu6_laptop_has_two_built_in_cameras_and_a_relay(surface):
    with ocellus.Context("org.ocellus.test.desktop") as context:
        by_name = {d.name: d for d in listed_cameras(context).values()}
    front, rear, relay = by_name["Built-in Front Camera"], by_name["ov13858"], by_name["Surface Back Camera (V4L2)"]
    assert (front.type, front.position) == (DeviceType.BUILT_IN_CAMERA, Position.FRONT)
    # No location: still the machine's own camera, never a virtual one; where it faces is not known.
    assert (rear.type, rear.position) == (DeviceType.BUILT_IN_CAMERA, Position.UNSPECIFIED)
    assert front.unique_id != rear.unique_id and front.unique_id.startswith("platform-")
    # The author's v4l2loopback re-publisher: software, whatever it is named after.
    assert relay.type is DeviceType.VIRTUAL_CAMERA


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
