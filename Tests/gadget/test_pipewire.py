"""Through PipeWire's own V4L2 and ALSA plugins: udev, PipeWire and WirePlumber
in the guest (testbed.sh --hardware), USB gadget cameras with a UAC2
microphone. One camera however many views of it, identity checked against
sysfs (never against a property PipeWire formats), the microphone paired with
its camera, its tone in recordings, sharing between processes, unplug."""

import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))
import ocellus  # noqa: E402
from gadgets import TONE_HZ, Gadget, expected_yuyv, stamp_of  # noqa: E402
from client import CLI, cli, record_identities, wait_for  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
TMP = Path(os.environ.get("TMPDIR", "/tmp"))
CAMERA = "usb-1d6b:0104-PWCAM001"


@pytest.fixture(scope="module", autouse=True)
def pipewire():
    """A private PipeWire + WirePlumber watching the guest's real devices; udevd runs (job.sh)."""
    directory = TMP / "pipewire-bed"
    started = subprocess.run([str(ROOT / "scripts/testbed.sh"), "start", "--hardware", "--cameras", "0",
                              "--mics", "0", "--dir", str(directory)], capture_output=True, text=True, timeout=60)
    assert started.returncode == 0, started.stderr
    saved = dict(os.environ)
    for line in started.stdout.splitlines():
        key, _, value = line.removeprefix("export ").partition("=")
        os.environ[key] = value
    try:
        yield
    finally:
        subprocess.run([str(ROOT / "scripts/testbed.sh"), "stop", str(directory)], timeout=30)
        os.environ.clear()
        os.environ.update(saved)


@pytest.fixture
def webcam():
    """A webcam with a microphone, plugged and visible in PipeWire."""
    with Gadget("pwcam", serial="PWCAM001", audio=True).plug(0) as gadget:
        wait_for(lambda: published_with_microphone(CAMERA), timeout=30, what="the camera and microphone in PipeWire")
        yield gadget


def listing():
    return {d["unique_id"]: d for d in json.loads(cli("list", "--json").stdout)}


def published_with_microphone(camera_id):
    """The camera as PipeWire publishes it, and its microphone, both listed. Until PipeWire's
    node appears the camera is listed through V4L2 (its backend then says so): a test of the
    PipeWire view waits for that node, not only for the ID."""
    devices = listing()
    return devices.get(camera_id, {}).get("pipewire_serial") is not None and f"{camera_id}-audio" in devices


def pipewire_objects():
    return json.loads(subprocess.run(["pw-dump"], capture_output=True, text=True, check=True).stdout)


def test_the_camera_is_listed_once_with_both_views_joined(webcam):
    devices = listing()
    cameras = [d for d in devices.values() if d["type"] != "microphone"]
    assert [c["unique_id"] for c in cameras] == [CAMERA]
    camera = cameras[0]
    assert camera["backend"] == "pipewire" and camera["v4l2_nodes"] == webcam.host_video_nodes()[:1]
    # PipeWire publishes the capture node only (uvcvideo's metadata node is not a camera there either).
    sources = [o for o in pipewire_objects() if (o.get("info") or {}).get("props", {}).get("media.class") == "Video/Source"]
    assert len(sources) == 1 and str(sources[0]["info"]["props"]["object.serial"]) == str(camera["pipewire_serial"])


