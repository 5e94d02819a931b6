"""Two apps on one PipeWire camera at different sizes (issue 46), on the real test bed: a camera
already streaming for another app runs that app's format, whatever a second one offers. The
second app is served from it when it can be (scaled, converted) and told so with FORMAT_FALLBACK;
when it cannot, it is refused with the format in use and why — never handed frames of a size it
did not agree, and the first app streams on undisturbed."""

import json
import os
import subprocess
import threading
import time

import pytest

import ocellus
from ocellus import SessionEvent, VideoDataOutput

CLI = os.environ.get("OCELLUS_CLI", "ocellus")


@pytest.fixture
def context():
    with ocellus.Context("org.ocellus.test.shared") as ctx:
        yield ctx


@pytest.fixture
def first_app(cameras):
    """Another process streaming the camera at 1920x1080 (YUYV), for 8 seconds."""
    cameras.add("shared", "--formats", "YUY2", "--sizes", "1920x1080,1280x720,640x480", "--fps", "30")
    process = subprocess.Popen([CLI, "stream", "pipewire-shared", "--format", "I420", "--size", "1920x1080",
                                "--seconds", "8", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    yield "pipewire-shared", process
    process.kill()
    process.wait()


def wait_until_streaming(camera, timeout=10):
    """Until the camera's node runs (the first app's stream agreed its format)."""
    deadline = time.monotonic() + timeout
    name = camera.removeprefix("pipewire-")
    while time.monotonic() < deadline:
        nodes = json.loads(subprocess.run(["pw-dump"], capture_output=True, text=True, check=True).stdout)
        if any(node.get("info", {}).get("props", {}).get("node.name") == name and node["info"].get("state") == "running"
               for node in nodes):
            return
        time.sleep(0.1)
    raise AssertionError(f"{camera} never ran for the first app")


def test_a_second_app_at_a_smaller_size_of_the_same_shape_is_served_from_the_running_format(context, first_app):
    camera, process = first_app
    wait_until_streaming(camera)
    device = next(d for d in context.devices() if d.unique_id == camera)
    session = context.capture_session()
    events = []
    session.add_event_callback(lambda event, message: events.append((event, message)))
    output = VideoDataOutput("BGRA", 640, 360)
    sizes, enough = [], threading.Event()
    output.set_frame_callback(lambda frame: (sizes.append((frame.width, frame.height)), len(sizes) >= 20 and enough.set()))
    session.set_input(device)
    session.add_output(output)
    session.start_running()
    assert enough.wait(10), events
    session.stop_running()
    session.close()
    assert set(sizes) == {(640, 360)}
    fallbacks = [message for event, message in events if event is SessionEvent.FORMAT_FALLBACK]
    assert fallbacks and "1920x1080 for another app" in fallbacks[0], events
    # The first app is not disturbed: every frame, at its size.
    out, err = process.communicate(timeout=30)
    summary = json.loads(out.strip().splitlines()[-1])
    assert process.returncode == 0, err
    assert (summary["width"], summary["height"]) == (1920, 1080) and summary["frames"] >= 200 and summary["corrupt"] == 0


def test_a_second_app_at_another_shape_is_refused_with_the_format_in_use(first_app):
    camera, process = first_app
    wait_until_streaming(camera)
    run = subprocess.run([CLI, "stream", camera, "--format", "I420", "--size", "640x480", "--seconds", "1", "--json"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert "YUYV 1920x1080 for another app" in run.stderr and "640x480" in run.stderr, run.stderr
    assert process.poll() is None, "the first app streams on"


def test_the_refusal_is_busy_in_the_api(context, first_app):
    camera, _ = first_app
    wait_until_streaming(camera)
    device = next(d for d in context.devices() if d.unique_id == camera)
    session = context.capture_session()
    session.set_input(device)
    session.add_output(VideoDataOutput("NV12", 320, 240))
    with pytest.raises(ocellus.Busy, match="for another app"):
        session.start_running()
    session.close()
