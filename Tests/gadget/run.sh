#!/bin/bash
# The USB gadget suite: boots the test guest and runs Tests/gadget/*.py in it against
# real uvcvideo and snd-usb-audio (GUEST_TESTS narrows it, e.g. to one file).
exec "$(cd "$(dirname "$0")/../.." && pwd)/scripts/vivid-vm.sh" "$(dirname "$0")/job.sh"
