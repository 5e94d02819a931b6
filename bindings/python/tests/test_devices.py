import os
import subprocess
import sys
import time
from fractions import Fraction

import pytest

import ocellus
from ocellus import DeviceType, HotplugEvent, Position


def by_id(devices):
    return {device.unique_id: device for device in devices}


def test_version_matches_header():
    header = (os.path.dirname(__file__) + "/../../../include/ocellus.h")
    with open(header) as source:
        line = next(l for l in source if l.startswith("#define OCELLUS_VERSION_STRING"))
    assert ocellus.version() == line.split('"')[1] == ocellus.__version__


def test_lists_cameras_and_microphone_with_properties():
    with ocellus.Context("org.ocellus.test.python") as ctx:
        assert ctx.app_id == "org.ocellus.test.python"
        devices = by_id(ctx.devices())
    camera = devices["usb-1d6b:0110-VCAM-0000"]
    assert camera.name == "Virtual Camera 0"
    assert camera.type is DeviceType.EXTERNAL_CAMERA
    assert camera.position is Position.UNSPECIFIED
    assert camera.backend is ocellus.Backend.PIPEWIRE
    assert (camera.vendor_id, camera.product_id, camera.serial_number) == (0x1D6B, 0x0110, "VCAM-0000")
    assert camera.property("device.bus-path") == "pci-0000:00:14.0-usb-0:1:1.0"
    assert camera.property("missing.key") is None
    assert ocellus.Format("YUYV", 640, 480, [Fraction(30), Fraction(15)]) == camera.formats[0]
    assert {f.pixel_format for f in camera.formats} == {"YUYV", "NV12", "MJPEG"}
    assert "usb-1d6b:0111-VCAM-0001" in devices
    microphone = devices["pipewire-vmic0"]
    assert microphone.type is DeviceType.MICROPHONE and microphone.formats == []


def test_context_closes_and_stale_use_raises():
    ctx = ocellus.Context("org.ocellus.test.python")
    ctx.close()
    ctx.close()  # idempotent
    with pytest.raises(ocellus.InvalidHandle):
        ctx.devices()


@pytest.mark.parametrize("app_id", ["../x", "", "a" * 300, ".hidden", "sp ace"])
def test_invalid_app_ids_raise_with_the_library_message(app_id):
    with pytest.raises(ocellus.InvalidArgument, match="app ID") as caught:
        ocellus.Context(app_id)
    assert caught.value.status == -1


@pytest.mark.parametrize("how, expected", [
    (["my scanner.py"], "my_scanner"),             # a script: its name, made a valid ID
    (["-m", "camtool"], "camtool"),                # a package run with -m: the package's name
    (["-c", "{code}"], os.path.basename(sys.executable)),   # no program file: the interpreter's
])
def test_an_app_without_an_id_takes_the_programs(tmp_path, how, expected):
    """Two programs that name no app ID get different ones (PipeWire's rule for clients), so they
    never share a preferred camera or access by accident."""
    code = "import ocellus; c = ocellus.Context(); print(c.app_id); c.close()"
    (tmp_path / "my scanner.py").write_text(code)
    (tmp_path / "camtool").mkdir()
    (tmp_path / "camtool" / "__main__.py").write_text(code)
    command = [sys.executable, *[part.format(code=code) for part in how]]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=30,
                            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == expected


def test_unreachable_remote_raises_quickly():
    start = time.monotonic()
    with pytest.raises(ocellus.BackendUnavailable, match="/nonexistent/pw-0"):
        ocellus.Context("org.ocellus.test.python", pipewire_remote="/nonexistent/pw-0")
    assert time.monotonic() - start < 1.0


