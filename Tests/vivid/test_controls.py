"""Controls through the library against every vivid control type, inside the VM."""

import json
import os
import re
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


def cli_controls():
    """The driver's controls `controls --json` lists; Ocellus's own face-driven entries (id 0,
    after the driver's) are checked apart."""
    result = subprocess.run([CLI, "controls", VIVID, "--json"], capture_output=True, text=True, check=True)
    listed = json.loads(result.stdout)
    ocellus = [c["name"] for c in listed if c["id"] == 0]
    assert listed[-len(ocellus):] == [c for c in listed if c["id"] == 0], "Ocellus's entries come after the driver's"
    assert ocellus == ["face_driven_exposure", "face_driven_focus"]
    assert all(c["tier"] in ("none", "host", "roi") for c in listed if c["id"] == 0)
    return {c["name"]: c for c in listed if c["id"] != 0}


CTRL_LINE = re.compile(r"^\s*(\S+) 0x([0-9a-f]{8}) \((\w+)\)\s*: ?(.*)$")
MENU_LINE = re.compile(r"^\t+(-?\d+): (.*)$")
FLAG_NAMES = {"0x00000800": "dynamic-array"}   # V4L2_CTRL_FLAG_DYNAMIC_ARRAY, newer than v4l-utils 1.22
# v4l2-ctl's short type names where they differ from Ocellus's.
TYPE_NAMES = {"str": "string"}


def v4l2_ctl_controls(node):
    """`v4l2-ctl --list-ctrls-menus`, parsed: name -> {id, type, fields (min=, max=, …), flags, menu}."""
    output = subprocess.run(["v4l2-ctl", "-d", node, "--list-ctrls-menus"], capture_output=True, text=True, check=True).stdout
    controls, current = {}, None
    for line in output.splitlines():
        if (match := CTRL_LINE.match(line)):
            name, cid, ctype, rest = match.groups()
            fields, flags = {}, set()
            if "flags=" in rest:
                rest, flag_text = rest.split("flags=", 1)
                # Flags this v4l2-ctl has no name for it prints in hex: name them as V4L2 does.
                flags = {FLAG_NAMES.get(f.strip(), f.strip()) for f in flag_text.split(",") if f.strip()}
            if (quoted := re.search(r"value='(.*)'", rest)):
                fields["value"] = quoted.group(1)
                rest = rest[:quoted.start()] + rest[quoted.end():]
            for key, value in re.findall(r"(\w+)=(\S+)", rest):
                fields.setdefault(key, value)
            current = controls[name] = {"id": int(cid, 16), "type": TYPE_NAMES.get(ctype, ctype), "fields": fields,
                                        "flags": flags, "menu": {}}
        elif current is not None and (match := MENU_LINE.match(line)):
            current["menu"][int(match.group(1))] = match.group(2)
    return controls


def test_every_control_matches_v4l2_ctl_control_by_control():
    ours = cli_controls()
    node = next(d for d in json.loads(subprocess.run([CLI, "list", "--json"], capture_output=True, text=True,
                                                     check=True).stdout) if d["unique_id"] == VIVID)["v4l2_nodes"][0]
    theirs = v4l2_ctl_controls(node)
    assert len(theirs) >= 55 and sorted(ours) == sorted(theirs)   # every control, none made up
    for name, expected in theirs.items():
        control, fields = ours[name], expected["fields"]
        assert (control["id"], control["type"]) == (expected["id"], expected["type"]), name
        assert set(control["flags"]) == expected["flags"], name
        for key, ocellus_key in (("min", "minimum"), ("max", "maximum"), ("step", "step"), ("default", "default")):
            if key in fields and control["type"] not in ("area",):
                assert control[ocellus_key] == int(fields[key], 0), (name, key)
        if "dims" in fields:
            assert "".join(f"[{d}]" for d in control["dimensions"]) == fields["dims"], name
        if "value" in fields and "volatile" not in expected["flags"] and "write-only" not in expected["flags"]:
            value = fields["value"]
            if control["type"] == "string":
                assert control["value"] == value, name
            elif control["type"] == "area":
                assert f'{control["value"]["width"]}x{control["value"]["height"]}' == value, name
            elif control["type"] == "bitmask":   # v4l2-ctl prints the 32 bits signed
                assert control["value"] == int(value, 0) % 2 ** 32, name
            else:
                assert control["value"] == int(value, 0), name
        if expected["menu"]:
            menu = {item["value"]: item["name"] for item in control["menu"]}
            if control["type"] == "intmenu":   # v4l2-ctl writes "42 (0x2a)"
                assert {k: int(v.split()[0]) for k, v in expected["menu"].items()} == {k: int(v) for k, v in menu.items()}, name
            else:
                assert menu == expected["menu"], name


def test_string_and_array_controls_are_set_and_read_back():
    controls = cli_controls()
    string, array = controls["string"], next(c for c in controls.values() if c["type"] == "u8" and c.get("dimensions"))
    text = "x" * max(string["minimum"], 3)
    low, high = array["minimum"], array["maximum"]
    elements = [low + (index * 7) % (high - low + 1) for index in range(len(array["value"]))]
    settings = ["--set", f"string={text}", "--set", f"{array['name']}=[{','.join(map(str, elements))}]"]
    subprocess.run([CLI, "controls", VIVID, *settings], capture_output=True, text=True, check=True)
    after = cli_controls()
    assert after["string"]["value"] == text and after[array["name"]]["value"] == elements
    too_long = subprocess.run([CLI, "controls", VIVID, "--set", "string=" + "y" * (string["maximum"] + 1)],
                              capture_output=True, text=True)
    assert too_long.returncode == 1 and "out of range" in too_long.stderr
    short = subprocess.run([CLI, "controls", VIVID, "--set", f"{array['name']}=[1,2]"], capture_output=True, text=True)
    assert short.returncode == 1 and "elements" in short.stderr
    if high < 255:   # an element the driver would clamp is refused, as single values are
        wide = [high + 1] + elements[1:]
        refused = subprocess.run([CLI, "controls", VIVID, "--set", f"{array['name']}={wide}".replace(" ", "")],
                                 capture_output=True, text=True)
        assert refused.returncode == 1 and "out of range" in refused.stderr
    assert cli_controls()[array["name"]]["value"] == elements   # nothing changed


def test_payload_controls_from_python(camera):
    controls = by_name(camera)
    assert controls["string"].string is not None and controls["string"].value is None
    camera.set_control("string", "abcd"[:max(controls["string"].minimum, 2)])
    assert by_name(camera)["string"].string == "abcd"[:max(controls["string"].minimum, 2)]
    array = next(c for c in controls.values() if c.type == ControlType.U8 and c.dimensions)
    pattern = bytes(array.minimum + index % (array.maximum - array.minimum + 1) for index in range(len(array.payload)))
    camera.set_control(array.name, pattern)
    assert by_name(camera)[array.name].payload == pattern
    with pytest.raises(ocellus.InvalidArgument, match="elements"):
        camera.set_control(array.name, b"\x01")
