"""Controls through the library against every vivid control type, inside the VM."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bindings" / "python"))
import ocellus  # noqa: E402
from ocellus import ControlType  # noqa: E402

CLI = os.environ["OCELLUS_CLI"]
VIVID = "v4l2-platform:vivid-000"


@pytest.fixture
def camera():
    with ocellus.Context("org.ocellus.test.controls") as ctx:
        (device,) = [d for d in ctx.devices() if d.unique_id == VIVID]
        yield device


def by_name(device):
    return {c.name: c for c in device.controls()}


def test_every_vivid_control_type_is_described(camera):
    controls = by_name(camera)
    types = {c.type for c in controls.values()}
    assert types >= {ControlType.INTEGER, ControlType.BOOLEAN, ControlType.MENU, ControlType.BUTTON,
                     ControlType.INTEGER64, ControlType.STRING, ControlType.BITMASK, ControlType.INTEGER_MENU}
    brightness = controls["brightness"]
    assert (brightness.minimum, brightness.maximum, brightness.step, brightness.default) == (0, 255, 1, 128)
    assert controls["menu"].menu == {1: "Menu Item 1", 3: "Menu Item 3", 4: "Menu Item 4"}  # item 2 is a hole
    assert controls["integer_menu"].menu[8] == "42"
    assert "read-only" in controls["read_only_integer_32_bits"].flags
    assert {"inactive", "volatile"} <= controls["gain"].flags
    assert controls["button"].value is None and "write-only" in controls["button"].flags
    assert controls["bitmask"].value >= 0


@pytest.mark.parametrize("name, value", [("brightness", 200), ("boolean", 0), ("menu", 4), ("integer_menu", 7),
                                         ("integer_64_bits", -(2 ** 40)), ("bitmask", 0x80000010)])
def test_values_are_set_and_read_back(camera, name, value):
    camera.set_control(name, value)
    assert by_name(camera)[name].value == value


def test_a_button_can_be_pressed(camera):
    camera.set_control("button", 0)


@pytest.mark.parametrize("name, value, error, words", [
    ("brightness", 256, ocellus.InvalidArgument, "out of range"),
    ("menu", 2, ocellus.InvalidArgument, "not an item"),
    ("read_only_integer_32_bits", 1, ocellus.WrongState, "read-only"),
    ("string", 3, ocellus.InvalidArgument, "string"),
    ("bitmask", 0x2, ocellus.InvalidArgument, "outside the mask"),
    ("no_such_control", 1, ocellus.NotFound, "no control named"),
])
def test_bad_values_are_refused_with_a_reason(camera, name, value, error, words):
    before = by_name(camera).get(name)
    with pytest.raises(error, match=words):
        camera.set_control(name, value)
    if before is not None and before.value is not None:
        assert by_name(camera)[name].value == before.value  # nothing changed


def test_configuration_lock_keeps_other_clients_out(camera):
    with camera.lock_for_configuration():
        camera.set_control("contrast", 99)  # the holder may change controls
        other = subprocess.run([CLI, "controls", VIVID, "--set", "contrast=10"], capture_output=True, text=True)
        assert other.returncode == 1 and "locked for configuration by another client" in other.stderr
        with pytest.raises(ocellus.WrongState, match="already locked"):
            camera.lock_for_configuration()
    assert subprocess.run([CLI, "controls", VIVID, "--set", "contrast=10"], capture_output=True).returncode == 0
    lock = camera.lock_for_configuration()
    lock.unlock()
    with pytest.raises(ocellus.WrongState, match="not locked"):
        lock.unlock()


def test_cli_controls_json_shape():
    result = subprocess.run([CLI, "controls", VIVID, "--json"], capture_output=True, text=True, check=True)
    controls = {c["name"]: c for c in json.loads(result.stdout)}
    assert set(controls["menu"]) == {"name", "id", "type", "minimum", "maximum", "step", "default", "value", "flags", "menu"}
    assert controls["menu"]["menu"][0] == {"value": 1, "name": "Menu Item 1"}


def test_cli_takes_hex_negative_values_and_button_presses():
    # As v4l2-ctl takes them: -c bitmask=0x80000010, -c integer_64_bits=-16, -c button=1.
    subprocess.run([CLI, "controls", VIVID, "--set", "bitmask=0x80000010", "--set", "integer_64_bits=-0x10",
                    "--set", "brightness=-0", "--set", "button=1"], capture_output=True, text=True, check=True)
    result = subprocess.run([CLI, "controls", VIVID, "--json"], capture_output=True, text=True, check=True)
    controls = {c["name"]: c for c in json.loads(result.stdout)}
    assert controls["bitmask"]["value"] == 0x80000010
    assert controls["integer_64_bits"]["value"] == -16
    assert controls["brightness"]["value"] == 0
    bad = subprocess.run([CLI, "controls", VIVID, "--set", "brightness=0xZZ"], capture_output=True, text=True)
    assert bad.returncode == 2 and "bad setting" in bad.stderr
