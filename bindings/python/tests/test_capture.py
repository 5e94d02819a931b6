"""Capture sessions from Python on the real daemon: NumPy views of the virtual camera's pattern."""

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from photo_checks import assert_valid_exif

import ocellus
from ocellus import SessionEvent, VideoDataOutput

VCAM0 = "usb-1d6b:0110-VCAM-0000"


@pytest.fixture
def context():
    with ocellus.Context("org.ocellus.test.capture") as ctx:
        yield ctx


def camera(ctx, unique_id=VCAM0):
    return next(d for d in ctx.devices() if d.unique_id == unique_id)


def ramp(width):
    return 16 + np.arange(width) * 219 // width


def test_nv12_frames_as_numpy_views(context):
    session = context.capture_session()
    output = VideoDataOutput("NV12", 640, 480)
    seen, done, problems = [], threading.Event(), []

    def on_frame(frame):
        luma, chroma = frame.planes
        assert luma.shape == (480, 640) and chroma.shape == (240, 640)
        row = luma[100].astype(int)
        off = np.count_nonzero((np.abs(row - ramp(640)) > 1) & (row != 235))
        if off or not np.all(chroma[10, 0::2].astype(int) + chroma[10, 1::2] == 256):
            problems.append(frame.sequence)
        if len(seen) == 0:
            seen.append(frame.retain())
        else:
            seen.append(frame.sequence)
        if len(seen) >= 10:
            done.set()

    output.set_frame_callback(on_frame)
    session.set_input(camera(context))
    session.add_output(output)
    with session.running():
        assert done.wait(10)
    assert problems == []
    kept = seen[0]
    assert (kept.width, kept.height, kept.pixel_format) == (640, 480, "NV12")
    assert not kept.full_range   # YUV from the camera: limited range
    assert kept.planes[0].shape == (480, 640)   # still readable after the stream stopped
    assert output.delivered_frames >= 10
    session.close()


@pytest.mark.parametrize("full_range, expected", [(False, 125), (True, round((125 - 16) * 255 / 219))])
def test_mjpeg_camera_gives_video_range_nv12_unless_full_range_is_asked(context, cameras, full_range, expected):
    cameras.add("pyjpeg", "--formats", "MJPG", "--sizes", "640x480")
    session = context.capture_session()
    output = VideoDataOutput("NV12", 640, 480)
    output.full_range = full_range
    assert output.full_range == full_range
    seen, done = [], threading.Event()

    def on_frame(frame):
        luma = frame.planes[0]
        seen.append((frame.full_range, int(luma[100, 320])))
        done.set()

    output.set_frame_callback(on_frame)
    session.set_input(camera(context, "pipewire-pyjpeg"))
    session.add_output(output)
    with session.running():
        assert done.wait(10)
    session.close()
    labelled, y = seen[0]
    # The virtual camera's ramp is 125 at x = 320 in video range; its JPEGs carry it in full range, as
    # webcams' JFIF does. NV12 is video range unless asked (what OpenCV's COLOR_YUV2BGR_NV12 reads).
    assert labelled == full_range and abs(y - expected) <= 4


def test_events_and_runtime_error_when_the_camera_goes(context, cameras):
    cameras.add("pycap")
    device = next(d for d in context.devices() if d.unique_id == "pipewire-pycap")
    session = context.capture_session()
    events, gone = [], threading.Event()
    session.add_event_callback(lambda event, message: (events.append((event, message)),
                                                       event is SessionEvent.RUNTIME_ERROR and gone.set()))
    output = VideoDataOutput()
    first = threading.Event()
    output.set_frame_callback(lambda frame: first.set())
    session.set_input(device)
    session.add_output(output)
    session.start_running()
    assert first.wait(10)
    cameras.remove("pycap")
    assert gone.wait(10)
    assert not session.is_running
    assert events[0] == (SessionEvent.STARTED, None)
    assert events[1][0] is SessionEvent.RUNTIME_ERROR and "disconnected" in events[1][1]
    # STOPPED means stopped as asked (the header): it follows neither the error nor the app's stop after it.
    session.stop_running()
    time.sleep(0.3)
    assert [event for event, _ in events] == [SessionEvent.STARTED, SessionEvent.RUNTIME_ERROR], events
    session.close()


