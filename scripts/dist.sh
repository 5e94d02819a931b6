#!/bin/bash
# dist.sh OUTDIR [--check] — the release tarball ocellus-VERSION.tar.gz of the committed tree
# (what Debian's uscan and a watch file expect: one top directory, ocellus-VERSION/), VERSION
# being include/ocellus.h's OCELLUS_VERSION_STRING. Refuses a tree with uncommitted changes to
# tracked files: a release is what the tag names. --check makes it from HEAD whatever the tree,
# and checks it holds exactly the tracked files under ocellus-VERSION/ and that every place
# that states the version states the header's (the test command's check).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="${1:?usage: dist.sh OUTDIR [--check]}"
cd "$ROOT"
version=$(sed -n 's/^#define OCELLUS_VERSION_STRING "\(.*\)"/\1/p' include/ocellus.h)
[ -n "$version" ] || { echo "dist.sh: no OCELLUS_VERSION_STRING in include/ocellus.h" >&2; exit 1; }
if [ "${2:-}" != --check ] && ! git diff --quiet HEAD --; then
	echo "dist.sh: tracked files have uncommitted changes; commit (and tag v$version) first" >&2
	exit 1
fi
mkdir -p "$OUT"
tarball="$OUT/ocellus-$version.tar.gz"
git archive --format=tar.gz --prefix="ocellus-$version/" -o "$tarball" HEAD
[ "${2:-}" = --check ] || { echo "$tarball"; exit 0; }

passed=0 failed=0
check() {   # DESCRIPTION COMMAND...
	if "${@:2}"; then echo "ok - $1"; passed=$((passed + 1)); else echo "not ok - $1"; failed=$((failed + 1)); fi
}
same_files() {
	diff <(git ls-tree -r --name-only HEAD | sed "s|^|ocellus-$version/|" | sort) \
		<(tar -tzf "$tarball" | grep -v '/$' | sort) >&2
}
check "the tarball holds exactly the committed files under ocellus-$version/" same_files
# The places that state the version besides the header (the one place it is set).
states() {   # FILE VERSION-FOUND-THERE
	[ "$2" = "$version" ] || { echo "$1 says '$2', include/ocellus.h $version" >&2; return 1; }
}
check "Version.swift states $version" states Sources/OcellusCore/Version.swift \
	"$(awk '/static let (major|minor|patch) =/ { v = v (v == "" ? "" : ".") $NF } END { print v }' Sources/OcellusCore/Version.swift)"
check "debian/changelog's latest entry is $version" states debian/changelog "$(sed -n '1s/^ocellus (\([^)-]*\).*/\1/p' debian/changelog)"
check "the Python package states $version" states bindings/python/ocellus/__init__.py \
	"$(sed -n 's/^__version__ = "\(.*\)"/\1/p' bindings/python/ocellus/__init__.py)"
for crate in bindings/rust/ocellus-sys bindings/rust/ocellus examples/rust; do
	check "$crate/Cargo.toml states $version" states "$crate/Cargo.toml" "$(sed -n '0,/^version = /s/^version = "\(.*\)"/\1/p' "$crate/Cargo.toml")"
done
check "CHANGELOG.md has a section for $version" grep -q "^## $version " CHANGELOG.md
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
