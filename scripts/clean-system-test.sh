#!/bin/bash
# The Debian packages on a clean system: debootstraps a minimal tree of the Debian release this
# machine runs (12 on the host, 13 in scripts/trixie-root.sh's root, where they were built), installs the
# .debs from DEBDIR there with apt (so their dependencies must be complete), then inside it
# builds examples/first_frame.c with `pkg-config --cflags --libs ocellus`, runs
# examples/first_frame.py and `ocellus list --json` against a test bed started on the host.
# Prints "N passed, N failed". Usage: scripts/clean-system-test.sh DEBDIR
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DEBS="$(cd "$1" && pwd)"
RELEASE=$(. /etc/os-release && echo "$VERSION_CODENAME")                   # bookworm, trixie
RELEASE_NAME=$(. /etc/os-release && echo "Debian $VERSION_ID")
MIRROR=${OCELLUS_DEBIAN_MIRROR:-$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1 || true)}
MIRROR=${MIRROR:-http://deb.debian.org/debian}
# The minimal tree is kept between runs (it only changes with that release itself).
CACHE=${OCELLUS_DEBOOTSTRAP_CACHE:-/var/cache/ocellus/$RELEASE-minbase.tar}
WORK=$(mktemp -d /tmp/ocellus-clean-system.XXXXXX)
TREE="$WORK/root"
mounts=()
cleanup() {
	for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
	rm -rf "$WORK"
}
trap cleanup EXIT
bind() { mkdir -p "$TREE$2"; mount --bind "$1" "$TREE$2"; mounts+=("$TREE$2"); }   # unmounted on exit

if [ ! -s "$CACHE" ]; then
	mkdir -p "$(dirname "$CACHE")"
	debootstrap --variant=minbase "$RELEASE" "$TREE" "$MIRROR" > "$WORK/debootstrap.log" 2>&1 \
		|| { tail -20 "$WORK/debootstrap.log"; echo "0 passed, 1 failed"; exit 1; }
	tar -C "$TREE" -cf "$CACHE.partial" . && mv "$CACHE.partial" "$CACHE"
else
	mkdir -p "$TREE" && tar -C "$TREE" -xf "$CACHE"
fi
cp /etc/resolv.conf "$TREE/etc/resolv.conf" 2>/dev/null || true
mkdir -p "$TREE/debs" "$TREE/examples"
cp "$DEBS"/*.deb "$TREE/debs/"
cp "$ROOT/examples/first_frame.c" "$ROOT/examples/first_frame.py" "$TREE/examples/"
bind /proc /proc
bind /dev /dev
bind /sys /sys

inside() { chroot "$TREE" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }
passed=0 failed=0
step() {   # NAME COMMAND...
	local name="$1"
	shift
	if "$@" > "$WORK/step.log" 2>&1; then echo "ok - $name"; passed=$((passed + 1))
	else echo "not ok - $name"; tail -15 "$WORK/step.log" | sed 's/^/    /'; failed=$((failed + 1)); fi
}
step "apt installs libocellus0, libocellus-dev, ocellus, python3-ocellus and their dependencies on minimal $RELEASE_NAME" \
	inside sh -c 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		$(ls /debs/*.deb | grep -v -e /ocellus-testbed -e /libocellus0-metadata) gcc libc6-dev pkg-config'
step "libocellus0 recommends the FFmpeg packages of the majors it was built for ($("$ROOT/scripts/ffmpeg-packages.sh"))" \
	sh -c "dpkg-deb -f $DEBS/libocellus0_*.deb Recommends | grep -qF '$("$ROOT/scripts/ffmpeg-packages.sh")'"
step "libocellus0 and the virtual camera bind now, have read-only relocations and carry no RUNPATH; libocellus0 suggests libv4l-0 (loaded when asked)" \
	sh -c "for deb in $DEBS/libocellus0_*.deb $DEBS/ocellus-testbed_*.deb; do dpkg-deb -x \$deb $WORK/unpacked; done
		for elf in $WORK/unpacked/usr/lib/*/libocellus.so.0 $WORK/unpacked/usr/libexec/ocellus/ocellus-virtual-camera; do
			readelf -d \$elf > $WORK/dynamic && grep -q BIND_NOW $WORK/dynamic && ! grep -qE 'RUNPATH|RPATH' $WORK/dynamic || exit 1
			readelf -lW \$elf | grep -q GNU_RELRO || exit 1
		done
		dpkg-deb -f $DEBS/libocellus0_*.deb Suggests | grep -qw libv4l-0"
step "the ocellus package is the small CLI ($(dpkg-deb -f "$DEBS"/ocellus_*.deb Installed-Size) KiB installed) with its man pages and completions" \
	inside sh -c 'test -s /usr/share/man/man1/ocellus-stream.1.gz && test -s /usr/share/bash-completion/completions/ocellus \
		&& [ "$(dpkg-query -W -f "\${Installed-Size}" ocellus)" -lt 1024 ]'
step "without ocellus-testbed, ocellus virtual-camera names the package it needs" \
	inside sh -c '! ocellus virtual-camera --name try > /tmp/out 2>&1 && grep -q ocellus-testbed /tmp/out'
step "ocellus-testbed installs the virtual camera that ocellus virtual-camera runs" \
	inside sh -c 'DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /debs/ocellus-testbed_*.deb \
		&& ocellus virtual-camera --help | grep -q -- --formats'
step "libocellus0's echo canceller plugin is installed beside the library and its dependencies resolve (webrtc-audio-processing, 0.3 or 1.x)" \
	inside sh -c 'plugin=$(dpkg -L libocellus0 | grep /ocellus/libocellus-echo-webrtc.so) && ldd "$plugin" > /tmp/ldd && grep -qE "libwebrtc[-_]audio[-_]processing" /tmp/ldd && ! grep -q "not found" /tmp/ldd'
step "examples/first_frame.c builds with pkg-config --cflags --libs ocellus" \
	inside sh -c 'cc -std=c99 -Wall -Werror -o /examples/first_frame /examples/first_frame.c $(pkg-config --cflags --libs ocellus)'

# A test bed on the host; its runtime directory is bound into the tree so the packaged
# library and CLI reach its PipeWire daemon.
run_on_testbed() {
	bind "$OCELLUS_TESTBED_DIR" /run/testbed
	local remote="/run/testbed/$(basename "$PIPEWIRE_REMOTE")"
	step "ocellus list --json (installed CLI, packaged library) sees the test bed's cameras" \
		inside sh -c "PIPEWIRE_REMOTE=$remote ocellus list --json | grep -q usb-1d6b:0110-VCAM-0000"
	step "examples/first_frame.c runs" inside sh -c "PIPEWIRE_REMOTE=$remote /examples/first_frame | grep -q 'NV12 frame'"
	step "examples/first_frame.py runs with the packaged binding (import ocellus from dist-packages)" \
		inside sh -c "PIPEWIRE_REMOTE=$remote python3 /examples/first_frame.py | grep -q uint8"
	step "without libocellus0-metadata (OpenCV, zxing-cpp not installed), stream --metadata names the package it needs" \
		inside sh -c "! PIPEWIRE_REMOTE=$remote ocellus stream --metadata faces --frames 5 > /tmp/out 2>&1 && grep -q libocellus0-metadata /tmp/out"
	step "libocellus0-metadata installs the face and code plugins, their dependencies resolve, and stream --metadata runs" \
		inside sh -c "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends /debs/libocellus0-metadata_*.deb \
			&& for plugin in \$(dpkg -L libocellus0-metadata | grep '/ocellus/libocellus-.*\\.so'); do ldd \$plugin | grep -q 'not found' && exit 1; done; \
			PIPEWIRE_REMOTE=$remote ocellus stream --metadata faces,codes --frames 20 --json | tail -1 | grep -q '\"analysed_frames\"'"
	umount -l "$TREE/run/testbed"
	echo "$passed passed, $failed failed" > "$WORK/counts"
}
export -f run_on_testbed step inside bind
export TREE WORK passed failed
if OCELLUS_CLI="$ROOT/build/bin/ocellus" "$ROOT/scripts/testbed.sh" run --cameras 1 -- bash -c run_on_testbed; then :; fi
read -r passed _ failed _ < "$WORK/counts" 2>/dev/null || failed=$((failed + 1))
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