def test_bad_configuration_is_refused(context):
    session = context.capture_session()
    with pytest.raises(ocellus.WrongState, match="no input"):
        session.start_running()
    session.set_input(camera(context))
    assert not session.can_add_output(VideoDataOutput("Y41P"))
    with pytest.raises(ocellus.InvalidArgument, match=r"123x45 \(41:15\) cannot be cut from any size it streams \(1920x1080, "):
        session.add_output(VideoDataOutput("NV12", 123, 45))
    session.begin_configuration()
    session.add_output(VideoDataOutput("YUYV"))
    session.add_output(VideoDataOutput("NV12", 320, 240))     # converted and scaled from the same stream
    session.commit_configuration()
    session.begin_configuration()
    session.add_output(VideoDataOutput("NV12", 4000, 3000))   # larger than any format
    with pytest.raises(ocellus.InvalidArgument, match="no format that serves every output"):
        session.commit_configuration()
    session.close()


def test_exception_in_frame_callback_is_reported(context, monkeypatch):
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", lambda args: reported.append(args.exc_value))
    session = context.capture_session()
    output = VideoDataOutput("YUYV", 640, 480)
    output.set_frame_callback(lambda frame: 1 / 0)
    session.set_input(camera(context))
    session.add_output(output)
    with session.running():
        deadline = time.monotonic() + 10
        while not reported and time.monotonic() < deadline:
            time.sleep(0.01)
    assert reported and isinstance(reported[0], ZeroDivisionError)
    session.close()


RAISER = """
import sys, threading, time, ocellus
with ocellus.Context("org.ocellus.test.raiser") as ctx:
    session = ctx.capture_session()
    output = ocellus.VideoDataOutput("YUYV", 640, 480)
    calls = [0]
    def on_frame(frame):
        calls[0] += 1
        raise KeyError("the user's own error")
    output.set_frame_callback(on_frame)
    session.set_input(next(d for d in ctx.devices() if d.unique_id == "usb-1d6b:0110-VCAM-0000"))
    session.add_output(output)
    with session.running():
        deadline = time.monotonic() + 10
        while calls[0] < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
print("calls", calls[0], flush=True)
"""


def test_callback_exceptions_reach_cpythons_own_unraisable_hook():
    # No hook replaced: what every user sees.
    done = subprocess.run([sys.executable, "-c", RAISER], capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(Path(ocellus.__file__).parents[1])})
    assert done.returncode == 0, done.stderr
    assert "Exception ignored in Ocellus callback" in done.stderr
    assert "KeyError: \"the user's own error\"" in done.stderr and "in on_frame" in done.stderr
    assert "TypeError" not in done.stderr


STREAMER = """
import sys, threading, ocellus
with ocellus.Context("org.ocellus.test.multitask") as ctx:
    camera = next(d for d in ctx.devices() if d.unique_id == sys.argv[1])
    assert camera.supports_multitasking
    session = ctx.capture_session()
    output = ocellus.VideoDataOutput("YUYV", 640, 480)
    got = threading.Event()
    count = [0]
    def on_frame(frame):
        count[0] += 1
        if count[0] >= 15:
            got.set()
    output.set_frame_callback(on_frame)
    session.set_input(camera)
    session.add_output(output)
    print("started", flush=True)
    with session.running():
        assert got.wait(20)
    print("frames", count[0], flush=True)
"""


def test_two_processes_stream_one_virtual_camera_at_once():
    import os
    import subprocess
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(__file__), ".."))
    processes = [subprocess.Popen([sys.executable, "-c", STREAMER, VCAM0], env=env, stdout=subprocess.PIPE, text=True)
                 for _ in range(2)]
    outputs = [p.communicate(timeout=60)[0] for p in processes]
    assert [p.returncode for p in processes] == [0, 0], outputs
    assert all("frames" in out for out in outputs)


def test_a_slow_consumer_gets_drops_counted_not_queued(context):
    session = context.capture_session()
    output = VideoDataOutput("YUYV", 640, 480)
    calls = []

    def slow(frame):
        calls.append(frame.sequence)
        time.sleep(0.2)   # six frame intervals at 30 fps

    output.set_frame_callback(slow)
    session.set_input(camera(context))
    session.add_output(output)
    began = time.monotonic()
    with session.running():   # frames may flow before the start returns: the whole run is timed
        time.sleep(2)
    elapsed = time.monotonic() - began
    dropped = output.dropped_frames
    # Never more calls than the handler had time for (one every 0.2 s), and none after the stop.
    assert output.delivered_frames == len(calls) <= elapsed / 0.2 + 1, (len(calls), elapsed)
    assert dropped["late"] + dropped["out_of_buffers"] > 0, dropped
    assert dropped["corrupt"] == 0
    session.close()