def test_hotplug_added_removed_and_replug(cameras, event_log):
    usb = ["--device-prop", "device.bus=usb", "--device-prop", "device.vendor.id=0x046d",
           "--device-prop", "device.product.id=0x0825", "--device-prop", "device.serial=PYCAM-1"]
    with ocellus.Context("org.ocellus.test.python") as ctx:
        with ctx.add_hotplug_callback(event_log):
            cameras.add("pyhp0", *usb)
            (event, first), = event_log.wait(lambda e: len(e) >= 1)
            assert event is HotplugEvent.ADDED and first.unique_id == "usb-046d:0825-PYCAM-1" and first.connected
            cameras.remove("pyhp0")
            event, gone = event_log.wait(lambda e: len(e) >= 2)[1]
            assert event is HotplugEvent.REMOVED and gone.unique_id == first.unique_id
            assert not first.connected
            cameras.add("pyhp0", *usb)
            event, second = event_log.wait(lambda e: len(e) >= 3)[2]
            assert event is HotplugEvent.ADDED and second.unique_id == first.unique_id
            assert second.connected and not first.connected and not second.same_instance(first)


def test_built_in_camera_comes_first(cameras, event_log):
    with ocellus.Context("org.ocellus.test.python") as ctx:
        with ctx.add_hotplug_callback(event_log):
            cameras.add("pyfront", "--prop", "api.libcamera.location=front")
            event_log.wait(lambda e: len(e) >= 1)
        first = ctx.devices()[0]
    assert (first.unique_id, first.type, first.position) == ("pipewire-pyfront", DeviceType.BUILT_IN_CAMERA, Position.FRONT)


def test_exception_in_callback_is_reported_and_later_callbacks_run(cameras, event_log, monkeypatch):
    reported = []
    monkeypatch.setattr(sys, "unraisablehook", lambda args: reported.append(args.exc_value))

    def broken(event, device):
        # Only for this test's camera: a camera an earlier test removed may still be going away.
        if device.unique_id == "pipewire-pyboom":
            raise RuntimeError("boom from a callback")

    with ocellus.Context("org.ocellus.test.python") as ctx:
        with ctx.add_hotplug_callback(broken), ctx.add_hotplug_callback(event_log):
            cameras.add("pyboom")
            cameras.remove("pyboom")
            event_log.wait(lambda e: sum(1 for _, d in e if d.unique_id == "pipewire-pyboom") >= 2)
    assert [str(e) for e in reported] == ["boom from a callback"] * 2


def inotify_descriptors():
    return sum(1 for fd in os.listdir("/proc/self/fd")
               if os.path.exists(f"/proc/self/fd/{fd}") and os.readlink(f"/proc/self/fd/{fd}") == "anon_inode:inotify")


def test_a_context_watches_files_with_one_inotify_descriptor(tmp_path):
    # The selection file, /dev for V4L2 nodes and the PipeWire socket share one descriptor
    # (closing each costs the kernel milliseconds at every client's exit).
    before = inotify_descriptors()
    with ocellus.Context("org.ocellus.test.inotify", state_directory=str(tmp_path)):
        assert inotify_descriptors() - before == 1
    assert inotify_descriptors() == before


def test_library_needs_nothing_from_the_swift_toolchain():
    """Loads the library in a fresh interpreter with no library path and checks what got mapped."""
    script = ("import ocellus, sys; ocellus.version(); "
              "maps = open('/proc/self/maps').read(); sys.exit(1 if 'libswift' in maps or '/opt/swift' in maps else 0)")
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    env["PYTHONPATH"] = os.path.join(os.path.dirname(__file__), "..")
    result = subprocess.run([sys.executable, "-c", script], env=env)
    assert result.returncode == 0


def test_state_directory_option():
    with ocellus.Context("org.ocellus.test.python", state_directory="/tmp/py-state") as ctx:
        assert ctx.state_directory == "/tmp/py-state"


def test_library_is_found_beside_the_package(tmp_path):
    """Without OCELLUS_LIBRARY, a copy of the library next to the package is loaded first."""
    import shutil
    package = tmp_path / "ocellus"
    shutil.copytree(os.path.join(os.path.dirname(__file__), "..", "ocellus"), package)
    shutil.copy(os.environ["OCELLUS_LIBRARY"], package / "libocellus.so.0")
    env = {k: v for k, v in os.environ.items() if k not in ("OCELLUS_LIBRARY", "LD_LIBRARY_PATH")}
    env["PYTHONPATH"] = str(tmp_path)
    script = "import ocellus; print(ocellus._lib._name)"
    output = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True)
    assert output.stdout.strip() == str(package / "libocellus.so.0")


