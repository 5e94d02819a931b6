"""behaviour §2 camera selection across separate processes (each `ocellus` CLI run and each
helper script is a restart of the app), on the real daemon. Every test has its own
state directory, and its own app ID where it must not see the others' history."""

import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import ocellus
from cli_watch import start_watch
from ocellus import DeviceType, PreferredCamera

CLI = os.environ.get("OCELLUS_CLI", "ocellus")
EXTERNAL = ["--device-prop", "device.bus=usb", "--device-prop", "device.vendor.id=0x2e1a",
            "--device-prop", "device.product.id=0x4c01"]


def external(serial):
    return [*EXTERNAL, "--device-prop", f"device.serial={serial}"]


def cli(state, *args, app="org.ocellus.test.selection", check=True):
    return subprocess.run([CLI, "--app-id", app, "--state-dir", str(state), *args],
                          capture_output=True, text=True, check=check, timeout=30)


def preferred(state, **kwargs):
    """(user, system) unique IDs as a fresh process sees them."""
    result = json.loads(cli(state, "preferred", "--json", **kwargs).stdout)
    return tuple(d and d["unique_id"] for d in (result["user_preferred"], result["system_preferred"]))


@pytest.fixture
def state(tmp_path):
    return tmp_path / "state"


@pytest.fixture
def front(cameras):
    cameras.add("selfront", "--desc", "Front Camera", "--prop", "api.libcamera.location=front")
    return "pipewire-selfront"


VCAM0, VCAM1 = "usb-1d6b:0110-VCAM-0000", "usb-1d6b:0111-VCAM-0001"


def test_first_run_uses_the_default_order(state, front):
    # Built-in front beats external cameras; nothing wins by having been plugged before the first run.
    assert preferred(state) == (front, front)
    assert preferred(state) == (front, front)


def test_first_run_with_an_external_camera_present_wins_nothing(state, cameras):
    cameras.add("selpresent", *external("PRESENT42"))
    assert preferred(state) == (VCAM0, VCAM0)


def test_choice_survives_a_restart_and_files_are_private(state, front):
    cli(state, "prefer", VCAM1)
    assert preferred(state) == (VCAM1, VCAM1)
    selection = state / "org.ocellus.test.selection.selection"
    assert oct(selection.stat().st_mode & 0o777) == "0o600"
    assert selection.read_text().startswith("ocellus-selection 2\n")


def test_unplugging_the_preferred_camera_falls_back_through_the_history(state, cameras, front):
    cameras.add("selhist", *external("HIST42"))
    cli(state, "prefer", VCAM1)
    cli(state, "prefer", "usb-2e1a:4c01-HIST42")
    assert preferred(state) == ("usb-2e1a:4c01-HIST42",) * 2
    cameras.remove("selhist")
    assert preferred(state) == (VCAM1, VCAM1)


def test_plugging_an_external_camera_makes_it_system_preferred_until_the_next_choice(state, cameras, front):
    cli(state, "prefer", front)
    cameras.add("selnew", *external("NEW042"))      # never seen
    assert preferred(state) == (front, "usb-2e1a:4c01-NEW042")
    cli(state, "prefer", front)                  # the user chooses again
    assert preferred(state) == (front, front)
    cameras.remove("selnew")
    cameras.add("selnew", *external("NEW042"))      # seen before, plugged again
    assert preferred(state) == (front, "usb-2e1a:4c01-NEW042")


def test_most_recently_plugged_external_camera_wins(state, cameras, front):
    cli(state, "prefer", front)
    cameras.add("selfirst", *external("FIRST42"))
    cameras.add("selsecond", *external("SECOND42"))
    assert preferred(state)[1] == "usb-2e1a:4c01-SECOND42"
    cameras.remove("selsecond")
    assert preferred(state)[1] == "usb-2e1a:4c01-FIRST42"


def test_two_identical_cameras_without_serials_keep_their_choice(state, cameras, front):
    for name, port in (("selsame1", 7), ("selsame2", 8)):
        cameras.add(name, *EXTERNAL, "--device-prop", f"device.bus-path=pci-0000:00:14.0-usb-0:{port}:1.0")
    second = "usb-2e1a:4c01@pci-0000:00:14.0-usb-0:8"
    cli(state, "prefer", second)
    cameras.remove("selsame2")
    cameras.add("selsame2", *EXTERNAL, "--device-prop", "device.bus-path=pci-0000:00:14.0-usb-0:8:1.0")
    cli(state, "prefer", second)
    assert preferred(state) == (second, second)


