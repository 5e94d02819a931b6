"""Depth cameras on real uvcvideo: a gadget built like a USB stereo depth camera — a
colour function (YUYV), an infrared function (Y8I, a left/right pair) and a depth
function (Z16, a millimetre ramp) in one USB device, its functions stamped from one
clock as a depth camera's sensors are. One depth camera, depth beside the picture,
the values and units through each path, pairs of one instant at equal and different
rates, the CLI's stream and snap, unplug mid-stream."""

import json
import os
import struct
import sys
import time
import zlib
from pathlib import Path

import numpy
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))
import ocellus  # noqa: E402
from ocellus.capture import CaptureSession, SessionEvent, VideoDataOutput  # noqa: E402
from ocellus.depth import DepthDataOutput, OutputSynchronizer  # noqa: E402
from gadgets import Format, Function, Gadget, depth_at, depth_stamp_of, stamp_of  # noqa: E402
from client import cli, record_identities, wait_for  # noqa: E402

TMP = Path(os.environ.get("TMPDIR", "/tmp"))
CAMERA = "usb-1d6b:0104-DEPTH001"


def depth_gadget(depth_intervals=(333333,)):
    # One configfs gadget per shape: a declared gadget is reused by name. The three streams share
    # the bus: each reserves what its stream needs (21, 21 and 6 of 100 µs a microframe), as a
    # real depth camera's functions do, not the 61 µs of 3 × 1024 bytes each.
    return Gadget(f"depthcam{depth_intervals[0]}", serial="DEPTH001", product="Depth Camera", shared_clock=True, functions=[
        Function([Format("YUYV", [(320, 240)], intervals=(333333,))], name="RGB Camera", max_packet=1024),
        Function([Format("Y8I", [(320, 240)], intervals=(333333,))], name="Stereo Module", max_packet=1024),
        Function([Format("Z16", [(160, 120)], intervals=depth_intervals)], name="Depth Module", max_packet=256),
    ])


def luma_rows(frame):
    return frame.planes[0][:, 0::2]


def assert_ramp(depth):
    """Every pixel below the stamp is the gadget's ramp, exactly."""
    height, width = depth.shape
    ys, xs = numpy.mgrid[8:height, 0:width]
    assert numpy.array_equal(depth[8:, :], 500 + 4 * xs + ys)


@pytest.fixture
def camera():
    with depth_gadget().plug(0) as gadget:
        wait_for(lambda: CAMERA in listing(), timeout=20, what="the depth camera")
        yield gadget


def listing():
    return {d["unique_id"]: d for d in json.loads(cli("list", "--json").stdout) if d["type"] != "microphone"}


def test_the_functions_of_a_depth_camera_are_one_depth_camera(camera):
    devices = listing()
    assert list(devices) == [CAMERA], "the infrared and depth functions are not cameras of their own"
    device = devices[CAMERA]
    assert device["type"] == "depth_camera"
    record_identities("v4l2: a depth camera", [device])
    assert [(f["pixel_format"], f["width"], f["height"]) for f in device["formats"]] == [("YUYV", 320, 240)]
    assert [(f["pixel_format"], f["width"], f["height"], f["frame_rates"]) for f in device["depth_formats"]] == \
        [("Z16", 160, 120, [30])]
    # The colour and depth nodes, not the infrared one (the third function's node is the depth's).
    capture_nodes = camera.host_video_nodes()[0::2]
    assert sorted(device["v4l2_nodes"]) == sorted([capture_nodes[0], capture_nodes[2]])
    with ocellus.Context("org.ocellus.test.depth") as ctx:
        found = ctx.device_by_unique_id(CAMERA)
        assert found.depth_formats_beside(found.formats[0]) == found.depth_formats


def test_depth_maps_stream_beside_the_picture_as_views_in_millimetres_or_metres(camera):
    maps, metres, pictures = [], [], []
    with ocellus.Context("org.ocellus.test.depth") as ctx:
        session = ctx.capture_session()
        session.set_input(ctx.device_by_unique_id(CAMERA))
        picture = VideoDataOutput()
        picture.set_frame_callback(lambda frame: pictures.append(frame.sequence))
        raw, converted = DepthDataOutput(), DepthDataOutput("Z32F")
        raw.set_frame_callback(lambda frame: maps.append((frame.depth.copy(), frame.depth_unit, frame.depth.dtype,
                                                          frame.timestamp_ns, frame.sequence)))
        converted.set_frame_callback(lambda frame: metres.append((frame.depth.copy(), frame.depth_unit)))
        session.add_output(picture)
        session.add_depth_output(raw)
        session.add_depth_output(converted)
        with session.running():
            assert session.active_depth_format[:3] == ("Z16", 160, 120)
            wait_for(lambda: len(maps) >= 20 and len(metres) >= 20 and len(pictures) >= 20, timeout=15,
                     what="20 pictures and depth maps")
        # The emulated bus loses a frame now and then under two streams (counted, never corrupt).
        assert raw.dropped_frames["corrupt"] == 0 and raw.delivered_frames >= 20
    depth, unit, dtype, _, _ = maps[-1]
    assert depth.shape == (120, 160) and dtype == numpy.uint16 and unit == pytest.approx(0.001)
    assert_ramp(depth)
    sequences = [m[4] for m in maps]
    assert sequences == sorted(sequences) and len(set(sequences)) == len(sequences)
    in_metres, unit = metres[-1]
    assert in_metres.dtype == numpy.float32 and unit == 1.0
    ys, xs = numpy.mgrid[8:120, 0:160]
    assert numpy.allclose(in_metres[8:, :], (500 + 4 * xs + ys) / 1000.0)