def test_presets_choose_the_stream_size(context):
    cam = camera(context)
    assert ocellus.device_supports_preset(cam, ocellus.Preset.HD_1280X720)
    assert not ocellus.device_supports_preset(cam, ocellus.Preset.UHD_3840X2160)
    session = context.capture_session()
    session.set_input(cam)
    with pytest.raises(ocellus.InvalidArgument, match="does not support"):
        session.set_preset(ocellus.Preset.UHD_3840X2160)
    session.set_preset(ocellus.Preset.HD_1280X720)
    output = VideoDataOutput()   # no pinned size: the preset decides
    sizes, done = [], threading.Event()
    output.set_frame_callback(lambda frame: (sizes.append((frame.width, frame.height)), done.set()))
    session.add_output(output)
    with session.running():
        assert done.wait(10)
    assert sizes[0] == (1280, 720)
    session.close()


def test_daemon_going_away_is_a_runtime_error(private_daemon):
    with ocellus.Context("org.ocellus.test.capture", pipewire_remote=private_daemon.remote) as ctx:
        (cam,) = [d for d in ctx.devices() if d.type is not ocellus.DeviceType.MICROPHONE]
        session = ctx.capture_session()
        errors, first = [], threading.Event()
        gone = threading.Event()
        session.add_event_callback(lambda event, message: event is SessionEvent.RUNTIME_ERROR
                                   and (errors.append(message), gone.set()))
        output = VideoDataOutput()
        output.set_frame_callback(lambda frame: first.set())
        session.set_input(cam)
        session.add_output(output)
        session.start_running()
        assert first.wait(10)
        private_daemon.kill_daemon()
        assert gone.wait(10)
        assert not session.is_running
        assert "went away" in errors[0] or "disconnected" in errors[0]
        session.close()


def test_rotated_and_mirrored_output_pixels(context):
    session = context.capture_session()
    output = VideoDataOutput("I420", 640, 480)
    assert output.is_rotation_angle_supported(90) and not output.is_rotation_angle_supported(45)
    with pytest.raises(ocellus.InvalidArgument, match="multiple of 90"):
        output.set_rotation_angle(45)
    mjpeg = VideoDataOutput("MJPG")
    assert not mjpeg.is_rotation_angle_supported(90)
    output.set_rotation_angle(90)
    output.set_mirrored(True)
    frames, done = [], threading.Event()

    def on_frame(frame):
        frames.append((frame.width, frame.height, frame.planes[0].copy()))
        done.set()

    output.set_frame_callback(on_frame)
    session.set_input(camera(context))
    session.add_output(output)
    with session.running():
        assert done.wait(10)
    width, height, luma = frames[0]
    assert (width, height) == (480, 640)          # a quarter turn swaps the sides
    # The camera's ramp ran left to right; turned clockwise it runs top to bottom, and a
    # flip about the vertical axis keeps it there: compare a column against the ramp.
    column = luma[:, 10].astype(int)
    expected = 16 + np.arange(640) * 219 // 640
    assert np.count_nonzero((np.abs(column - expected) > 2) & (column != 235)) < 40
    session.close()


def strip_exif(jpeg):
    """The JPEG without its APP1 Exif segment."""
    position, kept = 2, jpeg[:2]
    while jpeg[position] == 0xFF and 0xE0 <= jpeg[position + 1] <= 0xEF:
        length = jpeg[position + 2] << 8 | jpeg[position + 3]
        if jpeg[position + 1] != 0xE1:
            kept += jpeg[position:position + 2 + length]
        position += 2 + length
    return kept + jpeg[position:]


def exif_orientation(jpeg):
    """EXIF Orientation read with Pillow-free parsing: the IFD0 entry 0x0112 (Intel byte order)."""
    start = jpeg.index(b"Exif\x00\x00") + 6
    tiff = jpeg[start:]
    assert tiff[:2] == b"II"
    ifd = int.from_bytes(tiff[4:8], "little")
    for index in range(int.from_bytes(tiff[ifd:ifd + 2], "little")):
        entry = tiff[ifd + 2 + 12 * index:ifd + 14 + 12 * index]
        if int.from_bytes(entry[:2], "little") == 0x0112:
            return int.from_bytes(entry[8:10], "little")
    return None


