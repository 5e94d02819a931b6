#!/bin/bash
# The generated bad-input suite: every function of include/ocellus.h with bad
# input and from inside its callbacks, each case in its own process.
# Runs inside scripts/testbed.sh (the Makefile's test-badinput target does that).
set -eu
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
BUILD="${1:-$ROOT/build}"
OUT="$(mktemp -d /tmp/ocellus-badinput.XXXXXX)"
trap 'rm -rf "$OUT"' EXIT
export BADINPUT_SCRATCH="$OUT/scratch"
mkdir -p "$BADINPUT_SCRATCH"
python3 "$HERE/generate.py" "$ROOT/include/ocellus.h" "$OUT/cases.c" "$OUT/cases.tsv"
cc -std=c11 -O1 -Wall -Wno-unused-function -Wno-unused-parameter -I"$HERE" -I"$BUILD/include" \
	-o "$OUT/badinput" "$OUT/cases.c" -L"$BUILD/lib" -locellus -pthread -lm
export OCELLUS_TESTBED_SCRIPT="$ROOT/scripts/testbed.sh"
# A QR code (drawn by the qrcode package) for the cameras run.py plugs to make metadata callbacks run.
export OCELLUS_BADINPUT_QR="$OUT/qr.jpg"
/usr/bin/python3 -c "import qrcode, sys; qrcode.make('badinput').convert('RGB').resize((640, 480)).save(sys.argv[1])" "$OCELLUS_BADINPUT_QR"
LD_LIBRARY_PATH="$BUILD/lib" python3 "$HERE/run.py" "$OUT/badinput" "$OUT/cases.tsv" "${BADINPUT_FILTER:-}"