@pytest.mark.parametrize("depth_rate", [30, 15])
def test_synchronized_pairs_are_of_one_instant_at_equal_and_different_rates(depth_rate):
    intervals = (333333,) if depth_rate == 30 else (666666,)
    pairs = []
    with depth_gadget(intervals).plug(0):
        wait_for(lambda: CAMERA in listing(), timeout=20, what="the depth camera")
        with ocellus.Context("org.ocellus.test.depth") as ctx:
            session = ctx.capture_session()
            session.set_input(ctx.device_by_unique_id(CAMERA))
            picture, depth = VideoDataOutput(), DepthDataOutput()
            synchronizer = OutputSynchronizer(picture, depth)
            synchronizer.set_callback(lambda pair: pairs.append(
                (stamp_of(luma_rows(pair[0]), 320), depth_stamp_of(pair[1].depth),
                 pair[0].timestamp_ns, pair[1].timestamp_ns)))
            session.add_output(picture)
            session.add_depth_output(depth)
            with session.running():
                rate = session.active_depth_format[3]
                synchronized_rate = (rate.numerator, rate.denominator)
                wait_for(lambda: len(pairs) >= 30, timeout=20, what="30 pairs")
            unmatched = synchronizer.unmatched_frames
            delivered_pictures, delivered_maps = picture.delivered_frames, depth.delivered_frames
            synchronizer.close()
    # The gadget stamps each frame with the instant its sensor captured it, and the pairs'
    # capture times (uvcvideo's, taken on arrival) lie within half a frame interval. On this
    # emulated bus arrival jitters by up to ~20 ms and loses a frame now and then, so some
    # pairs join neighbouring instants (20 of 32 in one run); at least half carry one stamp (a
    # synchronizer that paired neighbours would carry almost none).
    same_instant = [p for p in pairs if p[0] == p[1]]
    assert len(same_instant) >= len(pairs) / 2, pairs[:10]
    assert all(abs(p[2] - p[3]) <= 16_700_000 for p in pairs)
    assert synchronized_rate == (depth_rate, 1)
    # Frames the bus lost leave their partners unmatched, so the counts are bounds, not exact.
    assert unmatched["video"] + unmatched["depth"] + 2 * len(pairs) >= delivered_pictures + delivered_maps - 2
    if depth_rate == 15:
        # A map for every other picture: the pictures between maps are unmatched; most maps pair.
        assert unmatched["video"] >= 0.3 * delivered_pictures
        assert len(pairs) >= 0.6 * delivered_maps
    else:
        assert len(pairs) >= 0.5 * min(delivered_pictures, delivered_maps)


def test_the_cli_streams_depth_and_snaps_a_16_bit_png_of_the_same_instant(camera):
    summary = json.loads(cli("stream", CAMERA, "--depth", "--frames", "30", "--json").stdout)
    assert summary["frames"] == 30 and (summary["pixel_format"], summary["width"]) == ("YUYV", 320)
    assert summary["depth"]["pixel_format"] == "Z16" and (summary["depth"]["width"], summary["depth"]["height"]) == (160, 120)
    # The depth function's stream starts after the picture's: on the emulated bus of a loaded
    # machine up to ~0.3 s later (24 maps for 30 pictures in one CI run). None may be dropped.
    assert summary["depth"]["frames"] >= 20 and summary["depth"]["dropped"] == 0
    directory = TMP / "depth-snap"
    snap = json.loads(cli("snap", CAMERA, "--depth", "-o", str(directory), "--json").stdout)
    assert snap["depth"]["unit_m"] == pytest.approx(0.001) and snap["depth"]["pixel_format"] == "Z16"
    assert abs(snap["depth"]["timestamp_ns"] - snap["picture_timestamp_ns"]) <= 16_700_000
    width, height, bits, colour, rows = read_png(Path(snap["depth"]["path"]))
    assert (width, height, bits, colour) == (160, 120, 16, 0)   # 16-bit greyscale
    depth = numpy.frombuffer(b"".join(rows), dtype=">u2").reshape(height, width)
    assert_ramp(depth)
    width, height, bits, colour, rows = read_png(Path(snap["path"]))
    assert (width, height, bits, colour) == (320, 240, 8, 2)    # 8-bit RGB


