#!/bin/bash
# Sets up and runs every suite (Swift, C ABI, Python, Rust — each inside its own
# private PipeWire test bed — and the V4L2 suite in the vivid VM) on this machine's
# Debian 12 stack, then again on Debian 13's (scripts/trixie-root.sh: PipeWire 1.4,
# WirePlumber 0.5, FFmpeg 7.1, kernel 6.12 in the guest), then prints one closing
# line: "N passed, N failed". Each suite's time is printed after it.
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
LOGS=$(mktemp -d /tmp/ocellus-test-logs.XXXXXX)
trap 'rm -rf "$LOGS"' EXIT
# The Debian 13 root (minutes of download and unpacking on a fresh machine) is made while this
# machine sets up and builds, and waited for before any test runs, so that no test shares the
# machine with it.
scripts/setup.sh debootstrap || exit 1
scripts/trixie-root.sh >"$LOGS/trixie-root.log" 2>&1 &
trixie_root=$!
scripts/setup.sh || exit 1
# Voice isolation's engines, which the suites then require (not installed, they would skip them).
engines=$(scripts/fetch-voice-engines.sh) || exit 1
export $engines OCELLUS_REQUIRE_VOICE_ENGINES=1
make build || exit 1
began=$SECONDS
wait "$trixie_root"
trixie_status=$?
echo "=== the Debian 13 root: ready $((SECONDS - began)) s after the build ==="
passed=0 failed=0 broken=()

suite() {   # NAME COUNT_FUNCTION COMMAND...
	local name="$1" counter="$2" p f began=$SECONDS
	shift 2
	echo "=== $name ==="
	timeout 900 "$@" 2>&1 | tee "$LOGS/$name.log" | grep -v 'prohibited flag'
	local status=${PIPESTATUS[0]}
	echo "=== $name: $((SECONDS - began)) s ==="
	read -r p f < <("$counter" "$LOGS/$name.log")
	# A suite that failed without a failed test (crash, hang, build error) counts as one failure.
	if [ "$status" != 0 ] && [ "${f:-0}" = 0 ]; then f=1; fi
	passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
	[ "$status" = 0 ] || broken+=("$name")
	[ "$status" = 0 ]
}

count_plain() {   # the last "N passed, N failed" line (make's own error line may follow it)
	grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$1" | tail -1 | awk '{ p = $1; f = $3 } END { print p + 0, f + 0 }'
}
count_all() {   # every "N passed, N failed" line summed: a suite of several programs run one after another
	grep -E '^[0-9]+ passed, [0-9]+ failed' "$1" | awk '{ p += $1; f += $3 } END { print p + 0, f + 0 }'
}
count_pytest() {
	tail -1 "$1" | awk '{ for (i = 2; i <= NF; i++) { if ($i ~ /^passed/) p = $(i - 1); if ($i ~ /^failed/ || $i ~ /^errors?/) f += $(i - 1) } } END { print p + 0, f + 0 }'
}
count_cargo() { awk '/^test result:/ { p += $4; f += $6 } END { print p + 0, f + 0 }' "$1"; }

# The lines that name what failed in a suite's log, in any of the suites' formats (pytest's short
# summary, TAP, Swift Testing, XCTest, cargo), so that the end of a long run says which tests failed.
what_failed() {
	grep -aE '^(FAILED|ERROR) |^not ok|✘ Test|error: -\[|^test .* FAILED$|^---- .* stdout ----$' "$1" | head -20
	tail -3 "$1"
}

suite swift count_plain make -s test-swift
suite c count_plain make -s test-c
suite abi count_plain make -s test-abi
suite dist count_plain make -s test-dist
suite badinput count_plain make -s test-badinput
suite python count_pytest make -s test-python
suite portal count_pytest make -s test-portal
suite rust count_cargo make -s test-rust
suite examples count_plain make -s test-examples
suite fuzz count_plain make -s test-fuzz
suite tsan count_all make -s test-tsan
suite v4l2-vivid count_plain make -s test-vivid
suite usb-gadget count_plain make -s test-gadget
suite debian count_plain make -s test-debian
suite ffmpeg count_plain make -s test-ffmpeg

# Debian 13: the root (built once, then cached), the project built there from its own copy of
# this checkout, and every suite whose outcome can depend on the stack: not the fuzzing smoke run,
# the FFmpeg headers check, ThreadSanitizer's run or the bad-input suite (argument checks of our
# own code before any stack is reached); the guest boots Debian 13's kernel.
if [ "$trixie_status" = 0 ]; then
	if suite trixie-build count_plain scripts/trixie-root.sh run sh -c 'make -s build && echo "1 passed, 0 failed"'; then
		suite trixie-swift count_plain scripts/trixie-root.sh run make -s test-swift
		suite trixie-c count_plain scripts/trixie-root.sh run make -s test-c
		suite trixie-python count_pytest scripts/trixie-root.sh run make -s test-python
		suite trixie-rust count_cargo scripts/trixie-root.sh run make -s test-rust
		suite trixie-examples count_plain scripts/trixie-root.sh run make -s test-examples
		suite trixie-portal count_pytest scripts/trixie-root.sh run make -s test-portal
		suite trixie-v4l2-vivid count_plain scripts/trixie-root.sh run make -s test-vivid
		# Center Stage following a walk and the narrow-lens focus sweep are the library's own logic,
		# the same on either stack, and the suite's longest (4 minutes): run on Debian 12's leg only.
		suite trixie-usb-gadget count_plain scripts/trixie-root.sh run make -s test-gadget \
			GUEST_TESTS="--deselect Tests/gadget/test_center_stage.py::test_a_face_walking_across_the_room_stays_centred --deselect Tests/gadget/test_face_driven.py::test_a_lens_sharp_only_near_the_face_is_found_from_a_manual_focus_far_off Tests/gadget"
		# The same gadgets listed on both stacks: the same devices, IDs and all.
		suite gadget-identity count_plain scripts/compare-identities.py "$LOGS/usb-gadget.log" "$LOGS/trixie-usb-gadget.log"
		suite trixie-debian count_plain scripts/trixie-root.sh run make -s test-debian
	fi
else
	cat "$LOGS/trixie-root.log"
	echo "not ok - the Debian 13 root could not be built"; failed=$((failed + 1)); broken+=(trixie)
fi

for name in "${broken[@]}"; do
	[ -f "$LOGS/$name.log" ] || continue
	echo "=== what failed in $name ==="
	what_failed "$LOGS/$name.log"
done
[ ${#broken[@]} = 0 ] || echo "failing suites: ${broken[*]}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ ${#broken[@]} = 0 ]
