#!/bin/bash
# The examples/ programs, built as users build them against an installed prefix and run
# on the test bed's cameras (inside scripts/testbed.sh): C with pkg-config, Python, Rust.
# The README shows the same programs, so they are checked to be there word for word.
set -u
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
PREFIX="$(mktemp -d /tmp/ocellus-examples.XXXXXX)"
trap 'rm -rf "$PREFIX"' EXIT
make -s -C "$ROOT" install PREFIX="$PREFIX" >/dev/null 2>&1 || { echo "not ok - make install"; echo "0 passed, 1 failed"; exit 1; }
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
passed=0 failed=0
check() {   # NAME COMMAND...: the command's output must name a frame ("…: WxH NV12 frame N")
	local name="$1" output
	shift
	if output=$("$@" 2>&1) && grep -qE ': [0-9]+x[0-9]+ NV12 frame [0-9]+$|: \(([0-9]+, )+[0-9]+\) uint8$' <<<"$output"; then
		echo "ok - $name: $output"; passed=$((passed + 1))
	else echo "not ok - $name"; echo "$output" | tail -5 | sed 's/^/    /'; failed=$((failed + 1)); fi
}
cc -std=c99 -Wall -Wextra -Werror -o "$PREFIX/first_frame" "$ROOT/examples/first_frame.c" $(pkg-config --cflags --libs ocellus)
check "examples/first_frame.c (pkg-config, no LD_LIBRARY_PATH beyond the prefix)" env LD_LIBRARY_PATH="$PREFIX/lib" "$PREFIX/first_frame"
check "examples/first_frame.py" env PYTHONPATH="$ROOT/bindings/python" OCELLUS_LIBRARY="$PREFIX/lib/libocellus.so.0" \
	python3 "$ROOT/examples/first_frame.py"
check "examples/first_frame.rs (cargo)" env OCELLUS_LIB_DIR="$PREFIX/lib" LD_LIBRARY_PATH="$PREFIX/lib" CARGO_TARGET_DIR="$PREFIX/target" \
	cargo run -q --offline --manifest-path "$ROOT/examples/rust/Cargo.toml"
for example in first_frame.c first_frame.py first_frame.rs; do
	if python3 - "$ROOT/README.md" "$ROOT/examples/$example" <<'PY'
import sys
readme, example = (open(path).read() for path in sys.argv[1:])
sys.exit(0 if example.strip() in readme else 1)
PY
	then echo "ok - README shows examples/$example as it is"; passed=$((passed + 1))
	else echo "not ok - README does not show examples/$example as it is"; failed=$((failed + 1)); fi
done
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