def test_prefer_refuses_unknown_ids_and_microphones(state):
    unknown = cli(state, "prefer", "usb-dead:beef-NOPE", check=False)
    assert unknown.returncode == 1 and "usb-dead:beef-NOPE" in unknown.stderr
    microphone = cli(state, "prefer", "pipewire-vmic0", check=False)
    assert microphone.returncode == 1 and "not a camera" in microphone.stderr


class Recorder:
    def __init__(self):
        self.events = []
        self.changed = threading.Condition()

    def __call__(self, kind, camera):
        with self.changed:
            self.events.append((kind, camera and camera.unique_id))
            self.changed.notify_all()

    def wait(self, count, timeout=10):
        with self.changed:
            assert self.changed.wait_for(lambda: len(self.events) >= count, timeout), self.events
        time.sleep(0.3)  # and nothing more arrives
        return self.events


def test_callbacks_fire_exactly_once_per_change(state, cameras, front):
    with ocellus.Context("org.ocellus.test.callbacks", state_directory=str(state)) as ctx:
        assert ctx.user_preferred_camera.unique_id == front
        log = Recorder()
        with ctx.add_preferred_camera_callback(log):
            cameras.add("selcb", *external("CBX421"))
            assert log.wait(1) == [(PreferredCamera.SYSTEM, "usb-2e1a:4c01-CBX421")]
            cameras.remove("selcb")
            assert log.wait(2)[1:] == [(PreferredCamera.SYSTEM, front)]
            vcam1 = next(d for d in ctx.devices() if d.unique_id == VCAM1)
            ctx.user_preferred_camera = vcam1
            assert log.wait(4)[2:] == [(PreferredCamera.USER, VCAM1), (PreferredCamera.SYSTEM, VCAM1)]


def test_another_process_writing_the_history_is_seen(state, front):
    with ocellus.Context("org.ocellus.test.shared", state_directory=str(state)) as ctx:
        log = Recorder()
        with ctx.add_preferred_camera_callback(log):
            cli(state, "prefer", VCAM0, app="org.ocellus.test.shared")
            assert log.wait(2) == [(PreferredCamera.USER, VCAM0), (PreferredCamera.SYSTEM, VCAM0)]
        assert ctx.user_preferred_camera.unique_id == VCAM0


WRITER = """
import ocellus, sys
state, count = sys.argv[1], int(sys.argv[2])
with ocellus.Context("org.ocellus.test.stress", state_directory=state) as ctx:
    cameras = [d for d in ctx.devices() if d.type is not ocellus.DeviceType.MICROPHONE]
    print("ready", flush=True)
    for i in range(count):
        ctx.user_preferred_camera = cameras[i % len(cameras)]
    assert ctx.state_problem is None, ctx.state_problem
"""


def writer(state, count):
    env = dict(os.environ, PYTHONPATH=os.path.join(os.path.dirname(__file__), ".."))
    return subprocess.Popen([sys.executable, "-c", WRITER, str(state), str(count)], env=env,
                            stdout=subprocess.PIPE, text=True)


def read_choices(state):
    text = (state / "org.ocellus.test.stress.selection").read_text()
    lines = text.splitlines()
    assert lines[0] == "ocellus-selection 2" and lines[1].startswith("first-run ")
    return [line.split(" ", 3)[3] for line in lines if line.startswith("choice ")]


def test_concurrent_writers_leave_a_valid_file(state):
    writers = [writer(state, 1000), writer(state, 1000)]
    assert [w.wait(120) for w in writers] == [0, 0]
    choices = read_choices(state)
    assert set(choices) == {VCAM0, VCAM1}
    assert not [p for p in state.iterdir() if ".corrupt" in p.name or ".tmp" in p.name]
    with ocellus.Context("org.ocellus.test.stress", state_directory=str(state)) as ctx:
        assert ctx.state_problem is None


def test_writer_killed_mid_write_leaves_old_or_new_history(state):
    for delay in (0.05, 0.11, 0.17, 0.23, 0.31):
        process = writer(state, 100000)
        process.stdout.readline()  # connected and writing
        time.sleep(delay)
        process.send_signal(signal.SIGKILL)
        process.wait()
        assert read_choices(state)  # parses: the old or the new history
    with ocellus.Context("org.ocellus.test.stress", state_directory=str(state)) as ctx:
        assert ctx.state_problem is None


