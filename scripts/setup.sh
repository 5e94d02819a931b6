#!/bin/bash
# setup.sh [PACKAGE...] — installs what Ocellus needs on Debian 12 (idempotent: apt runs only
# when something is missing) and checks for the Swift toolchain. With packages named, installs
# those alone (scripts/test.sh gets debootstrap first, to make the Debian 13 root meanwhile).
set -euo pipefail

PACKAGES=(
	build-essential pkg-config binutils valgrind                              # valgrind: memcheck in the C suite
	pipewire pipewire-bin wireplumber libpipewire-0.3-dev libspa-0.2-dev   # backend + test bed
	libturbojpeg0-dev libyuv-dev libexif-dev                               # JPEG, EXIF and pixel conversion
	libusb-1.0-0-dev                                                       # USB descriptors (what feeds a camera)
	libpng-dev                                                             # depth maps as 16-bit PNGs (CLI)
	libavformat-dev libavcodec-dev libavutil-dev                           # movie files (FFmpeg)
	ffmpeg                                                                 # ffprobe/ffmpeg check recordings (tests)
	libimage-exiftool-perl                                                 # exiftool -validate checks photos (tests)
	man-db                                                                 # man --warnings and lexgrog check the man pages
	libsystemd-dev                                                         # sd-bus: iio-sensor-proxy
	dbus-daemon python3-dbus python3-gi                                    # stand-in sensor proxy (tests)
	xdg-desktop-portal bubblewrap libglib2.0-bin                           # the camera portal bed (tests)
	python3 python3-pytest python3-numpy python3-venv python3-setuptools mypy                 # Python bindings (mypy: the package type-checks; venv: the offline build docs/python.md shows)
	python3-opencv python3-pil python3-skimage                              # pixel references: OpenCV, libjpeg via Pillow, real photographs
	gstreamer1.0-tools gstreamer1.0-plugins-base gstreamer1.0-pipewire     # independent producers: padded rows, MJPEG, ranges
	qemu-system-x86 linux-image-amd64 busybox-static cpio kmod v4l-utils   # vivid VM (V4L2 tests)
	libv4l-0                                                               # optional libv4l2 switch
	udev alsa-utils usbutils                                               # USB gadget cameras in the VM
	libwebrtc-audio-processing-dev                                         # echo cancellation's plugin
	libopencv-objdetect-dev libopencv-imgproc-dev opencv-data libzxing-dev # metadata outputs' plugins: faces (OpenCV), codes (zxing-cpp)
	python3-qrcode                                                         # an independent QR encoder (tests)
	sox bucklespring-data python3-pip                                      # voice isolation: mixes of alsa-utils' speech and recorded typing; RNNoise from PyPI
	debhelper dh-python python3-all lintian debootstrap                    # Debian packages, checked on a clean system
	abigail-tools                                                          # the C ABI checked against the last release (abidiff)
)
command -v cargo >/dev/null 2>&1 || PACKAGES+=(cargo)                      # Rust bindings
command -v rustfmt >/dev/null 2>&1 || PACKAGES+=(rustfmt)                  # their formatting, checked
[ $# = 0 ] || PACKAGES=("$@")

missing=()
for package in "${PACKAGES[@]}"; do
	dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
	echo "setup: installing ${missing[*]}" >&2
	SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
	# The package lists once an hour is enough (a first call with packages named has just read them).
	find /var/lib/apt/lists -maxdepth 1 -name '*_Packages*' -newermt '-1 hour' | grep -q . || $SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null 2>&1 && [ ! -x /opt/swift/usr/bin/swift ]; then
	echo "setup: no Swift toolchain found (on PATH or at /opt/swift); install Swift 6.3 from swift.org" >&2
	exit 1
fi