def test_missing_library_lists_what_was_tried(tmp_path):
    package = tmp_path / "ocellus"
    import shutil
    shutil.copytree(os.path.join(os.path.dirname(__file__), "..", "ocellus"), package)
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    env.update(PYTHONPATH=str(tmp_path), OCELLUS_LIBRARY="/nonexistent/libocellus.so.0")
    result = subprocess.run([sys.executable, "-c", "import ocellus"], env=env, capture_output=True, text=True)
    if result.returncode == 0:
        pytest.skip("libocellus.so.0 is installed system-wide, so the SONAME fallback found it")
    assert "/nonexistent/libocellus.so.0 (no such file)" in result.stderr
    assert str(package / "libocellus.so.0") in result.stderr


def test_daemon_going_away_removes_its_devices(private_daemon, event_log):
    with ocellus.Context("org.ocellus.test.python", pipewire_remote=private_daemon.remote) as ctx:
        (camera,) = [d for d in ctx.devices() if d.type is not DeviceType.MICROPHONE]
        with ctx.add_hotplug_callback(event_log):
            private_daemon.kill_daemon()
            (event, device), = event_log.wait(lambda e: len(e) >= 1)
        assert event is HotplugEvent.REMOVED and device.same_instance(camera)
        assert not camera.connected
        assert ctx.devices() == []


def test_a_cameras_own_microphone_is_associated(cameras, testbed_dir):
    usb = ["device.bus=usb", "device.vendor.id=0x046d", "device.product.id=0x0825", "device.serial=MICCAM01"]
    cameras.add("miccam", *[arg for prop in usb + ["device.bus-path=pci-0000:00:14.0-usb-0:9:1.0"]
                            for arg in ("--device-prop", prop)])
    # SPA JSON reads ':' as a separator: the bus path needs quotes.
    props = " ".join(usb + ['device.bus-path="pci-0000:00:14.0-usb-0:9:1.3"'])
    subprocess.run(["pw-cli", "create-node", "adapter",
                    # Never suspended: WirePlumber 0.4.13 segfaults suspending a node destroyed meanwhile.
                    "{ factory.name=audiotestsrc node.name=miccam-mic media.class=Audio/Source object.linger=true "
                    "session.suspend-timeout-seconds=0 "
                    + props + " }"], check=True, capture_output=True)
    try:
        deadline = time.monotonic() + 10
        with ocellus.Context("org.ocellus.test.python") as ctx:
            while time.monotonic() < deadline:
                devices = by_id(ctx.devices())
                if "usb-046d:0825-MICCAM01-audio" in devices:
                    break
                time.sleep(0.05)
            camera = devices["usb-046d:0825-MICCAM01"]
            microphone = ctx.associated_microphone(camera)
            assert microphone is not None and microphone.unique_id == "usb-046d:0825-MICCAM01-audio"
            assert ctx.associated_microphone(devices["usb-1d6b:0110-VCAM-0000"]) is None
            assert ctx.associated_microphone(microphone) is None  # only cameras have one
    finally:
        subprocess.run(["pw-cli", "destroy", "miccam-mic"], capture_output=True)


NO_DAEMON = """
import ocellus
try:
    ocellus.open_camera(app_id="org.ocellus.test.nodaemon")
except ocellus.NotFound as error:
    print(error)
"""


def test_without_a_daemon_no_camera_says_why(tmp_path):
    """Issue 52.6: with no PipeWire daemon (and no V4L2 camera), the library's "no camera" names
    the backend that is not running, as the CLI's does; a lookup that finds nothing says it too."""
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PIPEWIRE_REMOTE", "OCELLUS_TESTBED_DIR")}
    env.update(XDG_RUNTIME_DIR=str(runtime), PYTHONPATH=os.path.join(os.path.dirname(__file__), ".."))
    said = subprocess.run([sys.executable, "-c", NO_DAEMON], env=env, capture_output=True, text=True, timeout=30)
    assert said.stdout.startswith("no camera is connected; the pipewire backend is not running: "), said
    cli = os.environ.get("OCELLUS_CLI", "ocellus")
    for args in (["snap", "-o", str(tmp_path / "x.jpg")], ["stream", "Nosuch", "--frames", "1"]):
        run = subprocess.run([cli, *args], env=env, capture_output=True, text=True, timeout=30)
        assert run.returncode == 1 and "the pipewire backend is not running: " in run.stderr.splitlines()[-1], run.stderr


