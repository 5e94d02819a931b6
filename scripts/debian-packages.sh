#!/bin/bash
# Builds the Debian packages (libocellus0, libocellus-dev, ocellus, ocellus-testbed,
# python3-ocellus) from a copy of the tree with dpkg-buildpackage, then checks them with
# lintian --pedantic: no tag of any level but those debian/*.lintian-overrides explain. Usage: scripts/debian-packages.sh OUTDIR   (the .debs end up in OUTDIR).
# The Swift toolchain comes from SWIFT=, PATH or /opt/swift, as for make.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$(mkdir -p "$1" && cd "$1" && pwd)"
VERSION=$(sed -n 's/^#define OCELLUS_VERSION_STRING "\(.*\)"/\1/p' "$ROOT/include/ocellus.h")
SOURCE="$OUT/ocellus-$VERSION"
rm -rf "$SOURCE"
mkdir -p "$SOURCE"
# The tracked files only: no build output, no editor or test leftovers.
git -C "$ROOT" ls-files -z | (cd "$ROOT" && xargs -0 cp --parents -t "$SOURCE")
export PATH="$PATH:/opt/swift/usr/bin"
(cd "$SOURCE" && dpkg-buildpackage -us -uc -b > "$OUT/build.log" 2>&1) || { tail -40 "$OUT/build.log"; exit 1; }
changes=$(ls "$OUT"/ocellus_"$VERSION"_*.changes)
lintian --pedantic --display-info --fail-on error,warning,info,pedantic --tag-display-limit 0 "$changes" | tee "$OUT/lintian.log"
ls "$OUT"/*.deb
