#!/bin/bash
# C ABI suite: installs the build into a scratch prefix, then checks the header
# (C99, -Wall -Wextra -Werror), the exported symbols, the run-time dependencies,
# and runs abi_test.c linked through pkg-config against the installed library.
# Runs inside scripts/testbed.sh (the Makefile's test-c target does that).
#   Tests/c/run.sh            everything
#   Tests/c/run.sh SECTION    only abi_test's tests of one header section (sections/SECTION.c)
set -eu
SECTION="${1:-}"
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
PREFIX="$(mktemp -d /tmp/ocellus-prefix.XXXXXX)"
trap 'rm -rf "$PREFIX"' EXIT
make -s -C "$ROOT" install PREFIX="$PREFIX" >/dev/null 2>&1

CFLAGS="-std=c99 -Wall -Wextra -Werror -pedantic"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
cc $CFLAGS $(pkg-config --cflags ocellus) -o "$PREFIX/header_only" "$HERE/header_only.c" $(pkg-config --libs ocellus)
cc $CFLAGS -pthread $(pkg-config --cflags ocellus) -o "$PREFIX/abi_test" "$HERE/abi_test.c" $(pkg-config --libs ocellus)
if [ -n "$SECTION" ]; then
	OCELLUS_TESTBED_SCRIPT="$ROOT/scripts/testbed.sh" LD_LIBRARY_PATH="$PREFIX/lib" "$PREFIX/abi_test" "$SECTION"
	exit
fi

fail=0
checks=0
ok() { echo "ok - $1"; checks=$((checks + 1)); }
not_ok() { echo "not ok - $1"; fail=$((fail + 1)); }
others=$(nm -D --defined-only "$PREFIX/lib/libocellus.so.0" | awk '{print $3}' | grep -v '^oc_' || true)
if [ -n "$others" ]; then not_ok "library exports non-oc_ symbols:"; echo "$others" | head
else ok "library exports only oc_ symbols"; fi
if ldd "$PREFIX/lib/libocellus.so.0" "$PREFIX/bin/ocellus" | grep -q /opt/swift; then
	not_ok "binaries depend on the Swift toolchain at run time"
else ok "nothing from the Swift toolchain at run time"; fi
if readelf -d "$PREFIX/lib/libocellus.so.0" | grep -q 'SONAME.*\[libocellus.so.0\]'; then ok "SONAME libocellus.so.0"
else not_ok "SONAME"; fi

# Every function of the header is exported, each in a version node of the version script
# (OCELLUS_0.1, OCELLUS_0.2, …), and nothing else is.
declared=$(grep -oE '\boc_[a-z0-9_]+\(' "$ROOT/include/ocellus.h" | tr -d '(' | sort -u)
exported=$(readelf --dyn-syms -W "$PREFIX/lib/libocellus.so.0" | awk '$7 != "UND" && $8 ~ /^oc_/ {print $8}' | sort -u)
unversioned=$(echo "$exported" | grep -v '@@\?OCELLUS_0\.[0-9]*$' || true)
if [ "$(echo "$exported" | sed 's/@.*//' | sort -u)" = "$declared" ] && [ -z "$unversioned" ]; then
	ok "every header function is exported with a version node ($(echo "$exported" | sed 's/.*@//' | sort | uniq -c | tr -s ' ' | tr '\n' ' '))"
else not_ok "exports and header differ, or unversioned:"; diff <(echo "$exported" | sed 's/@.*//' | sort -u) <(echo "$declared") | head; echo "$unversioned" | head; fi

# debian/libocellus0.symbols lists every exported function with its version node.
listed=$(awk '/^ oc_/ {print $1}' "$ROOT/debian/libocellus0.symbols" | sort)
if [ "$listed" = "$(echo "$exported" | sed 's/@@\?/@/' | sort)" ]; then ok "debian/libocellus0.symbols lists exactly the exported functions and their nodes"
else not_ok "debian/libocellus0.symbols and the exports differ:"; diff <(echo "$listed") <(echo "$exported" | sed 's/@@\?/@/' | sort) | head; fi

