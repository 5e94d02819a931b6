#!/bin/bash
# Microphone modes' cost, inside scripts/testbed.sh: instructions per second of delivered sound
# (callgrind, every thread of the process) through a session of a microphone alone, standard
# beside voice isolation (RNNoise, DeepFilterNet where installed; webrtc's echo canceller before
# them, also measured without), on a microphone of its own hearing speech over a fan's noise
# (alsa-utils' recordings: on silence RNNoise skips its network, and would look 6 times cheaper).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="$ROOT/build"
SECONDS_OF_SOUND=${BENCH_SOUND_SECONDS:-2}
WORK=$(mktemp -d /tmp/ocellus-voice-bench.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
if [ -z "${OCELLUS_RNNOISE_LIB:-}" ] && ! /sbin/ldconfig -p | grep -q librnnoise; then
	echo "voice benchmark skipped: no RNNoise (scripts/fetch-voice-engines.sh names it)"
	exit 0
fi
cc -O2 -I"$BUILD/include" -o "$WORK/voice_bench" "$ROOT/bench/voice_bench.c" -L"$BUILD/lib" -locellus
export LD_LIBRARY_PATH="$BUILD/lib"
"$ROOT/scripts/testbed.sh" add-process-mic "$OCELLUS_TESTBED_DIR" benchmic speech

measure() {   # MODE -> "instructions frames dropped"
	local out="$WORK/cg.$1"
	rm -f "$out".*    # a measurement is one run's files, not every run's of that mode
	valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$out.%p" \
		"$WORK/voice_bench" pipewire-benchmic "$1" "$SECONDS_OF_SOUND" >"$WORK/$1.txt" 2>"$WORK/valgrind.log" || {
		cat "$WORK/valgrind.log" >&2; return 1; }
	local ir
	ir=$(grep -l "Client Request: window" "$out".* | xargs grep -h '^totals:' | awk '{ s += $2 } END { print s }')
	echo "$ir $(awk '/^frames/ { f = $2 } /^dropped/ { d = $2 } END { print f, d }' "$WORK/$1.txt")"
}
per_second() { awk -v ir="$1" -v frames="$2" 'BEGIN { printf "%.0f", ir / (frames / 48000) }'; }
read -r raw_ir raw_frames raw_dropped < <(measure standard)
raw=$(per_second "$raw_ir" "$raw_frames")
echo "microphone modes, instructions per second of 48 kHz stereo sound delivered (callgrind, ${SECONDS_OF_SOUND} s, every thread):"
echo "  standard:        $raw"
engines=rnnoise
[ -z "${OCELLUS_DEEPFILTER_LIB:-}" ] || engines+=" deepfilternet"
for engine in $engines; do
	read -r voice_ir voice_frames voice_dropped < <(OCELLUS_VOICE_ISOLATION_ENGINE=$engine measure voice_isolation)
	voice=$(per_second "$voice_ir" "$voice_frames")
	[ "$engine" != rnnoise ] || voice_rnnoise=$voice
	echo "  voice isolation, $engine: $voice  (ratio $(awk -v a="$voice" -v b="$raw" 'BEGIN { printf "%.1f", a / b }'); the engine and echo canceller's share"
	echo "                   $(awk -v x="$((voice - raw))" 'BEGIN { printf "%.2f", x / 100 / 1e6 }') M per 10 ms frame; frames dropped under valgrind's slowdown: $voice_dropped)"
done
read -r bare_ir bare_frames _ < <(OCELLUS_ECHO_CANCELLER_LIB=/nonexistent measure voice_isolation)
bare=$(per_second "$bare_ir" "$bare_frames")
echo "  voice isolation, rnnoise without echo cancellation: $bare; the echo canceller's share"
echo "                   $(awk -v x="$((voice_rnnoise - bare))" 'BEGIN { printf "%.2f", x / 100 / 1e6 }') M per 10 ms frame (nothing playing)"
