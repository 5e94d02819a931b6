"""Face-driven exposure and focus settings (behaviour §4) through the binding and the CLI, on the
PipeWire test bed. Virtual cameras have no exposure or focus to steer (tier none); the closed loop
on a camera that has them runs on the real uvcvideo (Tests/gadget/test_face_driven.py)."""

import json
import os
import subprocess

import pytest

CLI = os.environ.get("OCELLUS_CLI", "ocellus")


def camera(context, unique_id):
    return next(d for d in context.devices() if d.unique_id == unique_id)


def test_settings_default_to_automatic_and_follow_the_camera_not_the_handle(cameras):
    import ocellus
    cameras.add("facedrv")
    with ocellus.Context("org.ocellus.test.facedriven") as context:
        device = camera(context, "pipewire-facedrv")
        for adjustment in ocellus.FaceDrivenAdjustment:
            state = device.face_driven(adjustment)
            assert state == ocellus.FaceDrivenState(automatically_adjusts=True, enabled=True,
                                                    tier=ocellus.FaceDrivenTier.NONE, active=False)
        device.set_face_driven(ocellus.FaceDrivenAdjustment.EXPOSURE, automatically_adjusts=False, enabled=False)
        again = camera(context, "pipewire-facedrv")   # another handle of the same camera
        assert again.face_driven(ocellus.FaceDrivenAdjustment.EXPOSURE).enabled is False
        assert again.face_driven(ocellus.FaceDrivenAdjustment.FOCUS).enabled is True, "each adjustment is its own"
        device.set_face_driven(ocellus.FaceDrivenAdjustment.EXPOSURE, automatically_adjusts=True)
        assert again.face_driven(ocellus.FaceDrivenAdjustment.EXPOSURE).automatically_adjusts is True
    with ocellus.Context("org.ocellus.test.facedriven") as context:
        # A process's settings: a new context starts from the defaults.
        assert camera(context, "pipewire-facedrv").face_driven(ocellus.FaceDrivenAdjustment.EXPOSURE).enabled is True
    assert ocellus.FaceDrivenTier.HOST.label == "host" and ocellus.FaceDrivenTier.CAMERA_REGION.label == "roi"


def test_a_microphone_or_an_unknown_adjustment_is_refused_with_the_reason(cameras):
    import ocellus
    with ocellus.Context("org.ocellus.test.facedriven") as context:
        microphone = next(d for d in context.devices() if d.type == ocellus.DeviceType.MICROPHONE)
        with pytest.raises(ocellus.InvalidArgument, match="not a camera"):
            microphone.face_driven(ocellus.FaceDrivenAdjustment.FOCUS)
        cameras.add("facedrv2")
        device = camera(context, "pipewire-facedrv2")
        with pytest.raises(ocellus.InvalidArgument, match="OC_FACE_DRIVEN_EXPOSURE"):
            device.face_driven(7)   # type: ignore[arg-type]


def test_the_cli_lists_the_adjustments_beside_the_controls_and_takes_the_switches(cameras):
    cameras.add("facecli")
    listed = json.loads(subprocess.run([CLI, "controls", "pipewire-facecli", "--json"], capture_output=True, text=True,
                                       check=True).stdout)
    entries = {c["name"]: c for c in listed}
    for name in ("face_driven_exposure", "face_driven_focus"):
        entry = entries[name]
        assert (entry["enabled"], entry["automatically_adjusts"], entry["tier"], entry["active"]) == (True, True, "none", False)
        assert (entry["type"], entry["value"]) == ("bool", 1)
    run = subprocess.run([CLI, "stream", "pipewire-facecli", "--frames", "5", "--json", "--no-face-exposure", "--no-face-focus"],
                         capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout.splitlines()[-1])["frames"] == 5
