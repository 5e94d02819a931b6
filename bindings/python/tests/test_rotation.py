"""`ocellus rotation` and `ocellus mount-rotation` (SPEC §3) on the real daemon's cameras."""

import json
import os
import subprocess

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
    assert (tmp_path / "camera-mounting").read_text() == f"ocellus-mounting 1\n180 {VCAM0}\n"
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


def test_bad_input_is_refused(tmp_path):
    for args, words in ((["mount-rotation", VCAM0, "45"], "multiple of 90"),
                        (["rotation", VCAM0, "--host-orientation", "sideways"], "unknown host orientation"),
                        (["rotation", VCAM0, "--interface-orientation", "45"], "multiple of 90"),
                        (["rotation", "usb-dead:beef-X"], "no connected device")):
        result = cli(tmp_path, *args, check=False)
        assert result.returncode == 1 and words in result.stderr, (args, result.stderr)
