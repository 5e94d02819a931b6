"""`ocellus rotation` and `ocellus mount-rotation` (behaviour §3) on the real daemon's cameras."""

import json
import os
import subprocess

import pytest

CLI = os.environ.get("OCELLUS_CLI", "ocellus")
VCAM0 = "usb-1d6b:0110-VCAM-0000"


def cli(state, *args, check=True):
    return subprocess.run([CLI, "--state-dir", str(state), *args], capture_output=True, text=True, check=check, timeout=30)


def rotation(state, unique_id, *args):
    return json.loads(cli(state, "rotation", unique_id, *args, "--json").stdout)


def test_external_camera_ignores_the_host_until_given_a_mounting_correction(tmp_path):
    assert rotation(tmp_path, VCAM0, "--host-orientation", "right-up") == \
        {"preview_angle": 0, "capture_angle": 0, "mirrored": True}
    cli(tmp_path, "mount-rotation", VCAM0, "180")
    stored = (tmp_path / "camera-mounting").read_text()
    # The entries, then the end line with the checksum that tells a whole file from a cut one.
    assert stored.startswith(f"ocellus-mounting 2\n180 {VCAM0}\nend ") and len(stored.splitlines()[-1]) == 4 + 16
    assert rotation(tmp_path, VCAM0, "--host-orientation", "left-up", "--interface-orientation", "0") == \
        {"preview_angle": 270, "capture_angle": 180, "mirrored": True}
    assert rotation(tmp_path, VCAM0, "--host-orientation", "left-up", "--interface-orientation", "0", "--unmirrored") == \
        {"preview_angle": 90, "capture_angle": 180, "mirrored": False}


def test_built_in_back_camera_follows_the_host(tmp_path, cameras):
    # libcamera reports rotation counter-clockwise: 90 there is a 270° clockwise correction.
    cameras.add("rotback", "--prop", "api.libcamera.location=back", "--prop", "api.libcamera.rotation=90")
    assert rotation(tmp_path, "pipewire-rotback", "--host-orientation", "normal") == \
        {"preview_angle": 270, "capture_angle": 270, "mirrored": False}
    assert rotation(tmp_path, "pipewire-rotback", "--host-orientation", "left-up", "--interface-orientation", "follow") == \
        {"preview_angle": 0, "capture_angle": 0, "mirrored": False}
    refused = cli(tmp_path, "mount-rotation", "pipewire-rotback", "90", check=False)
    assert refused.returncode == 1 and "moves with the host" in refused.stderr


def test_a_virtual_camera_takes_no_mounting_correction(tmp_path, cameras):
    # Its picture is whatever its producer sends: there is no mounting to correct.
    cameras.add("rotvirt")
    refused = cli(tmp_path, "mount-rotation", "pipewire-rotvirt", "90", check=False)
    assert refused.returncode == 1 and "is a virtual camera" in refused.stderr
    assert not (tmp_path / "camera-mounting").exists()


def test_bad_input_is_refused(tmp_path):
    for args, words in ((["mount-rotation", VCAM0, "45"], "multiple of 90"),
                        (["mount-rotation", VCAM0, "-90"], "multiple of 90 from 0 to 270"),
                        (["mount-rotation", VCAM0, "360"], "multiple of 90 from 0 to 270"),
                        (["rotation", VCAM0, "--host-orientation", "sideways"], "unknown host orientation"),
                        (["rotation", VCAM0, "--interface-orientation", "45"], "multiple of 90"),
                        (["rotation", "usb-dead:beef-X"], "no connected device")):
        result = cli(tmp_path, *args, check=False)
        assert result.returncode == 1 and words in result.stderr, (args, result.stderr)


def test_coordinator_from_python(tmp_path):
    import threading
    import ocellus
    with ocellus.Context("org.ocellus.test.rotation", state_directory=str(tmp_path)) as ctx:
        camera = next(d for d in ctx.devices() if d.unique_id == VCAM0)
        with ctx.rotation_coordinator(camera) as coordinator:
            assert coordinator.mirrored and coordinator.angles == (0, 0)
            seen, changed = [], threading.Event()
            coordinator.add_callback(lambda preview, capture: (seen.append((preview, capture)), changed.set()))
            coordinator.set_interface_orientation(0)
            coordinator.set_host_orientation(90)          # an external camera: only the preview turns
            assert changed.wait(5) and seen == [(90, 0)] and coordinator.angles == (90, 0)
            coordinator.set_mounting_correction(270)
            assert coordinator.angles == (0, 270)
            with pytest.raises(ocellus.InvalidArgument, match="multiple of 90"):
                coordinator.set_host_orientation(45)
        # The correction was kept for the camera: a new coordinator starts with it.
        with ctx.rotation_coordinator(camera, mirrored=False) as again:
            assert again.angles == (270, 270) and not again.mirrored
        microphone = next(d for d in ctx.devices() if d.type is ocellus.DeviceType.MICROPHONE)
        with pytest.raises(ocellus.InvalidArgument, match="not a camera"):
            ctx.rotation_coordinator(microphone)


