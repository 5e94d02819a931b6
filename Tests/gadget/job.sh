# Runs inside the test guest (scripts/vivid-vm.sh), chrooted into the host's / :
# loads the USB gadget stack on the patched dummy_hcd (one bus per instance) and
# the real host drivers (uvcvideo, snd-usb-audio), then runs the pytest suite
# beside this file. Gadgets are declared and plugged by the tests (gadgets.py).
ROOT=@ROOT@
# The kernel cannot load modules on its own from the chroot: load each explicitly.
modprobe -a configfs usbcore udc_core libcomposite usb_f_uac2 uvcvideo snd-usb-audio || exit 1
# The UVC function is ours (scripts/build-test-modules.sh: it declares exposure, focus and gain),
# after what Debian's own depends on.
modprobe -a $(modinfo -F depends usb_f_uvc | tr , ' ') || exit 1
insmod "$ROOT/build/vm/usb_f_uvc.ko" || exit 1
mount -t configfs none /sys/kernel/config || exit 1
insmod "$ROOT/build/vm/dummy_hcd.ko" num=4 || exit 1
# udev, as on a real machine: PipeWire's V4L2 and ALSA monitors find devices through it.
export SYSTEMD_IGNORE_CHROOT=1
mkdir -p /run/udev
/lib/systemd/systemd-udevd --resolve-names=never > "$TMPDIR/udevd.log" 2>&1 &
udevadm trigger --action=add && udevadm settle -t 30
export PYTHONDONTWRITEBYTECODE=1 OCELLUS_GADGET=1
export OCELLUS_CLI=$ROOT/build/bin/ocellus OCELLUS_LIBRARY=$ROOT/build/lib/libocellus.so.0
export OCELLUS_UVC_GADGET=$ROOT/build/testbed/uvc-gadget
cd "$ROOT" || exit 1
TESTS="@TESTS@"
# Each test's name as it ends (-v), on the console as it happens: a hung guest shows where it hung.
{ /usr/bin/python3 -m pytest -v --durations=12 -p no:cacheprovider --color=no ${TESTS:-Tests/gadget} 2>&1; echo $? > "$TMPDIR/pytest.status"; } |
	tee "$TMPDIR/pytest.log"
status=$(cat "$TMPDIR/pytest.status")
# What this stack listed for the gadgets, for scripts/test.sh to compare across stacks.
[ -f "$TMPDIR/identities.jsonl" ] && sed 's/^/identity: /' "$TMPDIR/identities.jsonl"
passed=$(tail -1 "$TMPDIR/pytest.log" | grep -o '[0-9]* passed' | cut -d' ' -f1)
failed=$(tail -1 "$TMPDIR/pytest.log" | grep -o '[0-9]* failed' | cut -d' ' -f1)
errors=$(tail -1 "$TMPDIR/pytest.log" | grep -o '[0-9]* error' | cut -d' ' -f1)
failed=$(( ${failed:-0} + ${errors:-0} ))
[ "$status" = 0 ] || [ "$failed" != 0 ] || failed=1
echo "${passed:-0} passed, $failed failed"
[ "$failed" = 0 ]
