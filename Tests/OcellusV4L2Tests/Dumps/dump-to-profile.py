#!/usr/bin/env python3
"""dump-to-profile.py DUMP [SYSFS-MAP] — turns the output of camera-streamer's
dump_cameras.sh (every line `/dev/videoN | <v4l2-ctl output>`), or one node's plain
`v4l2-ctl -D/--all --list-formats-ext` output (DUMP given as `videoN=FILE`), into the node blocks
of a device profile (../Profiles/*.profile): driver, card, bus info, device caps and
the capture formats (sizes and intervals; output-queue formats are left out, as the
backend never enumerates them) and the controls. The dumps do not carry sysfs paths: SYSFS-MAP lines
`videoN PATH` give each node's device directory; the profile's `usb` blocks (what
sysfs would say of the USB device) are written by hand beside them."""
import re
import sys
from collections import OrderedDict

nodes = OrderedDict()
single, _, path = sys.argv[1].rpartition("=")
for line in open(path, encoding="utf-8", errors="replace"):
    match = re.match(r"^/dev/(video\d+) \| ?(.*)$", line.rstrip("\n"))
    if single:
        nodes.setdefault(single, []).append(line.strip())
    elif match:
        nodes.setdefault(match.group(1), []).append(match.group(2).strip())
paths = {}
if len(sys.argv) > 2:
    for line in open(sys.argv[2]):
        if line.strip():
            name, path = line.split()
            paths[name] = path

for name, lines in nodes.items():
    print(f"node {name} {paths.get(name, '')}".rstrip())
    fields = {}
    section = None
    for text in lines:
        key, _, value = text.partition(":")
        key, value = key.strip(), value.strip()
        if key in ("Driver name", "Card type", "Bus info", "Device Caps") and key not in fields:
            fields[key] = value
        if text.startswith("Type: "):
            section = text[len("Type: "):]
        elif section and section.startswith("Video Capture") and re.match(r"^(\[\d+\]:|Size:|Interval:)", text):
            fields.setdefault("formats", []).append(text)
        if re.match(r"^\w+ 0x[0-9a-f]{8} \(", text) or (re.match(r"^\d+: ", text) and fields.get("controls")):
            fields.setdefault("controls", []).append(text)   # controls, and the items of a menu control
    print(f"  driver {fields.get('Driver name', '')}")
    print(f"  card {fields.get('Card type', '')}")
    print(f"  bus_info {fields.get('Bus info', '')}")
    print(f"  device_caps {fields.get('Device Caps', '0x0')}")
    for text in fields.get("formats", []) + fields.get("controls", []):
        print(f"    {text}")
