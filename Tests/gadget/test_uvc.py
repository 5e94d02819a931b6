"""The raw V4L2 backend on real uvcvideo: USB gadget webcams (gadgets.py) in the
guest, no PipeWire. Identity, formats, pixels through each path, controls that
reach the device, unplug while streaming and recording, hotplug."""

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))
import ocellus  # noqa: E402
from ocellus.capture import CaptureSession, MovieFileOutput, SessionEvent, VideoDataOutput  # noqa: E402
from gadgets import BAR_YUV, Format, Function, Gadget, expected_yuyv, stamp_of  # noqa: E402
from client import CLI, cli, record_identities, wait_for  # noqa: E402

TMP = Path(os.environ.get("TMPDIR", "/tmp"))
YUYV_AND_MJPEG = [Function([Format("YUYV", [(640, 480), (320, 240)]), Format("MJPG", [(640, 480), (320, 240)])])]
MJPEG_ONLY = [Function([Format("MJPG", [(640, 480)])])]


def cameras():
    return {d["unique_id"]: d for d in json.loads(cli("list", "--json").stdout) if d["type"] != "microphone"}


def frames_of(path, size):
    data = Path(path).read_bytes()
    assert len(data) % size == 0, f"{len(data)} bytes is not a whole number of {size}-byte frames"
    return [data[i:i + size] for i in range(0, len(data), size)]


def test_a_serial_names_the_camera_and_the_formats_are_exactly_the_gadgets():
    with Gadget("serial", serial="CAM0001", functions=YUYV_AND_MJPEG).plug(0) as gadget:
        capture_node, metadata_node = gadget.host_video_nodes()
        camera = cameras()["usb-1d6b:0104-CAM0001"]
        assert (camera["name"], camera["backend"], camera["serial"]) == ("Gadget Webcam", "v4l2", "CAM0001")
        assert (camera["vendor_id"], camera["product_id"]) == ("1d6b", "0104")
        # uvcvideo's metadata node is not a second camera nor a node of this one.
        assert camera["v4l2_nodes"] == [capture_node] and len(cameras()) == 1
        record_identities("v4l2: a webcam with a serial", [camera])
        listed = [(f["pixel_format"], f["width"], f["height"], f["frame_rates"]) for f in camera["formats"]]
        assert listed == [(fourcc, w, h, [30, 15, 10]) for fourcc in ("YUYV", "MJPEG")
                          for w, h in ((640, 480), (320, 240))]
        # libusb read the real descriptors: a camera terminal feeds the function, so it is a
        # webcam (mirrored by default), not a grabber.
        with ocellus.Context("org.ocellus.test.gadget") as ctx:
            assert ctx.device_by_unique_id("usb-1d6b:0104-CAM0001").property("device.video-input") == "camera"


@pytest.mark.parametrize("serial", [None, "0123456789", "00000000"], ids=["none", "placeholder", "zeros"])
def test_without_an_identifying_serial_the_port_names_the_camera(serial):
    with Gadget(f"port-{serial}", serial=serial).plug(1):
        assert list(cameras()) == ["usb-1d6b:0104@2-1"]
        record_identities(f"v4l2: a webcam with serial {serial!r}", cameras().values())


def test_two_identical_units_on_two_buses_get_two_port_ids():
    with Gadget("twin-a", serial=None).plug(0), Gadget("twin-b", serial=None).plug(1):
        assert sorted(cameras()) == ["usb-1d6b:0104@1-1", "usb-1d6b:0104@2-1"]


def test_replug_into_the_same_port_keeps_the_id_and_is_a_new_instance():
    gadget = Gadget("replug", serial="REPLUG01")
    with ocellus.Context("org.ocellus.test.gadget") as ctx:
        events = []
        ctx.add_hotplug_callback(lambda event, device: events.append((event, device.unique_id)))
        gadget.plug(2)
        before = wait_for(lambda: ctx_device(ctx, "usb-1d6b:0104-REPLUG01"))
        gadget.unplug()
        wait_for(lambda: not before.connected or None)
        gadget.plug(2)
        after = wait_for(lambda: ctx_device(ctx, "usb-1d6b:0104-REPLUG01"))
        assert after.connected and not after.same_instance(before)
        gadget.unplug()
    assert [e for e in events if e[1] == "usb-1d6b:0104-REPLUG01"] == [
        (ocellus.HotplugEvent.ADDED, "usb-1d6b:0104-REPLUG01"), (ocellus.HotplugEvent.REMOVED, "usb-1d6b:0104-REPLUG01"),
        (ocellus.HotplugEvent.ADDED, "usb-1d6b:0104-REPLUG01"), (ocellus.HotplugEvent.REMOVED, "usb-1d6b:0104-REPLUG01")]


