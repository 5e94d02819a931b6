#!/bin/bash
# Regenerates Sources/OcellusCABI/startup.order, the linker's symbol-ordering file: the
# library's functions that run from load to a finished oc_context_create() (and the
# accessors `ocellus list` calls), as counted by callgrind on the test bed with 8 cameras.
# The linker lays them out together. Why it matters: the kernel maps code 64 KB around each
# page first run, so startup code spread over the library made most of it resident.
# Names that no longer exist are skipped by the linker; rerun after large changes
# (`make symbol-order`; then rebuild and compare `make bench`'s resident memory).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
WORK=$(mktemp -d /tmp/ocellus-order.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# Symbols without debug information (valgrind cannot read the Swift toolchain's).
strip --strip-debug -o "$WORK/libocellus.so.0" "$ROOT/.build/release/libocellus.so"
cc -O2 -I"$ROOT/include" -o "$WORK/footprint" "$ROOT/Tests/c/footprint.c" -L"$WORK" -l:libocellus.so.0
cat > "$WORK/run.sh" <<'INNER'
#!/bin/bash
set -euo pipefail
for index in $(seq 2 7); do "$ROOT/scripts/testbed.sh" add-camera "$OCELLUS_TESTBED_DIR" "ordercam$index" >/dev/null; done
LD_LIBRARY_PATH="$WORK" valgrind --tool=callgrind --demangle=no --callgrind-out-file="$WORK/footprint.cg" "$WORK/footprint" >/dev/null 2>&1
LD_LIBRARY_PATH="$WORK" valgrind --tool=callgrind --demangle=no --callgrind-out-file="$WORK/list.cg" "$ROOT/build/bin/ocellus" list --json >/dev/null 2>&1
INNER
chmod +x "$WORK/run.sh"
ROOT="$ROOT" WORK="$WORK" "$ROOT/scripts/testbed.sh" run --cameras 2 -- "$WORK/run.sh"
# Functions of libocellus that ran, most instructions first (the hot ones end up closest).
for profile in "$WORK/footprint.cg" "$WORK/list.cg"; do
	callgrind_annotate --threshold=100 --inclusive=no "$profile" 2>/dev/null
done | awk '/libocellus\.so\.0\]$/ { name = $0; sub(/^[^:]*:/, "", name); sub(/ \[[^]]*\]$/, "", name); if (name !~ /^0x/ && !seen[name]++) print name }' \
	> "$ROOT/Sources/OcellusCABI/startup.order"
echo "$(wc -l < "$ROOT/Sources/OcellusCABI/startup.order") functions in Sources/OcellusCABI/startup.order"