def test_libcamera_and_the_v4l2_monitor_publishing_one_webcam_make_one_camera(webcam):
    """A desktop running both of WirePlumber's camera monitors publishes a USB webcam twice:
    the V4L2 node and libcamera's, whose camera ID names the USB interface and the model.
    Both are the one camera, with the identity sysfs gives."""
    directory = TMP / "pipewire-bed"
    interface = f"{webcam.bus_port}:1.0"
    added = subprocess.run([str(ROOT / "scripts/testbed.sh"), "add-camera", str(directory), "libcamwebcam",
                            "--prop", "device.api=libcamera", "--prop", "api.libcamera.location=external",
                            "--prop", f"api.libcamera.path=_SB_.PCI0.XHC_.RHUB.HS01-{interface}-1d6b:0104",
                            "--desc", "Gadget Webcam"], capture_output=True, text=True, timeout=30)
    assert added.returncode == 0, added.stderr
    try:
        time.sleep(1)
        cameras = {k: v for k, v in listing().items() if v["type"] != "microphone"}
        assert list(cameras) == [CAMERA], cameras
        assert cameras[CAMERA]["type"] == "external_camera"
    finally:
        subprocess.run([str(ROOT / "scripts/testbed.sh"), "remove-camera", str(directory), "libcamwebcam"], timeout=30)


def test_every_identity_field_is_what_the_kernel_says(webcam):
    camera = listing()[CAMERA]
    record_identities("pipewire: a webcam with a microphone", [camera, listing()[f"{CAMERA}-audio"]])
    sysfs = webcam.host_device_path()
    # Debian 12's spa-v4l2 publishes device.vendor.id as "0x1d6" (a too-short buffer): read sysfs, not it.
    assert camera["vendor_id"] == (sysfs / "idVendor").read_text().strip()
    assert camera["product_id"] == (sysfs / "idProduct").read_text().strip()
    assert camera["serial"] == (sysfs / "serial").read_text().strip()
    assert camera["name"] == (sysfs / "product").read_text().strip()
    assert camera["type"] == "external_camera"
    with ocellus.Context("org.ocellus.test.gadget") as ctx:
        device = ctx.device_by_unique_id(CAMERA)
        assert device.property("device.usb.port") == sysfs.name
        # The descriptors (read with libusb) say a camera terminal feeds it, and the UAC2 function
        # is not an external connector: a webcam with a microphone, not an HDMI grabber.
        assert device.property("device.video-input") == "camera"


NO_UDEV_DATABASE = r"""
mount -t tmpfs none /run/udev || exit 1
exec "$TESTBED" run --hardware --cameras 0 --mics 0 --dir "$OUT.bed" -- sh -c '
    for i in $(seq 200); do "$OCELLUS_CLI" list --json > "$OUT.json"; grep -q "$SERIAL" "$OUT.json" && break; sleep 0.1; done
    pw-dump > "$OUT.pw.json"'
"""


def test_identity_is_the_same_when_udev_has_no_entry_for_the_camera(webcam):
    """PipeWire names a device from its sysfs path when udev has no entry for it (1.4: "Unknown
    device") and leaves out the USB facts udev would have given: the camera is the same camera,
    with the same ID, name and identity, because they come from sysfs (a second daemon, in a mount
    namespace where /run/udev is empty)."""
    with_udev = listing()[CAMERA]
    out = TMP / "no-udev"
    environment = dict(os.environ, TESTBED=str(ROOT / "scripts/testbed.sh"), OUT=str(out), SERIAL="PWCAM001")
    for key in ("PIPEWIRE_REMOTE", "XDG_RUNTIME_DIR", "OCELLUS_TESTBED_DIR"):
        environment.pop(key, None)
    run = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", NO_UDEV_DATABASE],
                         capture_output=True, text=True, timeout=120, env=environment)
    assert run.returncode == 0, run.stderr
    published = [o["info"]["props"] for o in json.loads(Path(f"{out}.pw.json").read_text())
                 if (o.get("info") or {}).get("props", {}).get("media.class") == "Video/Device"]
    assert published and all("device.serial" not in props for props in published), "udev's facts were there"
    without_udev = {d["unique_id"]: d for d in json.loads(Path(f"{out}.json").read_text())}
    assert CAMERA in without_udev, list(without_udev)
    keys = ("name", "type", "vendor_id", "product_id", "serial")
    assert {k: without_udev[CAMERA][k] for k in keys} == {k: with_udev[k] for k in keys}