def test_photos_back_to_back_keep_the_cameras_jpeg(context, cameras, tmp_path):
    cameras.add("pyphoto", "--formats", "MJPG", "--sizes", "640x480")
    session = context.capture_session()
    frames, lock = {}, threading.Lock()
    mjpeg = VideoDataOutput("MJPG")

    def keep(frame):
        with lock:
            frames[frame.sequence] = bytes(frame.planes[0].reshape(-1))

    mjpeg.set_frame_callback(keep)
    photo = ocellus.PhotoOutput(rotation_angle=90)
    session.set_input(camera(context, "pipewire-pyphoto"))
    session.add_output(mjpeg)
    session.add_photo_output(photo)
    with pytest.raises(ocellus.WrongState):
        photo.capture()   # not running yet
    with session.running():
        requests = [photo.capture() for _ in range(3)] + [photo.capture(path=str(tmp_path / "p.jpg"))]
        photos = [request.result(timeout=10) for request in requests]
        turned = photo.capture(apply_rotation_to_pixels=True).result(timeout=10)
    session.close()
    sequences = [p.sequence for p in photos]
    assert sequences == sorted(set(sequences)), "successive frames, in order"
    for p in photos:
        assert (p.width, p.height, p.orientation) == (640, 480, 6) and exif_orientation(p.data) == 6
        assert strip_exif(p.data) == frames[p.sequence], "the camera's JPEG, only EXIF added"
    assert photos[-1].path == str(tmp_path / "p.jpg") and (tmp_path / "p.jpg").read_bytes() == photos[-1].data
    assert (turned.width, turned.height, turned.orientation) == (480, 640, 1) and exif_orientation(turned.data) == 1
    # The camera's JPEG with EXIF put in, and one re-encoded: both valid to exiftool.
    (tmp_path / "turned.jpg").write_bytes(turned.data)
    assert_valid_exif(tmp_path / "p.jpg", 640, 480)
    assert_valid_exif(tmp_path / "turned.jpg", 480, 640)


def test_photo_requests_fail_cleanly(context, tmp_path):
    session = context.capture_session()
    photo = ocellus.PhotoOutput()
    with pytest.raises(ocellus.WrongState):
        photo.capture()   # in no session
    with pytest.raises(ocellus.InvalidArgument):
        photo.set_rotation_angle(45)
    session.set_input(camera(context))
    session.add_photo_output(photo)
    with pytest.raises(ocellus.WrongState):
        session.add_photo_output(photo)
    with session.running():
        with pytest.raises(ocellus.InvalidArgument):
            photo.capture(quality=101)
        bad_path = photo.capture(path=str(tmp_path / "missing" / "p.jpg"))
        with pytest.raises(ocellus.IOFailure, match="cannot write"):
            bad_path.result(timeout=10)
        assert photo.capture().result(timeout=10).data[:2] == b"\xff\xd8"   # the output still works
        photo.set_mirrored(True)
        assert photo.capture().result(timeout=10).orientation == 2   # mirrored, not turned
    session.remove_photo_output(photo)
    with pytest.raises(ocellus.NotFound):
        session.remove_photo_output(photo)
    photo.close()
    session.close()


def test_h264_camera_is_decoded_for_outputs_and_photos(context, cameras):
    """A UVC-style H.264 camera (IDR with SPS/PPS every 8 frames, P frames between): outputs get
    decoded NV12 from the first IDR on, a raw output gets the access units, a photo waits for an IDR."""
    cameras.add("pyh264", "--formats", "H264", "--sizes", "640x480")
    session = context.capture_session()
    decoded, units, lock = [], [], threading.Lock()
    nv12, raw = VideoDataOutput("NV12", 640, 480), VideoDataOutput()

    def on_nv12(frame):
        row = frame.planes[0][100].astype(int)
        with lock:
            # x264 is lossy: the ramp within a few levels, away from the moving bar.
            decoded.append(np.count_nonzero((np.abs(row - ramp(640)) > 6) & (row < 200)) < 64)

    def on_raw(frame):
        with lock:
            units.append((frame.pixel_format, bytes(frame.planes[0].reshape(-1)[:4])))

    # At 10 fps from a 30 fps camera, two frames in three are not delivered, yet the decoder
    # must see them: the moving bar sits where the frame's sequence number puts it.
    thinned, bars = VideoDataOutput("NV12", 320, 240, max_frame_rate=10), []

    def on_thinned(frame):
        row = frame.planes[0][100].astype(int)
        with lock:
            bars.append((frame.sequence % 8 * 40, int(np.argmax(row >= 225))))

    nv12.set_frame_callback(on_nv12)
    raw.set_frame_callback(on_raw)
    thinned.set_frame_callback(on_thinned)
    photo = ocellus.PhotoOutput()
    session.set_input(camera(context, "pipewire-pyh264"))
    session.add_output(nv12)
    session.add_output(raw)
    session.add_output(thinned)
    session.add_photo_output(photo)
    with session.running():
        picture = photo.capture().result(timeout=10)
        deadline = time.monotonic() + 10
        while len(decoded) < 20 and time.monotonic() < deadline:
            time.sleep(0.01)
    session.close()
    assert len(decoded) >= 20 and all(decoded), "decoded frames show the camera's ramp"
    assert len(bars) >= 5 and all(abs(expected - found) <= 3 for expected, found in bars), bars
    assert units and all(f == "H264" and start[:3] in (b"\0\0\1", b"\0\0\0") for f, start in units), "Annex B, as sent"
    # Frames before the first IDR cannot be decoded, yet nothing is corrupt: they count as a discontinuity.
    dropped = nv12.dropped_frames
    assert dropped["corrupt"] == 0 and dropped["discontinuity"] <= 8, dict(dropped)
    assert (picture.width, picture.height) == (640, 480) and picture.data[:2] == b"\xff\xd8"



