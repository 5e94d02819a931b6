#!/bin/bash
# The FFmpeg code against each FFmpeg release's headers, not only the one installed: FFmpeg 5.1
# (Debian 12, the system's) and 7.1 (Debian 13's -dev packages, fetched with a private apt
# configuration — the machine's sources are not touched — and cached). The loader and the
# Swift code calling FFmpeg (OcellusMedia) must build without errors or deprecation warnings
# (what is deprecated in 7.1 is removed in 8). Prints "N passed, N failed".
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${OCELLUS_CACHE:-/var/cache/ocellus}/ffmpeg-headers"
SWIFT="${SWIFT:-$(command -v swift || echo /opt/swift/usr/bin/swift)}"
passed=0 failed=0
step() {   # NAME COMMAND...
	local name="$1" log
	shift
	log=$(mktemp)
	if "$@" >"$log" 2>&1 && ! grep -q "deprecated" "$log"; then echo "ok - $name"; passed=$((passed + 1))
	else echo "not ok - $name"; grep -E "error|deprecated" "$log" | head -15 | sed 's/^/    /'; failed=$((failed + 1)); fi
	rm -f "$log"
}

# Debian 13's FFmpeg 7.1 headers, once.
trixie_headers() {
	local into="$CACHE/trixie" apt
	[ -f "$into/.complete" ] && return
	rm -rf "$into" && mkdir -p "$into/lists/partial" "$into/archives/partial" "$into/root"
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main" >"$into/sources.list"
	touch "$into/status"
	apt=(-o Dir::Etc::SourceList="$into/sources.list" -o Dir::Etc::SourceParts=/nonexistent -o Dir::State::Lists="$into/lists"
		-o Dir::Cache="$into" -o Dir::State::Status="$into/status" -o APT::Sandbox::User=root -qq)
	apt-get "${apt[@]}" update && (cd "$into/archives" && apt-get "${apt[@]}" download libavcodec-dev libavformat-dev libavutil-dev) || return 1
	for deb in "$into"/archives/*.deb; do dpkg-deb -x "$deb" "$into/root"; done
	rm -rf "$into/lists" "$into/archives"
	touch "$into/.complete"
}

# build RELEASE [INCLUDE_DIR]: the loader (C, -Werror) and OcellusMedia (Swift) against those headers.
check() {
	local release="$1" include=("${@:2}")
	local flags=("${include[@]/#/-I}")
	step "FFmpeg $release headers: the loader compiles without a warning" \
		cc -fsyntax-only -std=gnu11 -Wall -Wextra -Werror "${flags[@]}" -I"$ROOT/Sources/CLibAV/include" "$ROOT/Sources/CLibAV/loader.c"
	step "FFmpeg $release headers: OcellusMedia builds without an error or a deprecation" \
		"$SWIFT" build --package-path "$ROOT" --scratch-path "$CACHE/build-$release" --target OcellusMedia "${include[@]/#/-Xcc=-I}"
}

check 5.1
if trixie_headers; then
	check 7.1 "$CACHE/trixie/root/usr/include/x86_64-linux-gnu"
else
	echo "not ok - Debian 13's FFmpeg 7.1 headers could not be fetched"; failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