LATE_DAEMON = """
import os, sys, time, threading
import ocellus
events, changed = [], threading.Event()
with ocellus.Context("org.ocellus.test.late") as ctx:
    assert ctx.backend_problem(ocellus.Backend.PIPEWIRE), "expected no daemon yet"
    with ctx.add_hotplug_callback(lambda e, d: (events.append((e.name, d.unique_id)), changed.set())):
        print("ready", flush=True)
        assert changed.wait(20), "no device joined"
        time.sleep(0.3)
    assert ctx.backend_problem(ocellus.Backend.PIPEWIRE) is None
    print(sorted(events), flush=True)
"""


def test_a_daemon_that_starts_later_joins(tmp_path):
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PIPEWIRE_REMOTE", "OCELLUS_TESTBED_DIR")}
    env.update(XDG_RUNTIME_DIR=str(runtime), PYTHONPATH=os.path.join(os.path.dirname(__file__), ".."))
    app = subprocess.Popen([sys.executable, "-c", LATE_DAEMON], env=env, stdout=subprocess.PIPE, text=True)
    daemon_dir = None
    try:
        assert app.stdout.readline().strip() == "ready"
        testbed = os.path.join(os.path.dirname(__file__), "..", "..", "..", "scripts", "testbed.sh")
        output = subprocess.run([testbed, "start", "--dir", str(runtime), "--cameras", "1", "--mics", "0"],
                                env=env, check=True, capture_output=True, text=True).stdout
        daemon_dir = str(runtime)
        assert app.wait(30) == 0
        assert "('ADDED', 'usb-1d6b:0110-VCAM-0000')" in app.stdout.read()
    finally:
        app.kill()
        if daemon_dir:
            subprocess.run([testbed, "stop", daemon_dir], env=env)


def test_devices_by_what_people_call_them():
    with ocellus.Context("org.ocellus.test.lookup") as context:
        check_lookups(context)


def check_lookups(context):
    devices = context.devices()
    index = next(i for i, d in enumerate(devices) if d.unique_id == "usb-1d6b:0110-VCAM-0000")
    for spec in ("usb-1d6b:0110-VCAM-0000", str(index), "/dev/video40", "VIRTUAL CAMERA 0"):
        assert context.device(spec).unique_id == "usb-1d6b:0110-VCAM-0000", spec
    assert context.device_by_unique_id("pipewire-vmic0").type is ocellus.DeviceType.MICROPHONE
    with pytest.raises(ocellus.InvalidArgument, match="could mean"):
        context.device("Virtual Camera")
    for missing in ("nothing-like-it", "99", "/dev/video99"):
        with pytest.raises(ocellus.NotFound):
            context.device(missing)
    with pytest.raises(ocellus.NotFound):
        context.device_by_unique_id("0")   # exactly a unique ID, nothing else


def test_without_a_library_the_import_error_says_how_to_name_one(tmp_path):
    import shutil
    import subprocess
    import sys
    from pathlib import Path
    package = Path(__file__).resolve().parents[1] / "ocellus"
    shutil.copytree(package, tmp_path / "ocellus", ignore=shutil.ignore_patterns("*.so*", "__pycache__"))
    run = subprocess.run([sys.executable, "-c", "import ocellus"], cwd=tmp_path, capture_output=True, text=True,
                         env={"PATH": "/usr/bin:/bin", "OCELLUS_LIBRARY": str(tmp_path / "missing.so")})
    if run.returncode == 0:
        pytest.skip("this machine has libocellus.so.0 installed system-wide: the import found it")
    assert "ImportError: cannot load the Ocellus library" in run.stderr
    assert "set OCELLUS_LIBRARY" in run.stderr and "missing.so (no such file)" in run.stderr
