#!/bin/bash
# abi-check.sh BUILD [--update [REF]] — checks the C ABI include/ocellus.h declares against the last
# release's, kept in abi/ocellus.abi (libabigail's XML), with abidiff.
#
# The library is Swift: its own debug information describes no C types. So a stub library is
# built from the header alone, with -g: for every function the header declares, an exported
# pointer of that function's type (`__typeof__`), so that DWARF describes every signature and
# every struct, enum and typedef they reach. Linking it against BUILD's library with
# --no-undefined also checks that the library defines every function the header declares.
# abidiff then compares it with the release's: a removed function, a changed signature, a
# struct field moved or resized, an enumerator renumbered fail; functions and enumerators added
# pass, and so do fields appended to the structs docs/ABI.md lets grow (abi/suppressions.ini).
# Not seen: the values of `oc_status` (an int32_t; its OC_ERROR_* are an unnamed enum, which
# DWARF ties to no function) and of macros: renumbering one is not seen here.
# Then the same check runs on copies of the header changed in each of those ways, so that a
# libabigail that stopped seeing one fails here rather than letting a break through.
# --update writes abi/ocellus.abi from this tree's header, or REF's (a release's tag or commit), when
# a release is cut (docs/releasing.md). It holds the last release's: 0.3.0 (tag v0.3.0).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
BUILD="$(cd "${1:?usage: abi-check.sh BUILD [--update [REF]]}" && pwd)"
WORK=$(mktemp -d /tmp/ocellus-abi.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# The ABI corpus of the header in directory $1, written to $2.
describe() {
	local include="$1" out="$2" functions
	functions=$(sed -n 's/^[A-Za-z_][A-Za-z0-9_ \*]*[ \*]\(oc_[a-z0-9_]*\)(.*/\1/p' "$include/ocellus.h" | sort -u)
	{
		echo '#include <ocellus.h>'
		for name in $functions; do echo "__typeof__($name) *const abi_$name = $name;"; done
	} > "$WORK/abi.c"
	cc -std=c11 -g -O0 -fPIC -shared -I"$include" -o "$WORK/libocellus-abi.so" "$WORK/abi.c" \
		-L"$BUILD/lib" -l:libocellus.so.0 -Wl,--no-undefined
	# No source locations, no paths: the record says what the ABI is, not where it was built.
	abidw --no-show-locs --no-corpus-path --headers-dir "$include" --out-file "$out" "$WORK/libocellus-abi.so"
}

# Whether the header in directory $1 keeps the release's ABI (the report in $WORK/report).
keeps_abi() {
	describe "$1" "$WORK/current.abi"
	abidiff --no-added-syms --suppressions "$ROOT/abi/suppressions.ini" "$ROOT/abi/ocellus.abi" "$WORK/current.abi" > "$WORK/report"
}

if [ "${2:-}" = --update ]; then
	# The release's header: this tree's, or the one a tag or commit ($3) holds.
	mkdir -p "$WORK/release"
	if [ -n "${3:-}" ]; then git -C "$ROOT" show "$3:include/ocellus.h" > "$WORK/release/ocellus.h"; else cp "$ROOT/include/ocellus.h" "$WORK/release/"; fi
	describe "$WORK/release" "$ROOT/abi/ocellus.abi"
	echo "abi/ocellus.abi: $(grep -c '<var-decl name=.abi_oc_' "$ROOT/abi/ocellus.abi") functions of ${3:-this tree}'s header"
	exit 0
fi

passed=0 failed=0
if keeps_abi "$ROOT/include"; then
	echo "ok - include/ocellus.h keeps the C ABI of the last release ($(grep -c '<var-decl name=.abi_oc_' "$WORK/current.abi") functions)"
	passed=$((passed + 1))
else
	cat "$WORK/report"
	echo "not ok - include/ocellus.h changed the C ABI of the last release incompatibly (a changed signature is a new function: docs/ABI.md)"
	failed=$((failed + 1))
fi

# The check itself, on the header changed as a release may (pass) and may not (fail).
mutant() {   # EXPECTED(pass|fail) DESCRIPTION SED-SCRIPT
	local expected="$1" what="$2" outcome=fail
	mkdir -p "$WORK/mutant"
	sed "$3" "$ROOT/include/ocellus.h" > "$WORK/mutant/ocellus.h"
	if cmp -s "$ROOT/include/ocellus.h" "$WORK/mutant/ocellus.h"; then
		echo "not ok - abidiff self-check: the header no longer has what '$what' changes"; failed=$((failed + 1)); return
	fi
	keeps_abi "$WORK/mutant" && outcome=pass || true
	if [ "$outcome" = "$expected" ]; then
		echo "ok - abidiff self-check: $what $([ "$expected" = pass ] && echo passes || echo fails)"
		passed=$((passed + 1))
	else
		cat "$WORK/report"
		echo "not ok - abidiff self-check: $what should ${expected}, it did not"
		failed=$((failed + 1))
	fi
}
mutant fail "a return type changed" 's/^size_t oc_device_list_count(/uint32_t oc_device_list_count(/'
mutant fail "a parameter added" 's/^void oc_device_list_free(oc_device_list \*list);/void oc_device_list_free(oc_device_list *list, int extra);/'
mutant fail "an enumerator renumbered" 's/^\(    OC_SESSION_EVENT_RUNTIME_ERROR = \)2,/\122,/'
mutant fail "a field inserted before others" 's/^\(    uint32_t struct_size;\)$/\1\n    uint32_t inserted;/'
mutant fail "a field appended to a struct that may not grow" 's/^} oc_fraction;/    uint32_t extra;\n} oc_fraction;/'
mutant pass "a field appended to a caller-sized struct" 's/^} oc_context_options;/    uint32_t appended;\n} oc_context_options;/'
mutant pass "an enumerator added" 's/^\(    OC_SESSION_EVENT_FORMAT_FALLBACK = 11\)$/\1,\n    OC_SESSION_EVENT_ADDED = 12/'
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