# Every struct the caller sizes (struct_size first) is listed in docs/ABI.md and checked by the one
# helper whose minimum is its first release's size (Sources/OcellusCABI/CallerSizedStructs.swift).
sized=$(awk '/^typedef struct oc_[a-z_]* \{/ { name = $3; first = 1; next }
	first && /^[ \t]*(\/\*|\*|$)/ { next }
	first { if ($0 ~ /^[ \t]*uint32_t struct_size;/) print name; first = 0 }' "$ROOT/include/ocellus.h" | sort)
documented=$(sed -n 's/^ *| `\(oc_[a-z_]*\)` |.*/\1/p' "$ROOT/docs/ABI.md" | sort)
helped=$(sed -n 's/^extension \(oc_[a-z_]*\): CallerSizedStruct .*/\1/p' "$ROOT/Sources/OcellusCABI/CallerSizedStructs.swift" | sort)
if [ -n "$sized" ] && [ "$sized" = "$documented" ] && [ "$sized" = "$helped" ]; then
	ok "every caller-sized struct ($(echo $sized | wc -w)) is in docs/ABI.md and checked against its first release's size"
else not_ok "caller-sized structs: header, docs/ABI.md and CallerSizedStructs.swift differ"; diff <(echo "$sized") <(echo "$documented") || true; diff <(echo "$sized") <(echo "$helped") || true; fi

# The CLI is a client of the installed library, found through its RUNPATH, with no core of its own.
if [ "$(env -u LD_LIBRARY_PATH "$PREFIX/bin/ocellus" --version)" = "ocellus $(sed -n 's/^#define OCELLUS_VERSION_STRING "\(.*\)"/\1/p' "$ROOT/include/ocellus.h")" ] \
	&& env -u LD_LIBRARY_PATH ldd "$PREFIX/bin/ocellus" | grep -q "libocellus.so.0 => $PREFIX/bin/../lib/libocellus.so.0" \
	&& ! nm -D "$PREFIX/bin/ocellus" | grep -q swift_; then
	ok "bin/ocellus links the prefix's libocellus.so.0 (no LD_LIBRARY_PATH) and carries no Swift"
else not_ok "bin/ocellus is not a plain client of libocellus.so.0"; env -u LD_LIBRARY_PATH ldd "$PREFIX/bin/ocellus"; fi
# Linking Ocellus stays cheap: FFmpeg is loaded on first use, not by the dynamic loader.
cc $CFLAGS $(pkg-config --cflags ocellus) -o "$PREFIX/footprint" "$HERE/footprint.c" $(pkg-config --libs ocellus)
read -r _ libraries _ rss _ ffmpeg _ _ _ context_rss _ context_ffmpeg < <(LD_LIBRARY_PATH="$PREFIX/lib" "$PREFIX/footprint" | tr '\n' ' '; echo)
# (Resident memory is measured against its goals in `make bench`, bench/footprint.sh.)
if [ "${libraries:-99}" -le 25 ] && [ "$ffmpeg" = 0 ] && [ "$context_ffmpeg" = 0 ] \
	&& ! readelf -d "$PREFIX/lib/libocellus.so.0" | grep -q 'NEEDED.*libav'; then
	ok "oc_version() alone loads $libraries libraries (goal ≤ 25; $rss KiB resident), no FFmpeg before it is needed"
else not_ok "footprint: $libraries libraries, $rss KiB at main, $context_rss KiB with a context, FFmpeg loaded: $ffmpeg/$context_ffmpeg"; fi
total=$(( $(stat -c %s "$PREFIX/lib/libocellus.so.0") + $(stat -c %s "$PREFIX/bin/ocellus") ))
if [ "$total" -le $((10 * 1024 * 1024)) ]; then ok "library + CLI = $((total / 1024)) KiB (goal ≤ 10 MiB)"
else not_ok "library + CLI = $((total / 1024)) KiB, over 10 MiB"; fi

# A distribution's layout: DESTDIR, multiarch LIBDIR, a 0644 library, man pages, uninstall.
STAGE="$PREFIX/stage"
make -s -C "$ROOT" install DESTDIR="$STAGE" PREFIX=/usr LIBDIR=/usr/lib/x86_64-linux-gnu >/dev/null 2>&1
staged_lib="$STAGE/usr/lib/x86_64-linux-gnu/libocellus.so.0"
if [ "$(stat -c %a "$staged_lib" 2>/dev/null)" = 644 ] && [ -x "$STAGE/usr/bin/ocellus" ] \
	&& grep -qx 'libdir=/usr/lib/x86_64-linux-gnu' "$STAGE/usr/lib/x86_64-linux-gnu/pkgconfig/ocellus.pc" \
	&& [ -x "$STAGE/usr/libexec/ocellus/ocellus-virtual-camera" ] && [ -f "$STAGE/usr/share/man/man1/ocellus.1" ] && [ -f "$STAGE/usr/share/man/man1/ocellus-stream.1" ] \
	&& grep -q 'ffplay' "$STAGE/usr/share/man/man1/ocellus-stream.1" \
	&& bash -c 'source "$1"; COMP_WORDS=(ocellus stream --fo); COMP_CWORD=2; _ocellus; [ "${COMPREPLY[*]}" = --format ]' _ \
		"$STAGE/usr/share/bash-completion/completions/ocellus"; then
	ok "make install DESTDIR= LIBDIR= (multiarch), library 0644, man pages and completions from the CLI's help"
else not_ok "make install DESTDIR= LIBDIR="; ls -lR "$STAGE" | head -30; fi
# The man pages as man reads them: no warning from groff, a NAME lexgrog (mandb, apropos) parses,
# and the sections every page has.
man_problems=""
pages=0
for page in "$STAGE"/usr/share/man/man1/*.1; do
	pages=$((pages + 1))
	warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null)
	[ -z "$warnings" ] || man_problems+="$(basename "$page"): $warnings"$'\n'
	lexgrog "$page" >/dev/null 2>&1 || man_problems+="$(basename "$page"): lexgrog cannot read its NAME"$'\n'
	for section in NAME SYNOPSIS "EXIT STATUS" "SEE ALSO"; do
		grep -q "^\.SH $section\$" "$page" || man_problems+="$(basename "$page"): no $section"$'\n'
	done
done
commands=$("$PREFIX/bin/ocellus" --help | grep -cE '^  [a-z][a-z-]*( |$)')
if [ -z "$man_problems" ] && [ "$pages" -eq $((commands + 1)) ] && grep -q '^\.SH OPTIONS$' "$STAGE/usr/share/man/man1/ocellus-stream.1" \
	&& grep -q '^\.SH JSON OUTPUT$' "$STAGE/usr/share/man/man1/ocellus-record.1"; then
	ok "man pages: ocellus(1) and one per command ($pages), without a groff warning, NAME read by lexgrog"
else not_ok "man pages ($pages for $commands commands):"; printf '%s' "$man_problems" | head; fi

# Every C and Python code block of the README and docs/ (Rust's: the crate's doctests).
if MYPYPATH="$ROOT/bindings/python" "${PYTHON:-/usr/bin/python3}" "$ROOT/scripts/doc-snippets.py" "$ROOT" "$PREFIX/include" \
	> "$PREFIX/snippets.log" 2>&1; then
	ok "code blocks of the README and docs/: C with -Wall -Wextra -Werror -pedantic, Python with mypy --strict ($(tail -1 "$PREFIX/snippets.log"))"
else not_ok "code blocks of the README and docs/:"; head -40 "$PREFIX/snippets.log"; fi

if problems=$(python3 "$ROOT/scripts/doc-links.py" "$ROOT"); then ok "links of the README, CHANGELOG and docs/: every file and heading they name exists ($(echo "$problems" | tail -1))"
else not_ok "broken links in the README, CHANGELOG or docs/:"; echo "$problems" | head; fi

# Completion of values, through the installed script and the built CLI (the test bed's cameras).
completes() {   # EXPECTED WORD... : the completion of the last word includes every EXPECTED word
	local expected=$1
	shift
	(cd "$PREFIX" && bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ocellus; echo " ${COMPREPLY[*]} "' _ \
		"$STAGE/usr/share/bash-completion/completions/ocellus" "$@") | {
		read -r offered
		for word in $expected; do [[ " $offered " == *" $word "* ]] || { echo "  offered: $offered" >&2; return 1; }; done
	}
}
offers_none() {   # UNEXPECTED WORD... : the completion of the last word includes none of UNEXPECTED
	local unexpected=$1
	shift
	(cd "$PREFIX" && bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ocellus; echo " ${COMPREPLY[*]} "' _ \
		"$STAGE/usr/share/bash-completion/completions/ocellus" "$@") | {
		read -r offered
		for word in $unexpected; do [[ " $offered " != *" $word "* ]] || { echo "  offered: $offered" >&2; return 1; }; done
	}
}
touch "$PREFIX/clip.mp4"
cli="$PREFIX/bin/ocellus"
if completes "--format" "$cli" stream --fo && completes "NV12" "$cli" stream --format N \
	&& completes "normal left-up bottom-up right-up" "$cli" snap --host-orientation "" \
	&& completes "0 90 180 270 follow" "$cli" rotation --interface-orientation "" \
	&& completes "clip.mp4" "$cli" record -o cl && completes "clip.mp4" "$cli" record --audio -o cl \
	&& completes "usb-1d6b:0110-VCAM-0000 usb-1d6b:0111-VCAM-0001" "$cli" stream "" \
	&& completes "0 90 180 270" "$cli" mount-rotation usb-1d6b:0110-VCAM-0000 "" \
	&& completes "standard wide-spectrum voice-isolation" "$cli" listen -o x.wav --mode "" \
	&& completes "stream snap record listen" "$cli" --app-id org.example.x "" \
	&& offers_none "pipewire-vmic0" "$cli" stream "" && completes "pipewire-vmic0" "$cli" listen "" \
	&& offers_none "usb-1d6b:0110-VCAM-0000" "$cli" listen "" && completes "pipewire-vmic0" "$cli" record --audio "" \
	&& completes "1920x1080 640x480" "$cli" stream --size "" && completes "faces codes faces,codes" "$cli" stream --metadata ""; then
	ok "bash completion: flags, choices (from every command's usage), formats, files, cameras and microphones apart, sizes, metadata"
else not_ok "bash completion of values"; fi
make -s -C "$ROOT" uninstall DESTDIR="$STAGE" PREFIX=/usr LIBDIR=/usr/lib/x86_64-linux-gnu >/dev/null 2>&1
if [ -z "$(find "$STAGE" -type f -o -type l)" ]; then ok "make uninstall removes every installed file"
else not_ok "make uninstall left:"; find "$STAGE" -type f -o -type l; fi
LD_LIBRARY_PATH="$PREFIX/lib" "$PREFIX/header_only" >/dev/null || true; ok "header compiles alone as C99 with -Werror"
if problems=$(python3 "$ROOT/scripts/header-docs.py" "$ROOT/include/ocellus.h" 2>&1); then ok "the header's doc comments: no control characters, every line in its margin, every function documented"
else not_ok "the header's doc comments are damaged:"; echo "$problems" | head; fi
if problems=$(python3 "$ROOT/scripts/check-mirrors.py"); then ok "each header section names its files in every mirror, and the C ABI's functions are in them"
else not_ok "the mirrors are not cut like the header:"; echo "$problems" | head; fi
if problems=$(python3 "$ROOT/scripts/mirrors.py" --check 2>&1); then ok "exports.map, the symbols file, _native.py and ocellus-sys are what the header makes (scripts/mirrors.py)"
else not_ok "a mirror is not what the header makes:"; echo "$problems" | head; fi
if (cd "$ROOT" && "${SWIFT:-swift}" package dump-package 2>/dev/null | python3 scripts/layers.py --check docs/DESIGN.md); then ok "docs/DESIGN.md's layer diagram is Package.swift's"
else not_ok "docs/DESIGN.md's layer diagram differs from Package.swift"; fi
# A started thread is joined or detached, else its stack stays mapped until the process ends
# (ThreadSanitizer's "thread leak"); tests read the environment through a lookup they pass, since
# setenv beside the other tests' getenv is a race glibc does not guard.
if leaks=$(grep -rnE '_ = (OcellusCore\.)?startThread|\b(setenv|putenv|unsetenv)\(' "$ROOT/Sources" "$ROOT/Tests" --include='*.swift'); then
	not_ok "a thread neither joined nor detached, or the environment changed in Swift code:"; echo "$leaks" | head
else ok "every started thread is kept or detached, and no Swift code changes the environment"; fi
# A checked `unowned` capture traps when its closure runs on another thread while the owner's
# deinit is under way (a thread not yet started, a loop callback waiting for the lock): weak, a
# strong reference to state the thread owns, or unowned(unsafe) where deinit joins the thread.
if unowned=$(grep -rnE '\[([^]]*, *)?unowned +[A-Za-z_]' "$ROOT/Sources" --include='*.swift'); then not_ok "checked unowned captures in Sources:"; echo "$unowned" | head
else ok "no checked unowned capture in Sources"; fi
if c++ -x c++ -std=c++11 -Wall -Wextra -Werror -pedantic $(pkg-config --cflags ocellus) -c -o /dev/null "$HERE/header_only.c"; then
	ok "header compiles as C++11 with -Werror"
else not_ok "header compiles as C++11"; fi

export OCELLUS_TESTBED_SCRIPT="$ROOT/scripts/testbed.sh"
LD_LIBRARY_PATH="$PREFIX/lib" "$PREFIX/abi_test" | tee "$PREFIX/abi.log" || true
read -r p _ f _ < <(tail -1 "$PREFIX/abi.log")

# No heap allocation per frame in steady state, counted by a preloaded malloc wrapper.
cc -O2 -shared -fPIC -o "$PREFIX/malloc_counter.so" "$HERE/malloc_counter.c" -ldl
cc $CFLAGS $(pkg-config --cflags ocellus) -o "$PREFIX/steady_state" "$HERE/steady_state.c" $(pkg-config --libs ocellus) -ldl
LD_PRELOAD="$PREFIX/malloc_counter.so" LD_LIBRARY_PATH="$PREFIX/lib" "$PREFIX/steady_state" | tee "$PREFIX/steady.log" || true
read -r sp _ sf _ < <(tail -1 "$PREFIX/steady.log")
# Memory errors the suite's own checks cannot see (issue 25: every stop freed the PipeWire stream
# while its loop still had an invoke for it queued; glibc's default arenas hid the reuse): sessions
# churned from several threads under valgrind memcheck and natively with one arena and freed
# memory scribbled, and the CLI's stream (one camera and two), snap, record and listen under memcheck.
# Any invalid access fails.
cc $CFLAGS -pthread $(pkg-config --cflags ocellus) -o "$PREFIX/session_churn" "$HERE/session_churn.c" $(pkg-config --libs ocellus)
# --fair-sched: valgrind runs one thread at a time, and with its default lock a busy thread (the
# encoder) can keep the CPU for long stretches on a loaded machine — the likely cause of one CI
# run where `record`'s camera thread saw no frame for 1.15 s and the command stopped as for a
# stalled camera (not reproduced since, with or without this option, idle or under load).
memcheck() {   # NAME COMMAND...
	local name="$1"; shift
	if LD_LIBRARY_PATH="$PREFIX/lib" valgrind -q --fair-sched=yes --error-exitcode=99 --log-file="$PREFIX/memcheck.log" "$@" >"$PREFIX/memcheck.err" 2>&1; then
		ok "memcheck: $name (no invalid access)"
	else not_ok "memcheck: $name"; head -40 "$PREFIX/memcheck.log" "$PREFIX/memcheck.err"; fi
}
memcheck "sessions started and stopped on 2 threads" "$PREFIX/session_churn" 2 6
memcheck "ocellus stream" "$PREFIX/bin/ocellus" stream --frames 20
# Small sizes: 1080p encoding under valgrind is slow enough to look like a stalled camera.
memcheck "ocellus snap" "$PREFIX/bin/ocellus" snap -o "$PREFIX/memcheck.jpg" --size 640x480
memcheck "ocellus record" "$PREFIX/bin/ocellus" record -o "$PREFIX/memcheck.mp4" --seconds 2 --size 320x240
# 6 s: under valgrind, loading RNNoise and webrtc-audio-processing and opening the stream took
# longer than 2 s once, and the run ended before the first sound ("no sound was heard").
# A microphone of its own: the test bed's vmic0 (PipeWire 0.3.65's in-daemon audiotestsrc) can be
# left silent for good by the clients that vanished mid-stream before (once here: "0 frames").
"$OCELLUS_TESTBED_SCRIPT" add-mic "$OCELLUS_TESTBED_DIR" memcheckmic
memcheck "ocellus listen (voice isolation: the voice worker, a session of a microphone alone)" "$PREFIX/bin/ocellus" listen pipewire-memcheckmic \
	-o "$PREFIX/memcheck.wav" --seconds 6 --mode voice-isolation
"$OCELLUS_TESTBED_SCRIPT" remove-mic "$OCELLUS_TESTBED_DIR" memcheckmic
# Two cameras in one multi-camera session, paired by the synchronizer (destroyed before its outputs).
memcheck "ocellus stream of two cameras, synchronized" "$PREFIX/bin/ocellus" stream usb-1d6b:0110-VCAM-0000 usb-1d6b:0111-VCAM-0001 \
	--synchronized --frames 15 --json
if MALLOC_ARENA_MAX=1 MALLOC_PERTURB_=165 LD_LIBRARY_PATH="$PREFIX/lib" timeout 120 "$PREFIX/session_churn" 4 30; then
	checks=$((checks + 1))
else not_ok "session churn with MALLOC_ARENA_MAX=1 MALLOC_PERTURB_=165 (crashed, hung or failed)"; fi

p=$((p + ${sp:-0} + checks)); f=$((f + ${sf:-1} + fail))
echo "$p passed, $f failed"
[ "$f" = 0 ]
