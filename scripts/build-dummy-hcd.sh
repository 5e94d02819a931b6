#!/bin/bash
# build-dummy-hcd.sh OUT.ko — builds the guest's dummy_hcd with isochronous
# endpoints (testbed/usb-gadget/dummy_hcd-iso.patch), which UVC and UAC2
# gadgets need and Debian's stock module lacks. Built from Debian's own source
# and headers for the kernel the guest boots: the packages are fetched with
# `apt-get download` into a cache and unpacked there; nothing is installed.
# Rebuilt only when the kernel or the patch changes.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUT="$(realpath -m "${1:?usage: build-dummy-hcd.sh OUT.ko}")"
PATCH="$ROOT/testbed/usb-gadget/dummy_hcd-iso.patch"
[ -s "$OUT" ] && [ "$OUT" -nt "$PATCH" ] && [ "$OUT" -nt "$0" ] && exit 0

KVER=$("$ROOT/scripts/kernel-version.sh")                               # 6.1.0-57-amd64, as scripts/vivid-vm.sh boots
VERSION=$(dpkg-query -W -f='${Version}' "linux-image-$KVER")            # 6.1.192-3
ABI=${KVER%-*}                                                           # 6.1.0-57
SERIES=$(echo "$KVER" | cut -d. -f1-2)                                   # 6.1
# kbuild is linux-kbuild-6.1 on Debian 12, linux-kbuild-6.12.57+deb13 on Debian 13.
KBUILD=linux-kbuild-$ABI
apt-cache show "$KBUILD=$VERSION" >/dev/null 2>&1 || KBUILD=linux-kbuild-$SERIES
CACHE=${OCELLUS_CACHE:-/var/cache/ocellus}/kernel-$KVER
mkdir -p "$CACHE"
cd "$CACHE"
for package in "linux-source-$SERIES" "linux-headers-$KVER" "linux-headers-$ABI-common" "$KBUILD"; do
	ls "${package}_${VERSION}"_*.deb >/dev/null 2>&1 || apt-get download -q "$package=$VERSION" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true
	ls "${package}_${VERSION}"_*.deb >/dev/null
done

HEADERS="$CACHE/root/usr/src/linux-headers-$KVER"
if [ ! -f "$HEADERS/Module.symvers" ]; then
	rm -rf "$CACHE/root"
	for package in "linux-headers-$KVER" "linux-headers-$ABI-common" "$KBUILD"; do
		dpkg-deb -x "${package}_${VERSION}"_*.deb "$CACHE/root"
	done
	# The arch headers include the common ones by absolute path: point it at our copy.
	sed -i "s#^include /usr/src/#include $CACHE/root/usr/src/#" "$HEADERS/Makefile"
fi

SOURCE="$CACHE/source/drivers/usb/gadget/udc/dummy_hcd.c"
if [ ! -f "$SOURCE" ]; then
	mkdir -p "$CACHE/source"
	dpkg-deb --fsys-tarfile "linux-source-${SERIES}_${VERSION}_all.deb" |
		tar -xO "./usr/src/linux-source-$SERIES.tar.xz" |
		tar -xJ -C "$CACHE/source" --strip-components=1 "linux-source-$SERIES/drivers/usb/gadget/udc/dummy_hcd.c"
fi

BUILD=$(mktemp -d)
trap 'rm -rf "$BUILD"' EXIT
mkdir -p "$BUILD/drivers/usb/gadget/udc"
cp "$SOURCE" "$BUILD/drivers/usb/gadget/udc/"
patch -s -d "$BUILD" -p1 < "$PATCH"
# dummy_queue completes an IN request at once when it fits its one-request FIFO. An iso request
# must wait for its interval (transfer_iso): 6.12's f_uvc queues a zero-length request again from
# each completion, so completing at once loops in the kernel and the guest locks up. The line
# differs around it between kernels, hence an edit, not a hunk.
sed -i 's/^\(\s*if (ep->desc && \)\((ep->desc->bEndpointAddress & USB_DIR_IN) &&\)$/\1!usb_endpoint_xfer_isoc(ep->desc) \&\& \2/' \
	"$BUILD/drivers/usb/gadget/udc/dummy_hcd.c"
grep -q '!usb_endpoint_xfer_isoc(ep->desc) &&' "$BUILD/drivers/usb/gadget/udc/dummy_hcd.c"
echo 'obj-m := dummy_hcd.o' > "$BUILD/drivers/usb/gadget/udc/Kbuild"
# No BTF for an out-of-tree test module (6.12 would want pahole for it).
make -s -C "$HEADERS" M="$BUILD/drivers/usb/gadget/udc" CONFIG_DEBUG_INFO_BTF_MODULES= modules 2>&1 | grep -v "Skipping BTF" || true
mkdir -p "$(dirname "$OUT")"
cp "$BUILD/drivers/usb/gadget/udc/dummy_hcd.ko" "$OUT.tmp"
mv "$OUT.tmp" "$OUT"
