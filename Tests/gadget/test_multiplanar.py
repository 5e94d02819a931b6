"""Multi-planar capture on a real driver: vivid loaded with a multi-planar capture
queue (`multiplanar=2`, as SoC camera receivers have), streamed by the raw V4L2
backend. Unloaded again so the USB tests see only their gadgets."""

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

CLI = os.environ["OCELLUS_CLI"]
TMP = Path(os.environ.get("TMPDIR", "/tmp"))
CAMERA = "v4l2-platform:vivid-000"


@pytest.fixture(scope="module", autouse=True)
def multiplanar_vivid():
    subprocess.run(["modprobe", "vivid", "n_devs=1", "multiplanar=2", "node_types=0x1", "input_types=0"], check=True)
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
