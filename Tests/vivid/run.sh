#!/bin/bash
# The V4L2 integration suite: boots the vivid VM and runs Tests/vivid/*.py in it.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
JOB=$(mktemp /tmp/ocellus-vivid-job.XXXXXX)
trap 'rm -f "$JOB"' EXIT
sed "s|@ROOT@|$ROOT|" "$ROOT/Tests/vivid/job.sh" > "$JOB"
exec "$ROOT/scripts/vivid-vm.sh" "$JOB"