def test_the_webcams_microphone_is_its_associated_microphone(webcam):
    microphone = listing()[f"{CAMERA}-audio"]
    assert microphone["type"] == "microphone" and microphone["backend"] == "pipewire"
    with ocellus.Context("org.ocellus.test.gadget") as ctx:
        paired = ctx.associated_microphone(ctx.device_by_unique_id(CAMERA))
        assert paired is not None and paired.unique_id == f"{CAMERA}-audio"


def test_frames_through_pipewire_are_the_gadgets_pixels(webcam):
    out = TMP / "pw-yuyv.raw"
    cli("stream", CAMERA, "--format", "YUYV", "--size", "640x480", "--frames", "5", "--json", "--output", str(out))
    data = out.read_bytes()
    size = 640 * 480 * 2
    assert len(data) == 5 * size
    for i in range(5):
        frame = data[i * size:(i + 1) * size]
        number = stamp_of([frame[row * 1280:(row + 1) * 1280:2] for row in range(8)], 640)
        assert frame == expected_yuyv(640, 480, number)


def tone_of(samples, rate):
    """The strongest frequency, and the share of the sound's energy within 100 Hz of it (a spectrum:
    a dropout or a restart of the gadget's player changes the phase, which zero crossings would miscount)."""
    spectrum = numpy.abs(numpy.fft.rfft(numpy.asarray(samples, dtype=numpy.float64))) ** 2
    frequencies = numpy.fft.rfftfreq(len(samples), 1 / rate)
    peak = frequencies[numpy.argmax(spectrum[1:]) + 1]
    near = spectrum[(frequencies > peak - 100) & (frequencies < peak + 100)].sum()
    return peak, near / spectrum[1:].sum()


