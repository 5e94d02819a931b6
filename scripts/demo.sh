#!/bin/bash
# The main job: set up, build, list the cameras and microphones, and name the
# camera Ocellus would pick. With no PipeWire daemon or no camera reachable, it
# starts a private PipeWire with a virtual camera first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PATH:/opt/swift/usr/bin"
make -s build >/dev/null 2>&1 || make build

CLI=build/bin/ocellus
show() {
	"$CLI" list
	echo
	"$CLI" list --json | /usr/bin/python3 -c '
import json, sys
devices = json.load(sys.stdin)
cameras = [d for d in devices if d["type"] != "microphone"]
if cameras:
    first = cameras[0]
    print("default camera: %s (%s, %s)" % (first["name"], first["unique_id"], first["type"]))
else:
    print("no camera found")'
}

if "$CLI" list --json 2>/dev/null | grep -q '"type": "[a-z_]*camera"'; then
	show
else
	echo "No camera reachable: starting a private PipeWire with a virtual camera." >&2
	OCELLUS_CLI="$PWD/$CLI" scripts/testbed.sh run --cameras 1 --mics 1 -- bash -c "$(declare -f show); CLI=$CLI; show"
fi
