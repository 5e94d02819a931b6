#!/bin/bash
# What linking and opening Ocellus costs (issue 14's goals), inside scripts/testbed.sh with
# 8 cameras: libraries and resident memory of a program that calls oc_version() alone and
# after oc_context_create(); oc_context_destroy() time; and the instructions `ocellus list
# --json` takes beside `pw-dump` on the same daemon, counted by callgrind in the same run;
# and what an idle context costs while other processes write to /dev/null 100 times a
# second (instructions per second, beside the same context on a quiet machine: goal ≈ 0 more).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="$ROOT/build"
WORK=$(mktemp -d /tmp/ocellus-footprint.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cc -O2 -I"$BUILD/include" -o "$WORK/footprint" "$ROOT/Tests/c/footprint.c" -L"$BUILD/lib" -locellus
cc -O2 -I"$BUILD/include" -o "$WORK/destroy" "$ROOT/bench/destroy_bench.c" -L"$BUILD/lib" -locellus
cc -O2 -I"$BUILD/include" -o "$WORK/idle" "$ROOT/bench/idle_bench.c" -L"$BUILD/lib" -locellus
export LD_LIBRARY_PATH="$BUILD/lib"
# USB-shaped, each with a serial: listing classifies every serial.
for index in $(seq 2 7); do
	"$ROOT/scripts/testbed.sh" add-camera "$OCELLUS_TESTBED_DIR" "benchcam$index" --device-prop device.bus=usb \
		--device-prop device.vendor.id=0x046d --device-prop device.product.id=0x082d \
		--device-prop "device.serial=B61D${index}EAF" >/dev/null
done

read -r _ libraries _ rss _ _ _ _ _ context_rss _ < <("$WORK/footprint" | tr '\n' ' '; echo)
verdict() { if awk "BEGIN { exit !($1 <= $2) }"; then echo "meets"; else echo "MISSES"; fi; }
echo "oc_version() alone: $libraries libraries ($(verdict "$libraries" 25) ≤ 25), $rss KiB resident ($(verdict "$rss" 8192) ≤ 8 MiB)"
echo "after oc_context_create: $context_rss KiB resident ($(verdict "$context_rss" 12288) ≤ 12 MiB)"
destroy=$("$WORK/destroy" 20)
echo "oc_context_destroy: median $destroy ms over 20 ($(verdict "$destroy" 2) ≤ 2 ms)"

instructions() {
	valgrind --tool=callgrind --trace-children=no --callgrind-out-file="$WORK/cg.%p" "$@" >/dev/null 2>"$WORK/valgrind.log"
	grep -h '^totals:' "$WORK"/cg.* | awk '{ s += $2 } END { print s }'
	rm -f "$WORK"/cg.*
}
ocellus_ir=$(instructions "$BUILD/bin/ocellus" list --json)
pwdump_ir=$(instructions pw-dump)
ratio=$(awk "BEGIN { printf \"%.2f\", $ocellus_ir / $pwdump_ir }")
echo "ocellus list --json with 8 cameras: $ocellus_ir instructions, pw-dump $pwdump_ir: ${ratio}× ($(verdict "$ratio" 1.5) ≤ 1.5×)"

# An idle context beside unrelated /dev activity: every `>/dev/null` anywhere closes a file
# in /dev, which a watch for video nodes must not hear.
idle_ir() {
	valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$WORK/idle.%p" "$WORK/idle" 5 >/dev/null 2>"$WORK/valgrind.log"
	grep -l "Client Request: window" "$WORK"/idle.* | xargs grep -h '^totals:' | awk '{ s += $2 } END { printf "%.0f", s / 5 }'
	rm -f "$WORK"/idle.*
}
quiet=$(idle_ir)
( while :; do : >/dev/null; sleep 0.01; done ) &
writer=$!
busy=$(idle_ir)
kill "$writer"; wait "$writer" 2>/dev/null || true
extra=$(awk "BEGIN { d = $busy - $quiet; printf \"%.0f\", d < 0 ? 0 : d }")
echo "idle context: $quiet instructions/s on a quiet machine, $busy with /dev/null written ~100 times/s: $extra more ($(verdict "$extra" 20000) ≤ 20,000/s, i.e. ≈ 0 per event)"
