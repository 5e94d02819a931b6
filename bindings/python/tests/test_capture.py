"""Capture sessions from Python on the real daemon: NumPy views of the virtual camera's pattern."""

import sys
import threading
import time

import numpy as np
import pytest

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


def test_mjpeg_camera_gives_full_range_nv12(context, cameras):
    cameras.add("pyjpeg", "--formats", "MJPG", "--sizes", "640x480")
    session = context.capture_session()
    output = VideoDataOutput("NV12", 640, 480)
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
    full_range, y = seen[0]
    # The virtual camera compresses its ramp's samples as they are (125 at x = 320); decoded
    # JPEG is labelled full range, as JPEG defines it.
    assert full_range and abs(y - 125) <= 4


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
    session.close()


def test_bad_configuration_is_refused(context):
    session = context.capture_session()
    with pytest.raises(ocellus.WrongState, match="no input"):
        session.start_running()
    session.set_input(camera(context))
    assert not session.can_add_output(VideoDataOutput("Y41P"))
    with pytest.raises(ocellus.InvalidArgument, match="aspect ratio"):
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
    with session.running():
        time.sleep(2)
    dropped = output.dropped_frames
    assert output.delivered_frames == len(calls) <= 12   # never more than the camera could be served
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
