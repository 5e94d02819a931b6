#!/bin/bash
# The main job: set up, build, list the cameras and microphones, pick the
# system preferred camera and capture 30 frames from it. With no PipeWire
# daemon or no camera reachable, it starts a private PipeWire with a virtual
# camera first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
export PATH="$PATH:/opt/swift/usr/bin"
make -s build >/dev/null 2>&1 || make build

CLI=build/bin/ocellus
show() {
	"$CLI" list
	echo
	"$CLI" preferred
	local camera
	camera=$("$CLI" preferred --json | /usr/bin/python3 -c '
import json, sys
chosen = json.load(sys.stdin)["system_preferred"]
print(chosen["unique_id"] if chosen else "")')
	if [ -z "$camera" ]; then
		echo "no camera found"
		return 1
	fi
	echo
	"$CLI" stream "$camera" --frames 30
}

if "$CLI" list --json 2>/dev/null | grep -q '"type": "[a-z_]*camera"'; then
	show
else
	echo "No camera reachable: starting a private PipeWire with a virtual camera." >&2
	OCELLUS_CLI="$PWD/$CLI" scripts/testbed.sh run --cameras 1 --mics 1 -- bash -c "$(declare -f show); CLI=$CLI; show"
fi
