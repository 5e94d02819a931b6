"""Strings from other processes (issue 25): any PipeWire client can name its node anything — a
newline that would add a line to every app's selection file, terminal escape sequences, bytes
that are not UTF-8, 4 KB, nothing at all — and two producers can use one name. Ocellus must keep
unique IDs unique, single-line and printable, state files intact, and the terminal safe."""

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

import ocellus

CLI = os.environ.get("OCELLUS_CLI", "ocellus")
HOSTILE_NAMES = [
    b"evil\nchoice usb-dead:beef-INJECTED\nx",
    b"esc\x1b[2J\x1b]0;title\x07red\x1b[31m",
    b"c1\xc2\x9b31mcontrol",
    b"bad\xff\xfeutf8",
    b"",
    b"x" * 4096,
    b"twin",
    b"twin",
]
SAFE_ID = re.compile(r"^[A-Za-z0-9._:@~-]{1,120}$")


@pytest.fixture
def hostile_cameras():
    processes = []
    for name in HOSTILE_NAMES:
        process = subprocess.Popen([CLI.encode(), b"virtual-camera", b"--name", name, b"--desc", name, b"--formats", b"YUY2",
                                    b"--sizes", b"320x240", b"--fps", b"30",
                                    b"--prop", b"session.suspend-timeout-seconds=0"],   # see ranged_source
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True)
        assert process.stdout.readline().startswith(b"READY"), f"virtual camera {name[:20]!r} did not start"
        processes.append(process)
    yield processes
    for process in processes:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(10)


def hostile_devices(context):
    known = {"pipewire-vcam0", "pipewire-vcam1"}
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        found = [d for d in context.devices() if d.type == ocellus.DeviceType.VIRTUAL_CAMERA and d.unique_id not in known
                 and not d.unique_id.startswith("usb-")]
        if len(found) >= len(HOSTILE_NAMES):
            return found
        time.sleep(0.05)
    raise AssertionError(f"only {len(found)} of {len(HOSTILE_NAMES)} hostile cameras listed")


def test_ids_of_hostile_names_are_unique_single_line_and_printable(hostile_cameras, tmp_path):
    with ocellus.Context("org.ocellus.test.hostile", state_directory=str(tmp_path)) as context:
        devices = hostile_devices(context)
        ids = [d.unique_id for d in devices]
        assert all(SAFE_ID.match(unique_id) for unique_id in ids), ids
        assert len(set(ids)) == len(ids), ids   # the twins and the nameless one included


def test_choosing_a_hostile_camera_sticks_and_injects_nothing(hostile_cameras, tmp_path):
    with ocellus.Context("org.ocellus.test.hostile", state_directory=str(tmp_path)) as context:
        evil = next(d for d in hostile_devices(context) if d.unique_id.startswith("pipewire-evil"))
        context.user_preferred_camera = evil
        chosen = evil.unique_id
    state = b"".join(path.read_bytes() for path in Path(tmp_path).rglob("*") if path.is_file())
    assert b"INJECTED" not in state.replace(chosen.encode(), b""), state
    with ocellus.Context("org.ocellus.test.hostile", state_directory=str(tmp_path)) as context:
        hostile_devices(context)
        assert context.user_preferred_camera.unique_id == chosen


def test_the_terminal_gets_no_control_sequences(hostile_cameras):
    for command in (["list"], ["list", "--json"]):
        out = subprocess.run([CLI, *command], capture_output=True, timeout=30, check=True).stdout
        assert b"\x1b" not in out and b"\x07" not in out and b"\xc2\x9b" not in out, out[:2000]
        out.decode("utf-8")   # valid UTF-8 throughout


@pytest.fixture
def ranged_source(private_daemon):
    """PipeWire's own videotestsrc node: sizes 1x1 to 2^31-1 squared and rates 0 to 2^31-1, as ranges.
    On a daemon of its own, killed afterwards: destroying a videotestsrc node aborts PipeWire 1.4.2
    (an assertion in its loop), which would take every later test's daemon with it."""
    environment = dict(os.environ, PIPEWIRE_REMOTE=private_daemon.remote)
    subprocess.run(["pw-cli", "create-node", "adapter", "{ factory.name=videotestsrc node.name=pwranged "
                    # WirePlumber 0.4 crashes when a node it armed a suspend timer for goes within 5 s.
                    "media.class=Video/Source object.linger=true session.suspend-timeout-seconds=0 }"],
                   check=True, capture_output=True, timeout=10, env=environment)
    yield "pipewire-pwranged", environment
    private_daemon.kill_daemon()


def test_a_source_with_size_and_rate_ranges_lists_its_range_and_streams(ranged_source):
    # It was listed as RGB3 1x1 and 2147483647x2147483647 at 2147483647 fps and failed to stream.
    import json
    ranged_source, environment = ranged_source
    listed = json.loads(subprocess.run([CLI, "list", "--json"], capture_output=True, text=True, timeout=30, check=True,
                                       env=environment).stdout)
    device = next(d for d in listed if d["unique_id"] == ranged_source)
    sizes = {(f["width"], f["height"]) for f in device["formats"]}
    assert sizes and all(w <= 1920 and h <= 1080 for w, h in sizes), device["formats"]
    # Sizes within the range, exactly (the source renders in software: small ones keep a loaded machine in time).
    for size in ((640, 480), (320, 240)):
        out = subprocess.run([CLI, "stream", ranged_source, "--frames", "10", "--json", "--size", "%dx%d" % size],
                             capture_output=True, text=True, timeout=60, env=environment)
        assert out.returncode == 0, out.stderr
        summary = json.loads(out.stdout)
        assert summary["frames"] == 10 and (summary["width"], summary["height"]) == size



def test_a_source_with_ranges_streams_its_own_default_when_nothing_asks(ranged_source):
    # videotestsrc states 320x240 at 25/1 as its ranges' defaults: without a size or rate it streams
    # that (as GStreamer fixates it), not its largest at its fastest (1080p RGB at 60 in software).
    import json
    ranged_source, environment = ranged_source
    out = subprocess.run([CLI, "stream", ranged_source, "--seconds", "3", "--json"],
                         capture_output=True, text=True, timeout=60, env=environment)
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout)
    assert (summary["width"], summary["height"]) == (320, 240), summary
    # 25 a second, not 60 (the source sometimes starts slowly: its first second may bring fewer).
    assert summary["frames"] >= 30 and summary["fps"] <= 27, summary