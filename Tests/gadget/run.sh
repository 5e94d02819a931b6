#!/bin/bash
# The USB gadget suite: boots the test guest and runs Tests/gadget/*.py in it
# against real uvcvideo and snd-usb-audio (GADGET_TESTS narrows it to some tests).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
JOB=$(mktemp /tmp/ocellus-gadget-job.XXXXXX)
trap 'rm -f "$JOB"' EXIT
sed "s|@ROOT@|$ROOT|; s|\${GADGET_TESTS:-Tests/gadget}|${GADGET_TESTS:-Tests/gadget}|" "$ROOT/Tests/gadget/job.sh" > "$JOB"
exec "$ROOT/scripts/vivid-vm.sh" "$JOB"
