# Runs inside the vivid VM (scripts/vivid-vm.sh), chrooted into the host's / :
# loads vivid with two webcam-like devices (the second also has a metadata node),
# runs the Swift streaming tests and the pytest suite beside this file against the
# project's build, and closes with one "N passed, N failed" line for both.
ROOT=@ROOT@
modprobe vivid n_devs=2 node_types=0x1,0x20001 num_inputs=1,1 input_types=0,0 || exit 1
export PYTHONDONTWRITEBYTECODE=1 OCELLUS_VIVID=1
export OCELLUS_CLI=$ROOT/build/bin/ocellus OCELLUS_LIBRARY=$ROOT/build/lib/libocellus.so.0
cd "$ROOT" || exit 1
"$ROOT"/.build/debug/OcellusPackageTests.xctest --testing-library swift-testing --filter VividStreamTests > "$TMPDIR/swift.log" 2>&1
swift_status=$?
grep -E "✔|✘|passed|failed|recorded" "$TMPDIR/swift.log"
rust_test=$(ls -t "$ROOT"/bindings/rust/target/debug/deps/vivid-* 2>/dev/null | grep -v '\.d$' | head -1)
LD_LIBRARY_PATH=$ROOT/build/lib "$rust_test" > "$TMPDIR/rust.log" 2>&1
rust_status=$?
grep -E "^test |test result" "$TMPDIR/rust.log"
/usr/bin/python3 -m pytest -q -p no:cacheprovider --color=no Tests/vivid > "$TMPDIR/pytest.log" 2>&1
pytest_status=$?
cat "$TMPDIR/pytest.log"
swift_total=$(sed -n 's/.*Test run with \([0-9]*\) tests\{0,1\} .*/\1/p' "$TMPDIR/swift.log" | tail -1)
swift_failed=$(grep -c "^✘ Test [a-zA-Z]*(.*) failed" "$TMPDIR/swift.log")
py_passed=$(tail -1 "$TMPDIR/pytest.log" | grep -o '[0-9]* passed' | cut -d' ' -f1)
py_failed=$(tail -1 "$TMPDIR/pytest.log" | grep -o '[0-9]* failed' | cut -d' ' -f1)
rust_passed=$(sed -n 's/^test result: [a-zA-Z]*\. \([0-9]*\) passed.*/\1/p' "$TMPDIR/rust.log")
rust_failed=$(sed -n 's/^test result: .* \([0-9]*\) failed.*/\1/p' "$TMPDIR/rust.log")
[ -n "$rust_test" ] && [ "$rust_status" != 0 ] && [ "${rust_failed:-0}" = 0 ] && rust_failed=1
passed=$(( ${swift_total:-0} - swift_failed + ${py_passed:-0} + ${rust_passed:-0} ))
failed=$(( swift_failed + ${py_failed:-0} + ${rust_failed:-0} ))
[ "$swift_status" = 0 ] || [ "$swift_failed" != 0 ] || failed=$((failed + 1))
[ "$pytest_status" = 0 ] || [ "${py_failed:-0}" != 0 ] || failed=$((failed + 1))
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
