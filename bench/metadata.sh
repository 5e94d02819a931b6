#!/bin/bash
# Metadata output benchmark (issue 28), inside scripts/testbed.sh: a 720p30 MJPEG camera showing a
# real photograph with a face (scikit-image's astronaut), streamed with a plain video output
# alone (the baseline) and with a metadata output beside it looking for faces, then codes:
# process CPU per second of streaming (ratio to the baseline of the same run), and instructions
# per analysis (callgrind: the difference to the baseline over the same video frames, divided by
# the analyses made).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="$ROOT/build"
SECONDS_RUN=${BENCH_SECONDS:-10}
FRAMES=${BENCH_FRAMES:-60}
WORK=$(mktemp -d /tmp/ocellus-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
cc -O2 -I"$BUILD/include" -o "$WORK/metadata_bench" "$ROOT/bench/metadata_bench.c" -L"$BUILD/lib" -locellus -lpthread
export LD_LIBRARY_PATH="$BUILD/lib"
/usr/bin/python3 -c "
import sys
from PIL import Image
from skimage import data
photo = Image.fromarray(data.astronaut()).resize((720, 720))
picture = Image.new('RGB', (1280, 720), (200, 200, 200))
picture.paste(photo, (280, 0))
picture.save(sys.argv[1], quality=90)" "$WORK/face.jpg"
"$ROOT/scripts/testbed.sh" add-camera "$OCELLUS_TESTBED_DIR" benchface --sizes 1280x720 --fps 30 --formats MJPG \
	--mjpeg-file "$WORK/face.jpg" >/dev/null

field() { sed -n "s/^\(.* \)\{0,1\}$1 \([0-9.]*\).*/\2/p"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
window_ir() {
	local out="$WORK/cg.$RANDOM"
	valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out.%p" "$WORK/metadata_bench" window pipewire-benchface "$1" "$FRAMES" \
		>"$out.stdout" 2>"$WORK/valgrind.log" || { cat "$WORK/valgrind.log" >&2; return 1; }
	echo "$(grep -l "Client Request: window" "$out".[0-9]* | xargs grep -h '^totals:' | awk '{ s += $2 } END { printf "%.0f", s }') $(cat "$out.stdout")"
}

echo "metadata benchmark, 720p30 MJPEG camera, a face in view:"
base=$("$WORK/metadata_bench" cpu pipewire-benchface none "$SECONDS_RUN")
faces=$("$WORK/metadata_bench" cpu pipewire-benchface faces "$SECONDS_RUN")
codes=$("$WORK/metadata_bench" cpu pipewire-benchface codes "$SECONDS_RUN")
# What face-driven exposure and focus run on a camera they can steer: a faces-only analysis at 2
# a second while looking for a face or holding, 10 while adjusting (the control writes beside
# it are a few ioctls an analysis).
watching=$("$WORK/metadata_bench" cpu pipewire-benchface faces "$SECONDS_RUN" 2)
scaled=$("$WORK/metadata_bench" cpu pipewire-benchface scaled "$SECONDS_RUN")
stage=$("$WORK/metadata_bench" cpu pipewire-benchface stage "$SECONDS_RUN")
base_cpu=$(echo "$base" | field cpu_ms_per_s)
echo "  CPU per second of streaming ($SECONDS_RUN s each):"
echo "    plain video output:          ${base_cpu} ms  ($(echo "$base" | field frames) frames)"
for run in faces codes; do
	line=${!run}
	echo "    + metadata output ($run): $(echo "$line" | field cpu_ms_per_s) ms, ratio $(ratio "$(echo "$line" | field cpu_ms_per_s)" "$base_cpu")  ($(echo "$line" | field frames) frames, $(echo "$line" | field analysed) analysed, $(echo "$line" | field deliveries) deliveries, $(echo "$line" | field dropped) dropped)"
done
echo "    + face-driven, watching (faces at 2/s): $(echo "$watching" | field cpu_ms_per_s) ms, ratio $(ratio "$(echo "$watching" | field cpu_ms_per_s)" "$base_cpu")  ($(echo "$watching" | field analysed) analysed); while adjusting it is the faces line above (10/s)"
echo "  Center Stage, an NV12 640x360 output of the 720p camera:"
echo "    scaled, whole picture:       $(echo "$scaled" | field cpu_ms_per_s) ms  ($(echo "$scaled" | field frames) frames)"
echo "    framed on the face:          $(echo "$stage" | field cpu_ms_per_s) ms, ratio $(ratio "$(echo "$stage" | field cpu_ms_per_s)" "$(echo "$scaled" | field cpu_ms_per_s)")  ($(echo "$stage" | field frames) frames; framing at the end: $(echo "$stage" | field framed), window $(echo "$stage" | field window) of the picture's width, settled $(echo "$stage" | field settled_after) frames after the stream's first)"
echo "  instructions per analysis (callgrind, $FRAMES video frames each):"
read -r base_ir _ <<<"$(window_ir none)"
for run in faces codes; do
	result=$(window_ir "$run")
	ir=${result%% *}
	analysed=$(echo "$result" | field analysed)
	echo "    $run: $(awk -v a="$ir" -v b="$base_ir" -v n="$analysed" 'BEGIN { printf "%.0f", (n > 0 ? (a - b) / n : 0) }') per analysis ($analysed analyses; the window: $ir, the plain stream's: $base_ir)"
done
"$ROOT/scripts/testbed.sh" remove-camera "$OCELLUS_TESTBED_DIR" benchface KILL
