#!/bin/bash
# The V4L2 integration suite: boots the vivid VM and runs Tests/vivid/*.py in it.
exec "$(cd "$(dirname "$0")/../.." && pwd)/scripts/vivid-vm.sh" "$(dirname "$0")/job.sh"
