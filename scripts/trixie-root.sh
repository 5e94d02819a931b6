#!/bin/bash
# trixie-root.sh [COMMAND...] — the Debian 13 stack (PipeWire 1.4, WirePlumber 0.5, FFmpeg 7.1,
# kernel 6.12) as a debootstrapped trixie root, for the test command's second leg.
# Built once (debootstrap, then apt for the packages below) and kept at
# $OCELLUS_CACHE/trixie-root; a changed package list installs what is new. The machine's own apt
# sources are never touched. Prints the root's path.
#   trixie-root.sh            builds the root if needed; prints its path
#   trixie-root.sh run CMD... runs CMD inside, in a private mount namespace, from the root's own copy
#                             of this checkout (/src/ocellus: tracked and untracked files and .git,
#                             synced before each run; its build directories stay there, so a second
#                             run builds incrementally and the host's build/ is never touched), with
#                             the host's Swift toolchain at /opt/swift (and rustup's Rust at /opt/rust), the voice engines the host
#                             cached (scripts/fetch-voice-engines.sh) at /var/cache/ocellus-host, both
#                             read-only; /proc, /sys, /dev, and a fresh /tmp and /run. The root's own
#                             /var/cache/ocellus is its cache (kernel sources, clean systems).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CACHE="${OCELLUS_CACHE:-/var/cache/ocellus}"
TREE="$CACHE/trixie-root"
COPY=/src/ocellus
MIRROR=${OCELLUS_DEBIAN_MIRROR:-http://deb.debian.org/debian}

PACKAGES=(
	build-essential pkg-config git tzdata                                       # the build
	libcurl4t64 libedit2 libncurses6 libsqlite3-0 libxml2 libz3-4 zlib1g-dev    # the Swift toolchain's own libraries
	pipewire pipewire-bin wireplumber libpipewire-0.3-dev libspa-0.2-dev        # backend + test bed (1.4, 0.5)
	libturbojpeg0-dev libyuv-dev libexif-dev libusb-1.0-0-dev libpng-dev
	libavformat-dev libavcodec-dev libavutil-dev ffmpeg                         # FFmpeg 7.1
	libsystemd-dev libwebrtc-audio-processing-dev valgrind
	libopencv-objdetect-dev libopencv-imgproc-dev opencv-data libzxing-dev python3-qrcode   # metadata outputs' plugins
	dbus-daemon python3-dbus python3-gi libimage-exiftool-perl
	xdg-desktop-portal bubblewrap libglib2.0-bin                                # the camera portal bed
	python3 python3-pytest python3-numpy python3-venv python3-setuptools python3-opencv python3-pil python3-skimage mypy
	gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-pipewire
	alsa-utils sox bucklespring-data python3-pip man-db cargo rustfmt
	debhelper dh-python python3-all lintian debootstrap                         # the packages, on a clean Debian 13
	linux-image-amd64 kmod qemu-system-x86 busybox-static cpio xz-utils zstd     # the guest, on kernel 6.12
	udev v4l-utils usbutils                                                     # (as scripts/vivid-vm.sh boots it)
)

# The environment of everything run in the root (the host's toolchains first on PATH where bound).
ROOT_ENV=(PATH=/opt/swift/usr/bin:/opt/rust/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive)
inside() { chroot "$TREE" /usr/bin/env -i "${ROOT_ENV[@]}" "$@"; }
bind_read_only() { mkdir -p "$TREE$2" && mount --bind -o ro "$1" "$TREE$2"; }   # HOST_PATH ROOT_PATH
# What `run` adds: the host's Swift (and rustup's Rust, in RUST), the voice engines the host cached,
# and what this machine trusts (a proxy's CA, say: the network the root reaches is the machine's).
mount_host_tools() {
	bind_read_only /opt/swift /opt/swift
	[ -z "$RUST" ] || bind_read_only "$RUST" /opt/rust
	bind_read_only "$CACHE" /var/cache/ocellus-host
	bind_read_only /etc/ssl/certs /etc/ssl/certs
}
mount_system() {
	mount --bind "$TREE" "$TREE"   # the root a mount of its own, as bwrap needs its / to be
	mount -t proc proc "$TREE/proc"
	mount --rbind /sys "$TREE/sys"
	mount --rbind /dev "$TREE/dev"
	mount -t tmpfs tmpfs "$TREE/tmp"
	mount -t tmpfs tmpfs "$TREE/run"
	cp /etc/resolv.conf "$TREE/etc/resolv.conf" 2>/dev/null || true
}

build() {
	local log wanted
	log=$(mktemp /tmp/ocellus-trixie.XXXXXX)
	wanted=$(printf '%s\n' "${PACKAGES[@]}" | sort)
	[ -f "$TREE/.ocellus-packages" ] && [ "$(cat "$TREE/.ocellus-packages")" = "$wanted" ] && { rm -f "$log"; return; }
	if [ ! -f "$TREE/.debootstrapped" ]; then
		rm -rf "$TREE" && mkdir -p "$TREE"
		echo "trixie-root: debootstrapping Debian 13 into $TREE" >&2
		debootstrap --variant=minbase trixie "$TREE" "$MIRROR" >"$log" 2>&1 || { tail -20 "$log" >&2; exit 1; }
		# Kernel hooks and initramfs generation are not wanted: the guest boots its own.
		printf 'do_symlinks = no\ndo_initrd = no\n' >"$TREE/etc/kernel-img.conf"
		echo 'path-exclude=/usr/share/doc/*' >"$TREE/etc/dpkg/dpkg.cfg.d/01-nodoc"
		touch "$TREE/.debootstrapped"
	fi
	echo "trixie-root: installing ${#PACKAGES[@]} packages in $TREE" >&2
	if ! unshare -m --propagation private bash -c "$(declare -f mount_system inside; declare -p ROOT_ENV); TREE='$TREE'; mount_system
		inside apt-get update -qq && inside apt-get install -y -qq --no-install-recommends ${PACKAGES[*]}" >"$log" 2>&1; then
		tail -20 "$log" >&2
		exit 1
	fi
	echo "$wanted" >"$TREE/.ocellus-packages"
	rm -f "$log"
}

build
case "${1:-}" in
"") echo "$TREE" ;;
run)
	shift
	# The copy: everything but its build directories is replaced by the checkout's files.
	mkdir -p "$TREE$COPY"
	find "$TREE$COPY" -mindepth 1 \( -path "$TREE$COPY/.build" -o -path "$TREE$COPY/build" -o -path "$TREE$COPY/bindings/rust/target" \) \
		-prune -o ! -type d -print0 | xargs -0 rm -f
	(cd "$ROOT" && { git ls-files -co --exclude-standard -z; find .git -type f -print0; } | tar --null --ignore-failed-read -T - -cf -) | tar -C "$TREE$COPY" -xf -
	# The host's Rust toolchain where rustup put it (as Swift's, the toolchain is not the stack's);
	# else trixie's own cargo.
	RUST=$(rustc --print sysroot 2>/dev/null || true)
	case "$RUST" in /usr|/usr/local) RUST="" ;; esac
	engines=$(OCELLUS_CACHE="$CACHE" "$ROOT/scripts/fetch-voice-engines.sh" --cached | sed "s|=$CACHE/|=/var/cache/ocellus-host/|" | xargs)
	export TREE CACHE RUST COPY
	exec unshare -m --propagation private bash -c "$(declare -f mount_system bind_read_only mount_host_tools; declare -p ROOT_ENV)
		mount_system && mount_host_tools || exit 1
		exec chroot \"\$TREE\" /usr/bin/env -i \"\${ROOT_ENV[@]}\" $engines OCELLUS_REQUIRE_VOICE_ENGINES='${OCELLUS_REQUIRE_VOICE_ENGINES:-}' \
			bash -c 'cd \"\$0\" && exec \"\$@\"' \"\$COPY\" \"\$@\"" trixie "$@" ;;
*) echo "usage: trixie-root.sh [run CMD...]" >&2; exit 2 ;;
esac