def test_h264_output_that_falls_behind_catches_up_at_the_next_idr(context, cameras):
    """A slow callback makes frames late: they are dropped (counted as late) with the pictures that
    depend on them, never decoded with a missing reference — every delivered frame is right."""
    cameras.add("pyh264slow", "--formats", "H264", "--sizes", "640x480")
    session = context.capture_session()
    output, bars, done = VideoDataOutput("NV12", 320, 240), [], threading.Event()

    def on_frame(frame):
        row = frame.planes[0][100].astype(int)
        expected = frame.sequence % 8 * 40
        # Bright columns away from the bar (and the ramp's bright end): a ghost from a wrong reference.
        stray = [x for x in np.flatnonzero(row >= 225) if not expected - 3 <= x <= expected + 23 and x < 300]
        bars.append((expected, int(np.argmax(row >= 225)) if not stray else -1))
        if len(bars) % 4 == 0:
            time.sleep(0.2)   # six frame intervals: the next frames arrive late
        if len(bars) >= 12:
            done.set()

    output.set_frame_callback(on_frame)
    session.set_input(camera(context, "pipewire-pyh264slow"))
    session.add_output(output)
    with session.running():
        assert done.wait(20)
    session.close()
    assert all(abs(expected - found) <= 3 for expected, found in bars), bars
    # PipeWire 0.3 queues what the slow callback holds up (frames arrive late); 1.4 has the camera
    # skip them (a gap while this output held the stream: out of buffers). Either way frames drop.
    dropped = output.dropped_frames
    assert dropped["late"] + dropped["out_of_buffers"] > 0, dict(dropped)


def test_a_camera_that_stalls_is_an_interruption_that_ends_when_frames_return(context, cameras):
    cameras.add("pystall")
    device = next(d for d in context.devices() if d.unique_id == "pipewire-pystall")
    session = context.capture_session()
    events, stalled, recovered = [], threading.Event(), threading.Event()

    def on_event(event, message):
        events.append((event, message))
        if event is SessionEvent.INTERRUPTED:
            stalled.set()
        if event is SessionEvent.INTERRUPTION_ENDED:
            recovered.set()

    session.add_event_callback(on_event)
    output = VideoDataOutput()
    frames = []
    output.set_frame_callback(lambda frame: frames.append(frame.sequence))
    session.set_input(device)
    session.add_output(output)
    session.start_running()
    deadline = time.monotonic() + 10
    while not frames and time.monotonic() < deadline:
        time.sleep(0.01)
    assert frames
    cameras.signal("pystall", "STOP")
    stopped_at = time.monotonic()
    assert stalled.wait(8), events
    assert time.monotonic() - stopped_at < 5   # ten frame intervals, within 1-3 s, plus the check interval
    interrupted = next(message for event, message in events if event is SessionEvent.INTERRUPTED)
    assert "stalled" in interrupted and "pipewire-pystall" in interrupted
    assert session.is_running
    before = len(frames)
    cameras.signal("pystall", "CONT")
    assert recovered.wait(8), events
    deadline = time.monotonic() + 5
    while len(frames) < before + 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(frames) >= before + 5   # streaming resumed
    assert SessionEvent.RUNTIME_ERROR not in [event for event, _ in events]
    session.close()