def ctx_device(ctx, unique_id):
    return next((d for d in ctx.devices() if d.unique_id == unique_id and d.connected), None)


def test_hotplug_of_a_camera_plugged_after_the_context_started():
    watcher = subprocess.Popen([CLI, "watch", "--json", "--changes-only"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        assert "PipeWire" in watcher.stderr.readline()   # the context runs
        gadget = Gadget("hotplug", serial="HOT00001").plug(3)
        added = next_event(watcher)
        assert (added["event"], added["device"]["unique_id"]) == ("added", "usb-1d6b:0104-HOT00001")
        assert added["device"]["v4l2_nodes"] == gadget.host_video_nodes()[:1]
        gadget.unplug()
        removed = next_event(watcher)
        assert (removed["event"], removed["device"]["unique_id"]) == ("removed", "usb-1d6b:0104-HOT00001")
    finally:
        watcher.terminate()
        watcher.wait(10)


def next_event(process):
    while True:
        line = process.stdout.readline()
        assert line, "watch ended"
        event = json.loads(line)
        if event["event"] in ("added", "removed"):
            return event


def test_yuyv_frames_arrive_bit_exact_and_in_order():
    with Gadget("pixels", serial="PIX00001", functions=YUYV_AND_MJPEG).plug(0):
        out = TMP / "yuyv.raw"
        summary = json.loads(cli("stream", "usb-1d6b:0104-PIX00001", "--format", "YUYV", "--size", "320x240",
                                 "--frames", "8", "--json", "--output", str(out)).stdout)
        assert (summary["frames"], summary["pixel_format"], summary["width"]) == (8, "YUYV", 320)
        numbers = []
        for frame in frames_of(out, 320 * 240 * 2):
            number = stamp_of([frame[row * 640:(row + 1) * 640:2] for row in range(8)], 320)
            assert frame == expected_yuyv(320, 240, number), f"frame {number} differs from what the gadget sent"
            numbers.append(number)
        assert numbers == sorted(numbers) and len(set(numbers)) == 8


def test_nv12_converted_from_yuyv_keeps_the_pictures_values():
    with Gadget("nv12", serial="NV120001", functions=[Function([Format("YUYV", [(320, 240)])])]).plug(0):
        out = TMP / "nv12.raw"
        cli("stream", "usb-1d6b:0104-NV120001", "--format", "NV12", "--frames", "4", "--json", "--output", str(out))
        for frame in frames_of(out, 320 * 240 * 3 // 2):
            luma, chroma = frame[:320 * 240], frame[320 * 240:]
            number = stamp_of([luma[row * 320:(row + 1) * 320] for row in range(8)], 320)
            expected = expected_yuyv(320, 240, number)
            assert luma == expected[0::2]
            for bar, (_, u, v) in enumerate(BAR_YUV):    # chroma of row pairs averaged: the same bar values
                x = bar * 40 + 20
                assert (chroma[60 * 320 + x], chroma[60 * 320 + x + 1]) == (u, v)


def split_jpegs(data):
    pictures, start = [], 0
    while (start := data.find(b"\xff\xd8", start)) >= 0:
        end = data.find(b"\xff\xd9", start) + 2
        pictures.append(data[start:end])
        start = end
    return pictures


def test_mjpeg_passes_through_untouched_and_decodes_to_the_pattern():
    with Gadget("mjpeg", serial="MJPG0001", functions=MJPEG_ONLY).plug(0):
        jpegs = TMP / "frames.mjpg"
        summary = json.loads(cli("stream", "usb-1d6b:0104-MJPG0001", "--format", "MJPG", "--frames", "5",
                                 "--json", "--output", str(jpegs)).stdout)
        assert (summary["frames"], summary["pixel_format"]) == (5, "MJPEG")
        pictures = split_jpegs(jpegs.read_bytes())
        assert len(pictures) == 5
        decoded = subprocess.run(["ffmpeg", "-loglevel", "error", "-f", "mjpeg", "-i", "-", "-f", "rawvideo",
                                  "-pix_fmt", "gray", "-"], input=b"".join(pictures), capture_output=True, check=True)
        assert len(decoded.stdout) == 5 * 640 * 480
        # Ocellus's own decoder (MJPEG → I420) gives the same pictures.
        i420 = TMP / "frames.i420"
        cli("stream", "usb-1d6b:0104-MJPG0001", "--format", "I420", "--frames", "5", "--json", "--output", str(i420))
        for frame in frames_of(i420, 640 * 480 * 3 // 2):
            luma = frame[:640 * 480]
            for bar, (y, _, _) in enumerate(BAR_YUV):
                assert abs(luma[240 * 640 + bar * 80 + 40] - y) <= 3
            stamp = stamp_of([luma[row * 640:(row + 1) * 640] for row in range(8)], 640)
            assert 0 <= stamp < 8      # the gadget cycles eight pre-encoded pictures


def test_controls_set_through_uvcvideo_reach_the_device_and_read_back():
    with Gadget("controls", serial="CTRL0001").plug(0) as gadget:
        listed = {c["name"]: c for c in json.loads(cli("controls", "usb-1d6b:0104-CTRL0001", "--json").stdout)}
        assert {"brightness", "auto_exposure"} <= set(listed)
        assert (listed["brightness"]["minimum"], listed["brightness"]["maximum"]) == (-64, 64)
        cli("controls", "usb-1d6b:0104-CTRL0001", "--set", "brightness=17")
        assert "brightness 17" in gadget.controls_logged()
        again = {c["name"]: c for c in json.loads(cli("controls", "usb-1d6b:0104-CTRL0001", "--json").stdout)}
        assert again["brightness"]["value"] == 17
        refused = cli("controls", "usb-1d6b:0104-CTRL0001", "--set", "brightness=99", check=False)
        assert refused.returncode != 0 and "brightness" in refused.stderr
        assert gadget.controls_logged().count("brightness 17") == 1 and "brightness 99" not in gadget.controls_logged()


def test_unplug_while_streaming_reports_the_disconnect_within_100_ms():
    gadget = Gadget("unplug", serial="UNPL0001").plug(0)
    with ocellus.Context("org.ocellus.test.gadget") as ctx:
        camera = wait_for(lambda: ctx_device(ctx, "usb-1d6b:0104-UNPL0001"))
        session = CaptureSession(ctx)
        output = VideoDataOutput()
        frames, events = [], []
        ended = threading.Event()
        output.set_frame_callback(lambda frame: frames.append(time.monotonic()))

        def on_event(event, message):
            events.append((event, message, time.monotonic()))
            if event in (SessionEvent.RUNTIME_ERROR, SessionEvent.INTERRUPTED, SessionEvent.STOPPED):
                ended.set()
        session.add_event_callback(on_event)
        session.set_input(camera)
        session.add_output(output)
        session.start_running()
        wait_for(lambda: len(frames) >= 5)
        unplugged = time.monotonic()
        gadget.unplug(wait=False)
        assert ended.wait(10), events
        kind, message, when = next(e for e in events if e[0] != SessionEvent.STARTED)
        assert kind == SessionEvent.RUNTIME_ERROR and "disconnect" in message.lower()
        assert when - unplugged < 0.1, f"the disconnect took {(when - unplugged) * 1000:.0f} ms to arrive"
        count = len(frames)
        time.sleep(0.3)
        assert len(frames) == count and not session.is_running
        session.stop_running()      # stopping a session that already ended is fine
        session.close()
    gadget.unplug()


def test_unplug_while_recording_leaves_a_file_that_plays_to_the_end():
    gadget = Gadget("recording", serial="REC00001", functions=[Function([Format("YUYV", [(320, 240)])])]).plug(0)
    movie = TMP / "unplugged.mp4"
    recorder = subprocess.Popen([CLI, "record", "usb-1d6b:0104-REC00001", "-o", str(movie), "--seconds", "60",
                                 "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: movie.exists() or recorder.poll() is not None, timeout=30)
        time.sleep(3)
        assert recorder.poll() is None, recorder.stderr.read()
        gadget.unplug()
        out, err = recorder.communicate(timeout=30)
    finally:
        recorder.kill()
    assert "disconnect" in err.lower()
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                            "stream=nb_read_frames,codec_name:format=duration", "-of", "json", str(movie)],
                           capture_output=True, text=True, check=True)
    info = json.loads(probe.stdout)
    frames = int(info["streams"][0]["nb_read_frames"])
    assert info["streams"][0]["codec_name"] == "h264" and frames >= 20
    # Every frame decoded above (-count_frames) without an error; the file's own timestamps rise strictly
    # (frames bunched around the unplug are milliseconds apart: a re-mux to a constant rate would merge them).
    packets = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=dts_time",
                              "-of", "csv=p=0", str(movie)], capture_output=True, text=True, check=True)
    times = [float(line) for line in packets.stdout.split() if line]
    assert probe.stderr == "" and packets.stderr == "" and len(times) == frames
    assert all(b > a for a, b in zip(times, times[1:]))
    assert 1.0 < float(info["format"]["duration"]) < 30