@pytest.fixture
def private_bus(tmp_path):
    """A private dbus-daemon for the stand-in sensor proxy."""
    config = tmp_path / "bus.conf"
    config.write_text(f"""<busconfig><type>session</type><listen>unix:path={tmp_path}/bus</listen>
<policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>""")
    daemon = subprocess.Popen(["dbus-daemon", "--config-file", str(config), "--print-address", "--nofork"],
                              stdout=subprocess.PIPE, text=True)
    address = daemon.stdout.readline().strip()
    yield address
    daemon.terminate()
    daemon.wait(5)


def start_proxy(address):
    proxy = subprocess.Popen(["/usr/bin/python3", os.path.join(os.path.dirname(__file__), "fake_sensor_proxy.py")],
                             env=dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address),
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert proxy.stdout.readline().strip() == "ready"
    return proxy


def test_host_orientation_follows_the_sensor_proxy(tmp_path, private_bus):
    proxy = start_proxy(private_bus)
    proxy.stdin.write("orientation left-up\n")
    proxy.stdin.flush()
    import time
    time.sleep(0.2)
    # An external camera: capture stays 0, the preview of a UI fixed at 0 turns with the host.
    assert rotation(tmp_path, VCAM0, "--sensor-bus", private_bus, "--interface-orientation", "0") == \
        {"preview_angle": 90, "capture_angle": 0, "mirrored": True}
    watcher = subprocess.Popen([CLI, "--state-dir", str(tmp_path), "rotation", VCAM0, "--sensor-bus", private_bus,
                                "--interface-orientation", "0", "--json", "--watch"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert json.loads(watcher.stdout.readline())["preview_angle"] == 90
        for value, preview in (("bottom-up", 180), ("undefined", None), ("right-up", 270)):
            proxy.stdin.write(f"orientation {value}\n")
            proxy.stdin.flush()
            if preview is not None:   # "undefined" keeps the last value: no line
                assert json.loads(watcher.stdout.readline())["preview_angle"] == preview
        proxy.stdin.write("quit\n")   # the proxy vanishes: the last value stays, nothing breaks
        proxy.stdin.flush()
        assert proxy.wait(10) == 0
        assert watcher.poll() is None
    finally:
        watcher.terminate()
        assert watcher.wait(10) == 0
        proxy.kill()


def test_without_a_sensor_proxy_the_host_is_upright(tmp_path, private_bus):
    result = cli(tmp_path, "rotation", VCAM0, "--sensor-bus", private_bus, "--json")
    assert json.loads(result.stdout) == {"preview_angle": 0, "capture_angle": 0, "mirrored": True}
    assert "iio-sensor-proxy does not answer" in result.stderr


def test_coordinator_follows_the_sensor_proxy_from_python(tmp_path, private_bus):
    import threading
    import ocellus
    with ocellus.Context("org.ocellus.test.rotation", state_directory=str(tmp_path)) as ctx:
        camera = next(d for d in ctx.devices() if d.unique_id == VCAM0)
        with ctx.rotation_coordinator(camera) as coordinator:
            with pytest.raises(ocellus.BackendUnavailable, match="does not answer"):
                coordinator.follow_host_sensor(private_bus)          # no proxy yet
            proxy = start_proxy(private_bus)
            try:
                coordinator.set_interface_orientation(0)
                coordinator.follow_host_sensor(private_bus)
                changed = threading.Event()
                coordinator.add_callback(lambda preview, capture: changed.set())
                proxy.stdin.write("orientation bottom-up\n")
                proxy.stdin.flush()
                assert changed.wait(10) and coordinator.angles == (180, 0)
            finally:
                proxy.kill()


def test_snap_and_record_take_the_host_orientation_from_the_sensor(tmp_path, cameras, private_bus):
    """A built-in back camera moves with the host: stills and movies record the capture angle for the
    host's orientation at that moment, read from iio-sensor-proxy (or given with --host-orientation)."""
    import time

    cameras.add("rotsnap", "--prop", "api.libcamera.location=back", "--prop", "api.libcamera.rotation=90")
    photo = str(tmp_path / "p.jpg")

    def snap(*args):
        return json.loads(cli(tmp_path, "snap", "pipewire-rotsnap", "-o", photo, "--json", *args).stdout)["orientation"]

    assert snap("--sensor-bus", private_bus) == 8, "no sensor proxy: the natural orientation, capture angle 270"
    proxy = start_proxy(private_bus)
    try:
        proxy.stdin.write("orientation left-up\n")
        proxy.stdin.flush()
        time.sleep(0.2)
        assert snap("--sensor-bus", private_bus) == 1, "turned left-up: the sensor already turned the picture upright"
        movie = json.loads(cli(tmp_path, "record", "pipewire-rotsnap", "-o", str(tmp_path / "c.mp4"), "--seconds", "1",
                               "--sensor-bus", private_bus, "--json").stdout)
        assert movie["orientation"] == 0
        assert snap("--sensor-bus", private_bus, "--host-orientation", "bottom-up") == 6, "given beats the sensor"
    finally:
        proxy.kill()
    refused = cli(tmp_path, "snap", "pipewire-rotsnap", "-o", photo, "--host-orientation", "sideways", check=False)
    assert refused.returncode == 1 and "unknown host orientation" in refused.stderr