def test_cli_stream_and_snap_end_with_an_error_when_the_camera_stalls(cameras, tmp_path):
    cameras.add("clistall")
    cli = os.environ.get("OCELLUS_CLI", "ocellus")
    stream = subprocess.Popen([cli, "stream", "pipewire-clistall", "--frames", "100000", "--json"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)
    cameras.signal("clistall", "STOP")
    try:
        out, err = stream.communicate(timeout=15)
    finally:
        stream.kill()
    assert stream.returncode != 0 and "stalled" in err
    assert "waiting for it to recover" not in err and "the command stops" in err   # it exits: it says so
    assert json.loads(out)["frames"] > 0   # the summary still says what arrived
    snap = subprocess.run([cli, "snap", "pipewire-clistall", "-o", str(tmp_path / "p.jpg")],
                          capture_output=True, text=True, timeout=20)
    assert snap.returncode != 0 and "stalled" in snap.stderr
    cameras.signal("clistall", "CONT")


def stream_until(context, output, done, timeout=10):
    """Runs a session on vcam0 feeding `output` until `done()` (or `timeout` seconds), then closes it."""
    session = context.capture_session()
    session.set_input(camera(context))
    session.add_output(output)
    with session.running():
        deadline = time.monotonic() + timeout
        while not done() and time.monotonic() < deadline:
            time.sleep(0.01)
    session.close()


# The name asked for is the name read back; V4L2's codes are taken too, and answered by the everyday name.
@pytest.mark.parametrize("asked, name, bytes_per_pixel", [("BGRA", "BGRA", 4), ("RGBA", "RGBA", 4), ("BGR24", "BGR24", 3),
                                                          ("RGB24", "RGB24", 3), ("GRAY8", "GRAY8", 1), ("i420", "I420", 1),
                                                          ("AR24", "BGRA", 4), ("BGR3", "BGR24", 3), ("GREY", "GRAY8", 1)])
def test_outputs_take_formats_by_their_everyday_names(context, asked, name, bytes_per_pixel):
    output = VideoDataOutput(asked, 640, 480)
    seen = []
    output.set_frame_callback(lambda frame: seen.append((frame.pixel_format, frame.planes[0].shape)))
    stream_until(context, output, lambda: seen)
    assert seen and seen[0] == (name, (480, 640 * bytes_per_pixel))


def test_unknown_pixel_format_names_say_what_is_known():
    with pytest.raises(ocellus.InvalidArgument, match="unknown pixel format BGRX2; known: NV12, I420, YUYV"):
        VideoDataOutput("BGRX2")
    assert ocellus.pixel_format_code("mjpeg") == ocellus.pixel_format_code("MJPG")


def test_one_frame_in_three_lines():
    # The README's example: the system preferred camera as a NumPy image OpenCV takes as it is.
    with ocellus.open_camera() as camera:
        image = camera.read()
    assert image.shape == (1080, 1920, 3) and image.dtype == np.uint8 and not image.flags.writeable


def test_pulled_frames_iteration_polling_and_asyncio(context):
    import asyncio
    import select

    session = context.capture_session()
    output = VideoDataOutput("NV12", 640, 480)
    session.set_input(camera(context))
    session.add_output(output)
    with pytest.raises(ocellus.WrongState, match="not part of a running session"):
        output.read()   # not running: nothing can come, so no wait
    with session.running():
        frame = output.read(timeout=5)
        image = frame.image
        del frame   # the image keeps the frame's copy alive
        assert image.shape == (720, 640) and not image.flags.writeable
        assert select.select([output.fileno()], [], [], 5)[0], "the descriptor becomes readable for the next frame"
        sequences = []
        for pulled in output:
            sequences.append(pulled.sequence)
            if len(sequences) == 3:
                break
        assert sequences == sorted(set(sequences))

        async def three():
            seen = []
            async for pulled in output:
                seen.append(pulled.sequence)
                if len(seen) == 3:
                    return seen
        seen = asyncio.run(asyncio.wait_for(three(), 10))
        assert seen == sorted(set(seen)) and seen[0] > sequences[-1]
        # A slow reader gets the newest frame, not a backlog.
        time.sleep(0.5)
        first, second = output.read(5), output.read(5)
        assert second.sequence == first.sequence + 1 or second.sequence > first.sequence
    session.close()


def test_opencv_shapes_of_every_layout(context):
    shapes = {"YUYV": (480, 640, 2), "BGRA": (480, 640, 4), "BGR24": (480, 640, 3), "GRAY8": (480, 640),
              "I420": (720, 640), "NV12": (720, 640)}
    session = context.capture_session()
    outputs = {name: VideoDataOutput(name, 640, 480) for name in shapes}
    session.set_input(camera(context))
    for output in outputs.values():
        session.add_output(output)
    with session.running():
        images = {name: output.read(timeout=10).image for name, output in outputs.items()}
    session.close()
    for name, shape in shapes.items():
        assert images[name].shape == shape, name
    # The same scene in every layout (frames a few apart, so compared over the whole picture):
    # BGR24's mean grey level is close to GRAY8's mean luma.
    assert abs(float(images["BGR24"].mean()) - float(images["GRAY8"].mean())) < 40


def test_a_frame_kept_after_its_callback_raises(context):
    kept = []
    output = VideoDataOutput("YUYV", 640, 480)
    output.set_frame_callback(lambda frame: kept.append(frame) if not kept else None)
    stream_until(context, output, lambda: kept)
    with pytest.raises(ocellus.WrongState, match="no longer valid"):
        kept[0].planes


def test_apps_are_named_in_pipewire():
    # wpctl status, pw-top and session-manager rules tell apps apart by these.
    with ocellus.Context("org.example.PhotoBooth") as ctx:
        session = ctx.capture_session()
        output = VideoDataOutput("YUYV", 640, 480)
        session.set_input(camera(ctx))
        session.add_output(output)
        with session.running():
            output.read(timeout=5)
            dump = json.loads(subprocess.run(["pw-dump"], capture_output=True, text=True, check=True).stdout)
        session.close()
    ours = [o for o in dump if o.get("info", {}).get("props", {}).get("application.id") == "org.example.PhotoBooth"]
    clients = [o["info"]["props"] for o in ours if o["type"].endswith(":Client")]
    nodes = [o["info"]["props"] for o in ours if o["type"].endswith(":Node")]
    assert clients and all(props["application.name"] == "PhotoBooth" for props in clients)
    assert len(nodes) == 1
    assert nodes[0]["node.name"] == "ocellus.org.example.PhotoBooth"
    assert nodes[0]["node.description"] == "PhotoBooth: Virtual Camera 0"


def test_depth_outputs_on_a_camera_without_depth_are_refused_and_say_why(context):
    """The test bed's virtual cameras have no depth: no depth formats, and a depth output
    cannot join (the depth paths run on real uvcvideo in Tests/gadget/test_depth.py)."""
    device = camera(context)
    assert device.depth_formats == [] and device.depth_formats_beside(device.formats[0]) == []
    with pytest.raises(ocellus.InvalidArgument, match="not a depth map format"):
        ocellus.DepthDataOutput("YUYV")
    session = context.capture_session()
    session.set_input(device)
    depth = ocellus.DepthDataOutput()
    assert not session.can_add_depth_output(depth)
    with pytest.raises(ocellus.InvalidArgument, match="not a depth camera"):
        session.add_depth_output(depth)
    picture = VideoDataOutput()
    synchronizer = ocellus.OutputSynchronizer(picture, depth)
    with pytest.raises(ocellus.WrongState, match="synchronized"):
        picture.set_frame_callback(lambda frame: None)
    with pytest.raises(ocellus.WrongState, match="already belongs to a synchronizer"):
        ocellus.OutputSynchronizer(picture, ocellus.DepthDataOutput())
    synchronizer.close()
    picture.set_frame_callback(lambda frame: None)   # its own again once the synchronizer is gone
    session.add_output(picture)
    with session.running():
        with pytest.raises(ocellus.WrongState, match="no depth output"):
            session.active_depth_format
    session.close()


def test_an_unplugged_camera_raises_disconnected_from_read_and_from_iteration(context, cameras):
    # Issue 25: read() said WrongState ("not part of a running session") and iteration ended silently.
    cameras.add("pyunplug")
    device = camera(context, "pipewire-pyunplug")
    with ocellus.open_camera("NV12", camera=device, context=context) as reader:
        reader.read()
        cameras.remove("pyunplug")
        with pytest.raises(ocellus.Disconnected, match="disconnected"):
            for _ in range(100):
                reader.read(timeout=5)
    cameras.add("pyunplug2")
    device = camera(context, "pipewire-pyunplug2")
    with ocellus.open_camera("NV12", camera=device, context=context) as reader:
        with pytest.raises(ocellus.Disconnected):
            for count, _ in enumerate(reader):
                if count == 3:
                    cameras.remove("pyunplug2")


def test_a_slow_callback_holds_up_only_its_own_output(context):
    """Two outputs on one camera: one callback blocks 2 s, the other keeps its frames meanwhile,
    and the blocked one drops (counted as late) rather than queueing; nobody is told the camera stalled."""
    session = context.capture_session()
    events = []
    session.add_event_callback(lambda event, message: events.append((event, message)))
    slow, quick = VideoDataOutput("YUYV", 640, 480), VideoDataOutput("YUYV", 640, 480)
    blocked, quick_times, slow_seen = threading.Event(), [], []

    def slow_frame(frame):
        slow_seen.append(frame.sequence)
        if len(slow_seen) == 3:
            blocked.set()
            time.sleep(2.0)
            blocked.clear()

    slow.set_frame_callback(slow_frame)
    quick.set_frame_callback(lambda frame: quick_times.append(time.monotonic()))
    session.set_input(camera(context))
    session.add_output(slow)
    session.add_output(quick)
    with session.running():
        assert blocked.wait(10)
        start = time.monotonic()
        while blocked.is_set():
            time.sleep(0.02)
        end = time.monotonic()
        time.sleep(0.3)
    session.close()
    during = [t for t in quick_times if start + 0.1 <= t <= end - 0.1]
    # The test bed's camera runs at 30 fps: ~54 frames in the 1.8 s window.
    assert len(during) >= 25, f"the quick output got {len(during)} frames while the other callback blocked"
    assert slow.dropped_frames["late"] >= 25, slow.dropped_frames
    assert [event for event, _ in events if event in (SessionEvent.INTERRUPTED, SessionEvent.RUNTIME_ERROR)] == [], events


def test_a_slow_callback_is_not_reported_as_a_stalled_camera(context):
    # A callback that blocks 2 s holds its stream up; the camera is fine and must not be called stalled.
    session = context.capture_session()
    events = []
    session.add_event_callback(lambda event, message: events.append((event, message)))
    output = VideoDataOutput()
    seen = []

    def slow(frame):
        seen.append(frame.sequence)
        if len(seen) == 5:
            time.sleep(2.0)

    output.set_frame_callback(slow)
    session.set_input(camera(context))
    session.add_output(output)
    with session.running():
        deadline = time.monotonic() + 15
        while len(seen) < 40 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session.is_running
    session.close()
    assert len(seen) >= 40
    assert [event for event, _ in events if event in (SessionEvent.INTERRUPTED, SessionEvent.RUNTIME_ERROR)] == [], events


def test_a_camera_off_usb_has_no_hardware_cost(context):
    """The test bed's virtual camera is on no USB bus: no cost, and no error (USB cameras' costs
    are tested against the real kernel in Tests/gadget/test_bus_cost.py)."""
    session = context.capture_session()
    assert session.hardware_cost() is None, "no input"
    session.set_input(camera(context, "usb-1d6b:0110-VCAM-0000"))
    assert session.hardware_cost() is None
    session.close()



def test_two_cameras_frames_are_paired_by_capture_time(context):
    """Two cameras, a session each, one synchronizer: every pair was captured within half the
    shorter frame interval (by the frames' own capture times), and at 15 fps beside 30 every
    slower frame pairs while every other faster one is counted unmatched, never queued."""
    first, second = VideoDataOutput("NV12", 320, 240), VideoDataOutput("NV12", 320, 240, max_frame_rate=15)
    synchronizer = ocellus.OutputSynchronizer(first, second)
    pairs, lock = [], threading.Lock()

    def on_pair(pair):
        with lock:
            pairs.append((pair[0].timestamp_ns, pair[1].timestamp_ns, pair[0].width))
    synchronizer.set_callback(on_pair)
    sessions = []
    for unique_id, output in (("usb-1d6b:0110-VCAM-0000", first), ("usb-1d6b:0111-VCAM-0001", second)):
        session = context.capture_session()
        session.set_input(camera(context, unique_id))
        session.add_output(output)
        session.start_running()
        sessions.append(session)
    time.sleep(2)
    for session in sessions:
        session.stop_running()
        session.close()
    synchronizer.set_callback(None)
    with lock:
        seen = list(pairs)
    assert len(seen) >= 20 and all(abs(a - b) <= 33_333_333 // 2 for a, b, _ in seen), seen[:5]
    unmatched = synchronizer.unmatched_frames
    assert set(unmatched) == {"first", "second"}
    # 30 frames a second beside 15: about as many of the faster camera's frames unmatched as paired.
    assert 0.5 * len(seen) <= unmatched["first"] <= 1.6 * len(seen) + 3 and unmatched["second"] <= 3, (len(seen), unmatched)
    with pytest.raises(ocellus.InvalidArgument):
        ocellus.OutputSynchronizer(first, first)
