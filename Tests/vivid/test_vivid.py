"""The raw V4L2 backend against the kernel's vivid driver, inside the VM
(Tests/vivid/run.sh): no PipeWire daemon, two vivid devices, the second with a
metadata node that must not show up as a camera."""

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))
import ocellus  # noqa: E402

CLI = os.environ["OCELLUS_CLI"]
UNBIND = "/sys/bus/platform/drivers/vivid/unbind"
BIND = "/sys/bus/platform/drivers/vivid/bind"


def listing():
    result = subprocess.run([CLI, "list", "--json"], capture_output=True, text=True, check=True, timeout=60)
    assert "PipeWire" in result.stderr  # the daemon's absence is reported, not fatal
    return {d["unique_id"]: d for d in json.loads(result.stdout)}


def test_lists_both_vivid_devices_and_skips_the_metadata_node():
    devices = listing()
    assert sorted(devices) == ["v4l2-platform:vivid-000", "v4l2-platform:vivid-001"]
    for device in devices.values():
        assert device["backend"] == "v4l2" and device["type"] == "virtual_camera" and device["connected"]


def test_formats_with_frame_rates():
    formats = listing()["v4l2-platform:vivid-000"]["formats"]
    fourccs = {f["pixel_format"] for f in formats}
    assert {"YUYV", "NV12", "RGB24"} <= fourccs and "MJPEG" not in fourccs
    vga = [f for f in formats if f["pixel_format"] == "YUYV" and (f["width"], f["height"]) == (640, 360)]
    assert vga and max(vga[0]["frame_rates"]) >= 30


def test_context_without_pipewire_reports_it_and_lists_v4l2():
    with ocellus.Context("org.ocellus.test.vivid") as ctx:
        assert "PipeWire" in ctx.backend_problem(ocellus.Backend.PIPEWIRE)
        assert ctx.backend_problem(ocellus.Backend.V4L2) is None
        assert {d.unique_id for d in ctx.devices()} == {"v4l2-platform:vivid-000", "v4l2-platform:vivid-001"}


def read_event(process, timeout=30):
    """The next added/removed line (preferred-camera changes are printed too). Lines are read by a
    thread: several can arrive in one read, which select() on the pipe would not see."""
    if not hasattr(process, "lines"):
        process.lines = queue.Queue()
        threading.Thread(target=lambda: [process.lines.put(line) for line in process.stdout], daemon=True).start()
    deadline = time.monotonic() + timeout
    while True:
        try:
            event = json.loads(process.lines.get(timeout=max(0, deadline - time.monotonic())))
        except queue.Empty:
            raise AssertionError("no hotplug event in time") from None
        if event["event"] in ("added", "removed"):
            return event


def test_unbind_and_rebind_are_hotplug_with_a_stable_id():
    watcher = subprocess.Popen([CLI, "watch", "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # The note about PipeWire's absence comes once the context runs (uevents heard from then on).
        assert "PipeWire" in watcher.stderr.readline()
        # First the devices present, each as an initial `added` event.
        present = [read_event(watcher), read_event(watcher)]
        assert {(e["event"], e["device"]["unique_id"], e.get("initial")) for e in present} == {
            ("added", "v4l2-platform:vivid-000", True), ("added", "v4l2-platform:vivid-001", True)}
        Path(UNBIND).write_text("vivid.0")
        removed = [read_event(watcher), read_event(watcher)]
        assert {(e["event"], e["device"]["unique_id"]) for e in removed} == {
            ("removed", "v4l2-platform:vivid-000"), ("removed", "v4l2-platform:vivid-001")}
        assert all(e["device"]["connected"] is False for e in removed)
        Path(BIND).write_text("vivid.0")
        added = [read_event(watcher), read_event(watcher)]
        assert {(e["event"], e["device"]["unique_id"]) for e in added} == {
            ("added", "v4l2-platform:vivid-000"), ("added", "v4l2-platform:vivid-001")}
    finally:
        watcher.terminate()
        watcher.wait(10)


def test_a_retained_device_stays_disconnected_after_replug():
    with ocellus.Context("org.ocellus.test.vivid") as ctx:
        (first,) = [d for d in ctx.devices() if d.unique_id.endswith("000")]
        gone = []
        with ctx.add_disconnected_callback(first, gone.append):
            Path(UNBIND).write_text("vivid.0")
            deadline = time.monotonic() + 30
            while not gone and time.monotonic() < deadline:
                time.sleep(0.05)
            Path(BIND).write_text("vivid.0")
        assert gone and not first.connected
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            again = [d for d in ctx.devices() if d.unique_id == first.unique_id]
            if again:
                break
            time.sleep(0.05)
        assert again and again[0].connected and not again[0].same_instance(first) and not first.connected


def test_a_slow_output_reads_its_lent_buffer_unchanged_while_the_other_output_streams():
    """Two outputs on vivid: each delivers on a thread of its own, from the driver's buffer lent until
    its callback returns. The slow callback's frame must stay that frame for the whole call (vivid
    draws each frame's counter into the picture, so a buffer requeued early would change), while the
    other output keeps streaming from the remaining buffers; afterwards every buffer is back (a second
    session streams)."""
    with ocellus.Context("org.ocellus.test.vivid") as ctx:
        cam = ctx.device("v4l2-platform:vivid-001")
        for round in range(2):
            session = ctx.capture_session()
            slow, quick = ocellus.VideoDataOutput("YUYV", 320, 180), ocellus.VideoDataOutput("YUYV", 320, 180)
            held, quick_count, during = [], [0], []

            def slow_frame(frame):
                if held:
                    return
                before = frame.planes[0].tobytes()
                seen = quick_count[0]
                time.sleep(1.0)
                during.append(quick_count[0] - seen)
                held.append(before == frame.planes[0].tobytes())

            def quick_frame(frame):
                quick_count[0] += 1

            slow.set_frame_callback(slow_frame)
            quick.set_frame_callback(quick_frame)
            session.set_input(cam)
            session.add_output(slow)
            session.add_output(quick)
            with session.running():
                deadline = time.monotonic() + 20
                while not held and time.monotonic() < deadline:
                    time.sleep(0.05)
            session.close()
            assert held == [True], "the lent buffer changed while its callback still read it"
            # 30 fps under emulation: well over 5 frames in the second the slow callback took.
            assert during[0] >= 5, f"round {round}: the quick output got {during[0]} frames meanwhile"
