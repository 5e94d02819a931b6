#!/bin/bash
# Runs every libFuzzer target of ocellus-fuzz for SECONDS each (default 10: the test
# suite's smoke run; `make fuzz FUZZ_SECONDS=600` for a real session), from seeds made
# here (a camera JPEG and H.264 from ffmpeg's test source, state files, pods). Crashes
# are kept in $FUZZ_ARTIFACTS (default .build/fuzz-artifacts); exits non-zero on any.
# Prints one "ok"/"not ok" line per target and "N passed, N failed".
set -u
BINARY="$1"; SECONDS_EACH="${2:-10}"
HERE="$(cd "$(dirname "$0")" && pwd)"
ARTIFACTS="${FUZZ_ARTIFACTS:-$HERE/../../.build/fuzz-artifacts}"
CORPUS="${FUZZ_CORPUS:-$HERE/../../.build/fuzz-corpus}"
mkdir -p "$ARTIFACTS"
seed() {   # TARGET NAME < bytes
	mkdir -p "$CORPUS/$1"; cat > "$CORPUS/$1/$2"
}
ffmpeg -loglevel error -y -f lavfi -i testsrc=size=64x48:rate=30 -frames:v 1 -f mjpeg - | seed mjpeg testsrc.jpg
mkdir -p "$CORPUS/photo"; cp "$CORPUS/mjpeg/testsrc.jpg" "$CORPUS/photo/"
ffmpeg -loglevel error -y -f lavfi -i testsrc=size=64x48:rate=30 -frames:v 3 -c:v libx264 -bsf:v h264_mp4toannexb -f h264 - | seed h264 testsrc.h264
printf 'ocellus-selection 1\nfirst-run 6497519e-e543-416e-998c-a14728216940 10\nchoice 6497519e-e543-416e-998c-a14728216940 20 usb-046d:082d-ABC\nend 0000000000000000\n' | seed state selection
printf 'ocellus-mounting 1\n90 usb-046d:082d-ABC\n' | seed state mounting
printf '\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00' | seed v4l2 zeros
printf '\x40\x00\x00\x00\x0f\x00\x00\x00\x03\x00\x04\x00\x03\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x04\x00\x00\x00\x03\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00' | seed pod format
# A choice whose child claims more bytes than it holds: read past its end by SPA's parser until the shim checked it.
printf '\x40\x00\x00\x00\x0f\x00\x00\x00\x03\x00\x04\x00\x00\x03\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x10\x00\x00\x00\x13\x00\x00\x00\x00\x00\x00\x00\x0f\x00\x00\x00\x00\x10\x00\x00\x03\x00\x00\x00' | seed pod choice-child-too-large
# A stepwise frame-size range whose minimum exceeds its maximum: trapped in the size check until it guarded.
echo 'AP///////////1oA3P//////////MlpaWlpaWgAAAAAAAAD+/v7+AQAAAP7+/v4AAAAA/v7+/hAAAAAAAAAA/jMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMzMA/v7+/v7+/v7+AgGlAaWlpaZaWlpdWqWmWlo9Wlr/WlpaPwE=' | base64 -d | seed v4l2 size-range-backwards
# An H.264 SPS claiming a huge picture: the decoder allocated gigabytes of reference pictures until bounded.
echo 'AAAATWVtRnJlZaUIlVGkIYre8WlN5eEwOT+9M7d4ePv3ut3bEed3LhW+5LsDAAIAAAMAeB4kSywAAAABaOvjxEhEAAABBgX//ylub252b2x1bnRhcnlp3EXpvS0gaHR0cDovd3d3LnZpMCBxcG1heD02OSBxcHN0ZXA9NCBpcF9yYXRpbz05LjQwIGFxPTE6MS4wMACAAAABZYiEACn/xXkNf4WB' | base64 -d | seed h264 sps-huge-picture

# A 4x2 Z16 map with a stride of 8 words, then frame times.
printf '\x04\x02\x08\x00\x01\x00\x00\x00\xe8\x03\xc4\x09\x07\x00\x00\x00\x10\x11\x20\x21\x30\x31\x40\x41' | seed depth ramp

# A 64x48 YUYV frame claiming a stride its 2,000 bytes cannot hold (what a renegotiated camera sends).
head -c 2008 /dev/zero | tr '\0' '\200' | seed raw short-yuyv

passed=0 failed=0
for target in mjpeg h264 photo state v4l2 pod depth raw; do
	mkdir -p "$CORPUS/$target"
	log="$ARTIFACTS/$target.log"
	OCELLUS_FUZZ_TARGET=$target ASAN_OPTIONS=detect_leaks=0 "$BINARY" -max_total_time="$SECONDS_EACH" -max_len=65536 \
		-timeout=10 -rss_limit_mb=2048 -artifact_prefix="$ARTIFACTS/$target-" "$CORPUS/$target" >"$log" 2>&1
	status=$?
	runs=$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -1)
	if [ "$status" = 0 ]; then
		passed=$((passed + 1)); echo "ok - fuzz $target: ${runs:-?} inputs in ${SECONDS_EACH} s, no crash"
	else
		failed=$((failed + 1)); echo "not ok - fuzz $target (exit $status): see $log"; grep -m3 -E 'ERROR|SUMMARY|panic|Fatal' "$log" | sed 's/^/    /'
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
