"""Queue shapes of SoC and capture drivers on a real driver, vivid: a multi-planar
capture queue (`multiplanar=2`, as SoC camera receivers have) and an HDMI input
whose frame sizes are a stepwise range, streamed by the raw V4L2 backend. Unloaded
again so the USB tests see only their gadgets."""

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))
import ocellus  # noqa: E402

CLI = os.environ["OCELLUS_CLI"]
TMP = Path(os.environ.get("TMPDIR", "/tmp"))
CAMERA = "v4l2-platform:vivid-000"     # a webcam input on a multi-planar queue
HDMI = "v4l2-platform:vivid-001"       # an HDMI input: sizes 16x16–16384x8640 in steps of 2


@pytest.fixture(scope="module", autouse=True)
def multiplanar_vivid():
    subprocess.run(["modprobe", "vivid", "n_devs=2", "multiplanar=2,1", "node_types=0x1,0x1", "num_inputs=1,1",
                    "input_types=0,3"], check=True)
    try:
        yield
    finally:
        for _ in range(50):
            if subprocess.run(["rmmod", "vivid"], capture_output=True).returncode == 0:
                break
            time.sleep(0.1)


def test_a_multiplanar_capture_queue_lists_and_streams_its_single_plane_formats():
    devices = {d["unique_id"]: d for d in json.loads(subprocess.run([CLI, "list", "--json"], capture_output=True,
                                                                     text=True, check=True).stdout)}
    formats = {f["pixel_format"] for f in devices[CAMERA]["formats"]}
    assert {"YUYV", "NV12"} <= formats and not {"NM12", "YM12"} & formats   # multi-memory-plane formats: not listed
    out = TMP / "mplane.raw"
    result = subprocess.run([CLI, "stream", CAMERA, "--format", "YUYV", "--size", "640x360", "--fps", "30",
                             "--frames", "10", "--json", "--output", str(out)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert (summary["frames"], summary["width"], summary["height"], summary["pixel_format"]) == (10, 640, 360, "YUYV")
    assert out.stat().st_size == 10 * 640 * 360 * 2
    frame = out.read_bytes()[:640 * 360 * 2]
    assert len(set(frame[::97])) > 8   # a picture (vivid's test pattern), not an empty buffer


def listing():
    return {d["unique_id"]: d for d in json.loads(subprocess.run([CLI, "list", "--json"], capture_output=True,
                                                                  text=True, check=True).stdout)}


def test_a_stepwise_range_of_sizes_is_listed_as_a_range_and_any_size_in_it_streams():
    yuyv = next(f for f in listing()[HDMI]["formats"] if f["pixel_format"] == "YUYV")
    assert (yuyv["width"], yuyv["height"]) == (16384, 8640)
    assert yuyv["size_range"] == {"min_width": 16, "min_height": 16, "max_width": 16384, "max_height": 8640,
                                  "step_width": 2, "step_height": 2}
    assert yuyv["frame_rates"]            # the input's rate, though the driver enumerates none for ranges
    with ocellus.Context("org.ocellus.test.shapes") as ctx:   # the same from the ABI, through Python
        format = next(f for f in ctx.device_by_unique_id(HDMI).formats if f.pixel_format == "YUYV")
        assert (format.width, format.height, format.size_range) == (16384, 8640, (16, 16, 2, 2))
    out = TMP / "stepwise.raw"
    result = subprocess.run([CLI, "stream", HDMI, "--format", "YUYV", "--size", "640x360", "--frames", "5", "--json",
                             "--output", str(out)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert (summary["frames"], summary["width"], summary["height"]) == (5, 640, 360)
    assert out.stat().st_size == 5 * 640 * 360 * 2
    # A size off the range's steps is not offered: refused, not silently replaced by another.
    odd = subprocess.run([CLI, "stream", HDMI, "--format", "YUYV", "--size", "641x360", "--frames", "1"],
                         capture_output=True, text=True, timeout=60)
    assert odd.returncode != 0 and "641x360" in odd.stderr