def test_corrupt_file_is_moved_aside_and_reported(state, front):
    cli(state, "prefer", VCAM1)
    selection = state / "org.ocellus.test.selection.selection"
    selection.write_text("ocellus-selection 1\ngarbage here\n")
    with ocellus.Context("org.ocellus.test.selection", state_directory=str(state)) as ctx:
        assert "corrupt" in ctx.state_problem and "line 2" in ctx.state_problem
        assert ctx.user_preferred_camera.unique_id == front  # empty history: the default
        kept = [p for p in state.iterdir() if ".corrupt-" in p.name]
        assert len(kept) == 1 and kept[0].read_text() == "ocellus-selection 1\ngarbage here\n"
    assert preferred(state) == (front, front)  # a fresh, valid file was written


def test_file_cut_at_a_line_boundary_is_reported_not_read_without_its_last_lines(state, front):
    cli(state, "prefer", VCAM1)
    cli(state, "prefer", VCAM0)
    selection = state / "org.ocellus.test.selection.selection"
    whole = selection.read_text().splitlines(keepends=True)
    assert whole[0] == "ocellus-selection 2\n" and whole[-1].startswith("end ")
    selection.write_text("".join(whole[:-2]))  # the last entry and the end line lost, as a cut copy would
    with ocellus.Context("org.ocellus.test.selection", state_directory=str(state)) as ctx:
        assert "end line" in ctx.state_problem
        kept = [p for p in state.iterdir() if ".corrupt-" in p.name]
        assert len(kept) == 1 and kept[0].read_text() == "".join(whole[:-2])


def test_unwritable_state_directory_is_reported_and_selection_works_in_memory(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    with ocellus.Context("org.ocellus.test.selection", state_directory=str(blocker / "state")) as ctx:
        assert "cannot create the state directory" in ctx.state_problem
        vcam1 = next(d for d in ctx.devices() if d.unique_id == VCAM1)
        ctx.user_preferred_camera = vcam1
        assert ctx.user_preferred_camera.unique_id == VCAM1
        assert "in memory" in ctx.state_problem


@pytest.mark.parametrize("app_id", ["../../etc", "", "a" * 300])
def test_app_ids_that_could_escape_are_refused(state, app_id):
    result = cli(state, "preferred", app=app_id, check=False)
    assert result.returncode == 2 and "app ID" in result.stderr   # a usage error, as the man page says
    assert not state.exists()


def test_discovery_session_filters_and_follows_hotplug(cameras):
    with ocellus.Context("org.ocellus.test.discovery") as ctx:
        with ctx.discovery_session([DeviceType.BUILT_IN_CAMERA], position=ocellus.Position.FRONT) as session:
            assert session.devices() == []
            seen = []
            changed = threading.Event()
            session.set_callback(lambda event, device: (seen.append((event, device.unique_id)), changed.set()))
            cameras.add("discext", *external("DISC42"))            # filtered out
            cameras.add("discfront", "--prop", "api.libcamera.location=front")
            assert changed.wait(10)
            assert seen == [(ocellus.HotplugEvent.ADDED, "pipewire-discfront")]
            (only,) = session.devices()
            gone = threading.Event()
            with ctx.add_disconnected_callback(only, lambda device: gone.set()):
                cameras.remove("discfront")
                assert gone.wait(10) and not only.connected
            session.set_callback(None)
        audio = ctx.discovery_session(media_type=ocellus.MediaType.AUDIO)
        assert [d.unique_id for d in audio.devices()] == ["pipewire-vmic0"]
        audio.close()


def test_watch_prints_preferred_camera_changes(state, front):
    watcher = start_watch(CLI, "--app-id", "org.ocellus.test.watch", "--state-dir", str(state), "watch", "--json",
                          "--changes-only")
    try:
        cli(state, "prefer", VCAM1, app="org.ocellus.test.watch")
        lines = [json.loads(watcher.stdout.readline()) for _ in range(2)]
        assert [(l["event"], l["device"]["unique_id"]) for l in lines] == [
            ("user_preferred_changed", VCAM1), ("system_preferred_changed", VCAM1)]
    finally:
        watcher.terminate()
        watcher.wait(5)


def test_streaming_is_the_fallback_after_the_history(state, front):
    import ocellus
    with ocellus.Context("org.ocellus.test.streamed", state_directory=str(state)) as ctx:
        assert ctx.user_preferred_camera.unique_id == front   # no history: the default order
        session = ctx.capture_session()
        vcam1 = next(d for d in ctx.devices() if d.unique_id == VCAM1)
        output = ocellus.VideoDataOutput()
        session.set_input(vcam1)
        session.add_output(output)
        with session.running():
            pass
        session.close()
    # A restart: still no choice, so the camera last streamed from comes first.
    assert preferred(state, app="org.ocellus.test.streamed") == (VCAM1, VCAM1)
