"""Multi-camera sessions (behaviour §4) on the test bed's real PipeWire: several cameras in one
session, each with its own outputs, one start and stop, one runtime error naming the camera.
(USB buses, fitting and the kernel's refusals are tested with gadget cameras in
Tests/gadget/test_bus_cost.py, and with given bus loads in the Swift suite.)"""
import threading
import time

import pytest

import ocellus
from ocellus import BusFit, SessionEvent, VideoDataOutput

VCAM0, VCAM1 = "usb-1d6b:0110-VCAM-0000", "usb-1d6b:0111-VCAM-0001"


@pytest.fixture
def context():
    with ocellus.Context("org.ocellus.test.multicam") as ctx:
        yield ctx


def device(ctx, unique_id):
    return next(d for d in ctx.devices() if d.unique_id == unique_id)


class Events:
    def __init__(self):
        self.seen, self.changed = [], threading.Condition()

    def __call__(self, event, camera, message):
        with self.changed:
            self.seen.append((event, camera, message))
            self.changed.notify_all()

    def wait(self, predicate, timeout=10.0):
        with self.changed:
            assert self.changed.wait_for(lambda: any(predicate(*e) for e in self.seen), timeout), self.seen


def counting(output):
    frames = {"n": 0, "width": None}

    def on_frame(frame):
        frames["n"] += 1
        frames["width"] = frame.width
    output.set_frame_callback(on_frame)
    return frames


def test_two_cameras_start_and_stop_as_one_each_feeding_its_own_outputs(context):
    multi = context.multi_cam_session()
    events = Events()
    multi.add_event_callback(events)
    first, second = VideoDataOutput("NV12", 320, 240), VideoDataOutput("BGRA", 640, 480)
    counts = [counting(first), counting(second)]
    cameras = [device(context, VCAM0), device(context, VCAM1)]
    multi.add_camera(cameras[0]).add_output(first)
    branch = multi.add_camera(cameras[1])
    branch.add_output(second)
    assert multi.cameras == [VCAM0, VCAM1] and multi.branch(cameras[1]) is branch
    assert not multi.can_add_camera(cameras[0])
    with pytest.raises(ocellus.InvalidArgument, match=VCAM0):
        multi.add_camera(cameras[0])
    assert multi.hardware_cost() is None, "the test bed's cameras are on no USB bus"
    with multi.running():
        assert multi.is_running
        events.wait(lambda event, camera, _: event is SessionEvent.STARTED and camera is None)
        time.sleep(1.5)
        # The branches are the session's: they do not start, stop or change camera on their own.
        for call in (branch.start_running, branch.stop_running, lambda: branch.set_input(cameras[0])):
            with pytest.raises(ocellus.WrongState, match="multi-camera session"):
                call()
        with pytest.raises(ocellus.WrongState, match="single-camera"):
            branch.automatically_switches_camera = True
        with pytest.raises(ocellus.WrongState, match="stop it first"):
            multi.remove_camera(cameras[0])
    events.wait(lambda event, camera, _: event is SessionEvent.STOPPED)
    assert not multi.is_running
    assert counts[0]["n"] >= 20 and counts[1]["n"] >= 20, counts
    assert (counts[0]["width"], counts[1]["width"]) == (320, 640)
    after = [c["n"] for c in counts]
    time.sleep(0.3)
    assert [c["n"] for c in counts] == after, "nothing is delivered once stopped"
    branch.close()   # a branch goes with its camera, not on its own: still usable
    multi.remove_camera(cameras[1])
    assert multi.cameras == [VCAM0]
    with pytest.raises(ocellus.NotFound):
        multi.remove_camera(cameras[1])
    multi.close()


def test_a_camera_pulled_stops_every_camera_and_the_error_names_it(context, cameras):
    cameras.add("pymulti")
    multi = context.multi_cam_session()
    events = Events()
    multi.add_event_callback(events)
    kept, pulled = VideoDataOutput(), VideoDataOutput()
    counts = counting(kept)
    multi.add_camera(device(context, VCAM0)).add_output(kept)
    multi.add_camera(device(context, "pipewire-pymulti")).add_output(pulled)
    multi.start_running()
    time.sleep(0.5)
    cameras.remove("pymulti")
    events.wait(lambda event, camera, message: event is SessionEvent.RUNTIME_ERROR and camera == "pipewire-pymulti"
                and message.startswith("pipewire-pymulti"))
    assert not multi.is_running
    time.sleep(0.5)
    before = counts["n"]
    time.sleep(0.5)
    assert counts["n"] == before, "the other camera stopped too"
    assert not any(event is SessionEvent.RUNTIME_ERROR and camera == VCAM0 for event, camera, _ in events.seen)
    multi.close()


def test_a_camera_that_cannot_start_is_named_and_the_ones_started_are_stopped(context, cameras):
    cameras.add("pygone")
    gone = device(context, "pipewire-pygone")
    multi = context.multi_cam_session()
    kept = VideoDataOutput()
    counts = counting(kept)
    multi.add_camera(device(context, VCAM0)).add_output(kept)
    multi.add_camera(gone).add_output(VideoDataOutput())
    cameras.remove("pygone")
    time.sleep(0.5)
    with pytest.raises(ocellus.OcellusError, match="pipewire-pygone"):
        multi.start_running()
    assert not multi.is_running
    before = counts["n"]
    time.sleep(0.4)
    assert counts["n"] == before, "the camera started first was stopped again"
    multi.close()


def test_bus_fit_is_a_session_setting(context):
    session = context.capture_session()
    assert session.bus_fit is BusFit.AUTOMATIC
    session.set_input(device(context, VCAM0))
    session.bus_fit = BusFit.OFF
    assert session.bus_fit is BusFit.OFF
    session.begin_configuration()
    session.bus_fit = BusFit.ON
    assert session.bus_fit is BusFit.ON, "batched changes read back as they stand"
    session.commit_configuration()
    with pytest.raises(ocellus.InvalidArgument, match="unknown bus fit 7"):
        ocellus._lib.oc_capture_session_set_bus_fit(session._handle, 7)
    session.close()
