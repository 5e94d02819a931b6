"""Discovery rules on shapes of real USB cameras, rebuilt as gadgets on real uvcvideo
(raw V4L2 backend, no PipeWire): an infrared function that streams YUYV at an odd
size, a second function whose format is only on its own node, serials that name the
model rather than the unit."""

import json
import os
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gadgets import Format, Function, Gadget, expected_yuyv, stamp_of  # noqa: E402
from client import CLI, cli, wait_for  # noqa: E402

TMP = Path(os.environ.get("TMPDIR", "/tmp"))
RGB = Function([Format("YUYV", [(640, 480), (320, 240)]), Format("MJPG", [(640, 480)])], name="Integrated Camera")


def cameras(*args):
    return {d["unique_id"]: d for d in json.loads(cli(*args, "list", "--json").stdout) if d["type"] != "microphone"}


def test_an_infrared_function_streaming_yuyv_at_an_odd_size_is_not_part_of_the_camera():
    ir = Function([Format("YUYV", [(340, 340)])], name="Integrated IR Camera")
    with Gadget("rgb-ir", serial="RGBIR001", functions=[RGB, ir]).plug(0) as gadget:
        camera = cameras()["usb-1d6b:0104-RGBIR001"]
        sizes = {(f["pixel_format"], f["width"], f["height"]) for f in camera["formats"]}
        assert sizes == {("YUYV", 640, 480), ("YUYV", 320, 240), ("MJPEG", 640, 480)}
        assert camera["v4l2_nodes"] == gadget.host_video_nodes()[:1]
        refused = cli("stream", "usb-1d6b:0104-RGBIR001", "--format", "YUYV", "--size", "340x340", "--frames", "1",
                      check=False)
        assert refused.returncode != 0 and "340x340" in refused.stderr


def test_a_format_only_a_second_function_has_streams_from_that_functions_node():
    second = Function([Format("YUYV", [(352, 288)])], name="Second Stream")
    with Gadget("two-functions", serial="TWOFN001", functions=[RGB, second]).plug(0) as gadget:
        camera = cameras()["usb-1d6b:0104-TWOFN001"]
        assert ("YUYV", 352, 288) in {(f["pixel_format"], f["width"], f["height"]) for f in camera["formats"]}
        out = TMP / "second.raw"
        summary = json.loads(cli("stream", "usb-1d6b:0104-TWOFN001", "--format", "YUYV", "--size", "352x288",
                                 "--frames", "3", "--json", "--output", str(out)).stdout)
        assert (summary["width"], summary["height"]) == (352, 288)
        frame = out.read_bytes()[:352 * 288 * 2]
        number = stamp_of([frame[row * 704:(row + 1) * 704:2] for row in range(8)], 352)
        assert frame == expected_yuyv(352, 288, number)


def test_a_firmware_string_serial_names_no_unit_in_either_plug_order():
    serial = "YG_U700_D.2021.0104.1403"   # what one real webcam model reports on every unit
    first, second = Gadget("fw-a", serial=serial), Gadget("fw-b", serial=serial)
    for order in ((first, 0, second, 1), (second, 0, first, 1)):
        a, bus_a, b, bus_b = order
        with a.plug(bus_a):
            assert list(cameras()) == [f"usb-1d6b:0104@{bus_a + 1}-1"]
            with b.plug(bus_b):
                assert sorted(cameras()) == ["usb-1d6b:0104@1-1", "usb-1d6b:0104@2-1"]


def test_a_serial_seen_on_two_units_is_remembered_and_gives_port_ids_in_any_order():
    state = TMP / "shared-serial-state"
    first, second = Gadget("dup-a", serial="DUPL0001"), Gadget("dup-b", serial="DUPL0001")
    with first.plug(0):
        # Alone and never seen twice: the serial names it.
        assert list(cameras("--state-dir", str(state))) == ["usb-1d6b:0104-DUPL0001"]
        with second.plug(1):
            assert sorted(cameras("--state-dir", str(state))) == ["usb-1d6b:0104-DUPL0001", "usb-1d6b:0104@2-1"]
    # From then on, either unit, in either order, by port: the ID no longer depends on plug order.
    for gadget, bus in ((second, 0), (first, 1)):
        with gadget.plug(bus):
            assert list(cameras("--state-dir", str(state))) == [f"usb-1d6b:0104@{bus + 1}-1"]
    assert "DUPL0001" in (state / "shared-serials").read_text()
