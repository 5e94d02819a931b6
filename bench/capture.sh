#!/bin/bash
# Capture benchmark (issue 4), inside scripts/testbed.sh: instructions per delivered
# 1080p frame counted by callgrind for passthrough, YUYV→NV12, MJPEG→NV12 and H.264→NV12
# through a capture session, next to the bare libyuv/turbojpeg calls on the same
# kind of frame and to `gst-launch-1.0 pipewiresrc ! fakesink`; then latency and
# time to the first frame without valgrind.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="$ROOT/build"
FRAMES=${BENCH_FRAMES:-30}
WORK=$(mktemp -d /tmp/ocellus-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cc -O2 -I"$BUILD/include" $(pkg-config --cflags libpipewire-0.3) -o "$WORK/capture_bench" "$ROOT/bench/capture_bench.c" \
	-L"$BUILD/lib" -locellus -lyuv -lturbojpeg -lavcodec -lavutil $(pkg-config --libs libpipewire-0.3)
export LD_LIBRARY_PATH="$BUILD/lib"

plug() { "$ROOT/scripts/testbed.sh" add-camera "$OCELLUS_TESTBED_DIR" "$1" --sizes 1920x1080 --fps "${3:-30}" --formats "$2" | sed -n 's/.*object.serial=\([0-9]*\).*/\1/p'; }
YUYV_SERIAL=$(plug benchyuyv YUY2)
plug benchmjpg MJPG >/dev/null
# At 2 fps: decoding 1080p under callgrind takes longer than a 30 fps frame interval, and frames
# arriving late are dropped undecoded (with their dependants), which would not be a cost comparison.
plug benchh264 H264 2 >/dev/null

# Instructions (Ir) counted in the window a program marks with callgrind client requests.
window_ir() {
	local out="$WORK/cg.$RANDOM"
	valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out.%p" "$@" >/dev/null 2>"$WORK/valgrind.log" || {
		cat "$WORK/valgrind.log" >&2; return 1; }
	grep -l "Client Request: window" "$out".* | xargs grep -h '^totals:' | awk '{ s += $2 } END { print s }'
}
# Instructions of a whole run.
total_ir() {
	local out="$WORK/cg.$RANDOM"
	valgrind --tool=callgrind --callgrind-out-file="$out" "$@" >/dev/null 2>&1
	grep -h '^totals:' "$out" | head -1 | awk '{ print $2 }'
}
per_frame() { awk -v ir="$1" -v n="$2" 'BEGIN { printf "%.0f", ir / n }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }

passthrough=$(per_frame "$(window_ir "$WORK/capture_bench" session pipewire-benchyuyv YUYV "$FRAMES")" "$FRAMES")
unsteered=$(per_frame "$(window_ir "$WORK/capture_bench" session-unsteered pipewire-benchyuyv YUYV "$FRAMES")" "$FRAMES")
two_outputs=$(per_frame "$(window_ir "$WORK/capture_bench" two-outputs pipewire-benchyuyv YUYV "$FRAMES")" "$FRAMES")
bare_copy=$(per_frame "$(window_ir "$WORK/capture_bench" bare-copy "$FRAMES")" "$FRAMES")
bare_stream=$(per_frame "$(window_ir "$WORK/capture_bench" bare-pw-stream "$YUYV_SERIAL" "$FRAMES")" "$FRAMES")
yuyv=$(per_frame "$(window_ir "$WORK/capture_bench" session pipewire-benchyuyv NV12 "$FRAMES")" "$FRAMES")
mjpeg=$(per_frame "$(window_ir "$WORK/capture_bench" session pipewire-benchmjpg NV12 "$FRAMES")" "$FRAMES")
bare_yuyv=$(per_frame "$(window_ir "$WORK/capture_bench" bare-yuyv "$FRAMES")" "$FRAMES")
bare_mjpeg=$(per_frame "$(window_ir "$WORK/capture_bench" bare-mjpeg "$FRAMES")" "$FRAMES")
bare_decode=$(per_frame "$(window_ir "$WORK/capture_bench" bare-mjpeg-decode "$FRAMES")" "$FRAMES")
bare_video_range=$(per_frame "$(window_ir "$WORK/capture_bench" bare-mjpeg-video-range "$FRAMES")" "$FRAMES")
h264=$(per_frame "$(window_ir "$WORK/capture_bench" session pipewire-benchh264 NV12 "$FRAMES")" "$FRAMES")
bare_h264=$(per_frame "$(window_ir "$WORK/capture_bench" bare-h264 pipewire-benchh264 "$FRAMES")" "$FRAMES")
gst() {
	total_ir gst-launch-1.0 -q pipewiresrc target-object="$YUYV_SERIAL" num-buffers="$1" \
		! video/x-raw,format=YUY2,width=1920,height=1080 ! fakesink
}
if command -v gst-launch-1.0 >/dev/null && gst-inspect-1.0 pipewiresrc >/dev/null 2>&1; then
	# Two whole runs differing only in frame count: their difference is the per-frame cost (more frames, less noise).
	short=$(gst 10); long=$(gst $((10 + 3 * FRAMES)))
	gstreamer=$(per_frame "$((long - short))" "$((3 * FRAMES))")
else
	gstreamer=""
fi

echo "capture benchmark, 1080p, instructions per delivered frame (callgrind, $FRAMES frames):"
echo "  passthrough YUYV:   $passthrough  (bare pw_stream consumer: $bare_stream, ratio $(ratio "$passthrough" "$bare_stream"), goal ≤ 1.5)"
echo "                      (face-driven exposure and focus off: $unsteered, ratio $(ratio "$passthrough" "$unsteered"); the camera has neither control, so nothing should run)"
[ -z "$gstreamer" ] || echo "                      (gst-launch pipewiresrc ! fakesink: $gstreamer, ratio $(ratio "$passthrough" "$gstreamer"))"
echo "  two passthrough outputs, each on its own thread (PipeWire frames copied for each): $two_outputs"
echo "                      (bare pw_stream consumer + two 1080p YUYV copies: $((bare_stream + 2 * bare_copy)), ratio $(ratio "$two_outputs" "$((bare_stream + 2 * bare_copy))"))"
echo "  YUYV -> NV12:       $yuyv  (bare YUY2ToNV12: $bare_yuyv, ratio $(ratio "$yuyv" "$bare_yuyv"))"
echo "  MJPEG -> NV12:      $mjpeg  (bare decode + I420ToNV12 + video range by table: $bare_video_range, ratio $(ratio "$mjpeg" "$bare_video_range"), goal ≤ 1.05; decode + I420ToNV12, full range: $bare_mjpeg, ratio $(ratio "$mjpeg" "$bare_mjpeg"); decode alone: $bare_decode)"
echo "  H.264 -> NV12:      $h264  (bare libavcodec decode + I420ToNV12 of the same units: $bare_h264, ratio $(ratio "$h264" "$bare_h264"))"
echo "latency and start-up (no valgrind, passthrough YUYV 1080p, 120 frames):"
"$WORK/capture_bench" latency pipewire-benchyuyv YUYV 120 | sed 's/^/  /'
