#!/bin/bash
# Sets up and runs every suite (Swift, C ABI, Python, Rust — each inside its own
# private PipeWire test bed — and the V4L2 suite in the vivid VM), then prints one
# closing line: "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh || exit 1
export PATH="$PATH:/opt/swift/usr/bin"
# Voice isolation's engines, which the suites then require (not installed, they would skip them).
engines=$(scripts/fetch-voice-engines.sh) || exit 1
export $engines OCELLUS_REQUIRE_VOICE_ENGINES=1
make build || exit 1

LOGS=$(mktemp -d /tmp/ocellus-test-logs.XXXXXX)
trap 'rm -rf "$LOGS"' EXIT
passed=0 failed=0 broken=()

suite() {   # NAME MAKE_TARGET COUNT_FUNCTION
	local name="$1" target="$2" counter="$3" p f
	echo "=== $name ==="
	timeout 900 make -s "$target" 2>&1 | tee "$LOGS/$name.log" | grep -v 'prohibited flag'
	local status=${PIPESTATUS[0]}
	read -r p f < <("$counter" "$LOGS/$name.log")
	# A suite that failed without a failed test (crash, hang, build error) counts as one failure.
	if [ "$status" != 0 ] && [ "${f:-0}" = 0 ]; then f=1; fi
	passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
	[ "$status" = 0 ] || broken+=("$name")
}

count_plain() {   # the last "N passed, N failed" line (make's own error line may follow it)
	grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$1" | tail -1 | awk '{ p = $1; f = $3 } END { print p + 0, f + 0 }'
}
count_pytest() {
	tail -1 "$1" | awk '{ for (i = 2; i <= NF; i++) { if ($i ~ /^passed/) p = $(i - 1); if ($i ~ /^failed/ || $i ~ /^errors?/) f += $(i - 1) } } END { print p + 0, f + 0 }'
}
count_cargo() { awk '/^test result:/ { p += $4; f += $6 } END { print p + 0, f + 0 }' "$1"; }

suite swift test-swift count_plain
suite c test-c count_plain
suite badinput test-badinput count_plain
suite python test-python count_pytest
suite portal test-portal count_pytest
suite rust test-rust count_cargo
suite examples test-examples count_plain
suite fuzz test-fuzz count_plain
suite v4l2-vivid test-vivid count_plain
suite usb-gadget test-gadget count_plain
suite debian test-debian count_plain
suite ffmpeg test-ffmpeg count_plain

[ ${#broken[@]} = 0 ] || echo "failing suites: ${broken[*]}"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ ${#broken[@]} = 0 ]