def test_a_camera_without_depth_refuses_a_depth_output_and_the_cli_says_so():
    with Gadget("flat", serial="FLAT0001", functions=[Function([Format("YUYV", [(320, 240)])])]).plug(0):
        wait_for(lambda: "usb-1d6b:0104-FLAT0001" in listing(), timeout=20, what="the webcam")
        result = cli("stream", "usb-1d6b:0104-FLAT0001", "--depth", "--frames", "5", "--json", check=False)
        assert result.returncode == 1 and "not a depth camera" in result.stderr


def test_a_depth_format_beside_mjpeg_in_one_function_makes_a_depth_camera():
    """Z16 listed beside MJPEG in the camera's one function: a depth camera whose depth maps
    come on the picture's own stream (depth or picture, one at a time)."""
    tof = "usb-1d6b:0104-TOFMJ001"
    with Gadget("tofmjpeg", serial="TOFMJ001", product="ToF Webcam", functions=[
            Function([Format("MJPG", [(320, 240)]), Format("Z16", [(160, 120)])], name="ToF Webcam")]).plug(0):
        wait_for(lambda: tof in listing(), timeout=20, what="the ToF webcam")
        device = listing()[tof]
        assert device["type"] == "depth_camera"
        assert [(f["pixel_format"], f["width"], f["height"]) for f in device["depth_formats"]] == [("Z16", 160, 120)]
        maps = []
        with ocellus.Context("org.ocellus.test.depth") as ctx:
            session = ctx.capture_session()
            session.set_input(ctx.device_by_unique_id(tof))
            depth = DepthDataOutput()
            depth.set_frame_callback(lambda frame: maps.append(frame.depth.copy()))
            session.add_depth_output(depth)
            with session.running():
                assert session.active_depth_format[:3] == ("Z16", 160, 120)
                wait_for(lambda: len(maps) >= 5, timeout=15, what="5 depth maps")
            session.close()
        assert_ramp(maps[-1])
        summary = json.loads(cli("stream", tof, "--depth", "--frames", "10", "--json").stdout)
        assert summary["depth"]["pixel_format"] == "Z16" and summary["depth"]["frames"] >= 5


def test_unplugging_mid_stream_ends_both_streams_with_one_error(camera):
    events, maps, pictures = [], [], []
    with ocellus.Context("org.ocellus.test.depth") as ctx:
        session = ctx.capture_session()
        session.add_event_callback(lambda event, message: events.append((event, message)))
        session.set_input(ctx.device_by_unique_id(CAMERA))
        picture, depth = VideoDataOutput(), DepthDataOutput()
        picture.set_frame_callback(lambda frame: pictures.append(time.monotonic()))
        depth.set_frame_callback(lambda frame: maps.append(time.monotonic()))
        session.add_output(picture)
        session.add_depth_output(depth)
        session.start_running()
        wait_for(lambda: len(maps) >= 5 and len(pictures) >= 5, timeout=15, what="frames")
        pulled = time.monotonic()
        camera.unplug()
        wait_for(lambda: any(e == SessionEvent.RUNTIME_ERROR for e, _ in events), timeout=5, what="the runtime error")
        time.sleep(0.5)
        assert not session.is_running
        assert [e for e, _ in events].count(SessionEvent.RUNTIME_ERROR) == 1
        assert all(t < pulled + 1 for t in maps + pictures), "nothing is delivered after the unplug"
        session.stop_running()
        session.close()


def read_png(path):
    """(width, height, bit depth, colour type, rows) of a non-interlaced PNG, its filters undone."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    position, chunks, header = 8, b"", None
    while position < len(data):
        length, kind = struct.unpack(">I4s", data[position:position + 8])
        body = data[position + 8:position + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            chunks += body
        position += 12 + length
    width, height, bits, colour = header[:4]
    raw = zlib.decompress(chunks)
    stride = width * {0: 1, 2: 3}[colour] * bits // 8
    rows, previous = [], bytes(stride)
    bpp = max(1, {0: 1, 2: 3}[colour] * bits // 8)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = previous[i], previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xff
            elif kind == 2:
                line[i] = (line[i] + up) & 0xff
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xff
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 0xff
        rows.append(bytes(line))
        previous = bytes(line)
    return width, height, bits, colour, rows