def test_a_recording_with_audio_carries_the_microphones_tone(webcam):
    movie = TMP / "pw-audio.mp4"
    summary = json.loads(cli("record", CAMERA, "-o", str(movie), "--seconds", "4", "--size", "320x240", "--audio",
                             "--json", timeout=120).stdout)
    # The encoder thins frames under emulation (x264 and AAC share two emulated cores: 8 to 11 frames
    # of 120 in four runs here, 59 without sound); the sound is the point here, the frames only need to be there.
    assert summary["frames"] >= 5
    pcm = subprocess.run(["ffmpeg", "-v", "error", "-i", str(movie), "-map", "0:a", "-f", "s16le", "-ac", "1",
                          "-ar", "48000", "-"], capture_output=True, check=True).stdout
    samples = [int.from_bytes(pcm[i:i + 2], "little", signed=True) for i in range(0, len(pcm) - 1, 2)]
    assert len(samples) > 48000 * 2, "less than two seconds of sound"
    tail = samples[len(samples) // 2:]     # the tone may start late (the gadget's card fills first)
    rms = math.sqrt(sum(s * s for s in tail) / len(tail))
    assert rms > 2000, f"the recording is nearly silent (rms {rms:.0f})"
    peak, share = tone_of(tail, 48000)
    assert abs(peak - TONE_HZ) < 5 and share > 0.5, f"strongest {peak:.0f} Hz holding {share:.0%} of the sound"


def stream_process(*args):
    return subprocess.Popen([CLI, "stream", CAMERA, "--format", "YUYV", "--size", "320x240", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_two_processes_stream_the_camera_at_once_and_an_unplug_reaches_both(webcam):
    first, second = stream_process("--frame-events"), stream_process("--frame-events")
    try:
        for process in (first, second):
            for _ in range(5):
                line = process.stdout.readline()
                assert line, process.stderr.read()
                assert json.loads(line)["event"] == "frame"
        webcam.unplug()
        for process in (first, second):
            assert process.wait(15) == 1
            assert "disconnect" in process.stderr.read().lower()
    finally:
        first.kill()
        second.kill()


def test_a_webcam_with_a_placeholder_serial_and_its_microphone_are_named_by_port():
    with Gadget("pw-placeholder", serial="0123456789", audio=True).plug(1):
        camera_id = "usb-1d6b:0104@2-1"
        wait_for(lambda: published_with_microphone(camera_id), timeout=30, what="the camera and its microphone by port in PipeWire")
        record_identities("pipewire: a webcam with a placeholder serial", [listing()[camera_id], listing()[f"{camera_id}-audio"]])
        with ocellus.Context("org.ocellus.test.gadget") as ctx:
            paired = ctx.associated_microphone(ctx.device_by_unique_id(camera_id))
            assert paired is not None and paired.unique_id == f"{camera_id}-audio"


def test_a_depth_camera_stays_one_v4l2_depth_camera_beside_pipewire():
    """PipeWire's V4L2 plugin publishes each of the depth camera's functions as a node (colour,
    infrared, depth: no depth formats): those views must not hide the depth, nor turn one
    unit's serial into a "shared" one. The camera is listed once, by its serial, through V4L2."""
    from test_depth import CAMERA as DEPTH_CAMERA, depth_gadget
    with depth_gadget().plug(0) as gadget:
        nodes = set(gadget.host_video_nodes())

        def published():
            return [o for o in pipewire_objects() if (o.get("info") or {}).get("props", {}).get("media.class") == "Video/Source"
                    and (o["info"]["props"].get("api.v4l2.path") in nodes)]
        wait_for(published, timeout=30, what="PipeWire's view of the depth camera")
        wait_for(lambda: DEPTH_CAMERA in listing(), timeout=20, what="the depth camera by its serial")
        cameras = [d for d in listing().values() if d["type"] != "microphone"]
        assert [(c["unique_id"], c["type"], c["backend"]) for c in cameras] == [(DEPTH_CAMERA, "depth_camera", "v4l2")]
        # 30 pictures: the depth stream starts a little after the picture's (4 depth maps in the
        # first 10 pictures once, with two emulated cores shared with a build).
        summary = json.loads(cli("stream", DEPTH_CAMERA, "--depth", "--frames", "30", "--json").stdout)
        assert summary["depth"]["pixel_format"] == "Z16" and summary["depth"]["frames"] >= 5


def test_controls_go_through_pipewire_when_the_node_is_out_of_reach(webcam):
    """A sandboxed app (or a libcamera camera) has no V4L2 node: the camera's controls come
    from its PipeWire node (PropInfo), set through Props, and are the same controls — names,
    ids, ranges — that the V4L2 node gives. Here the node is hidden by an empty /dev in a
    mount namespace of the CLI's own."""
    hidden = ["unshare", "--mount", "sh", "-c", 'mount -t tmpfs none /dev && exec "$@"', "sh", CLI]

    def run_hidden(*args):
        result = subprocess.run([*hidden, *args], capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stderr
        return result.stdout

    through_node = {c["name"]: c for c in json.loads(cli("controls", CAMERA, "--json").stdout)}
    through_pipewire = {c["name"]: c for c in json.loads(run_hidden("controls", CAMERA, "--json"))}
    brightness = through_pipewire["brightness"]
    same = through_node["brightness"]
    assert (brightness["id"], brightness["minimum"], brightness["maximum"], brightness["default"]) == \
        (same["id"], same["minimum"], same["maximum"], same["default"])
    run_hidden("controls", CAMERA, "--set", "brightness=20")
    wait_for(lambda: "brightness 20" in webcam.controls_logged(), timeout=5, what="the SET_CUR at the device")
    assert {c["name"]: c for c in json.loads(cli("controls", CAMERA, "--json").stdout)}["brightness"]["value"] == 20
    refused = subprocess.run([*hidden, "controls", CAMERA, "--set", "brightness=1000"], capture_output=True, text=True)
    assert refused.returncode != 0 and "between" in refused.stderr
