#!/bin/bash
# build-test-modules.sh OUTDIR — builds the guest's patched USB gadget modules into OUTDIR,
# from Debian's own source and headers for the kernel the guest boots (the packages are
# fetched with `apt-get download` into a cache and unpacked there; nothing is installed):
#   dummy_hcd.ko  with isochronous endpoints (testbed/usb-gadget/dummy_hcd-iso.patch), which
#                 UVC and UAC2 gadgets need and Debian's stock module lacks, and the periodic
#                 bandwidth a real bus has (EHCI's budget: an alternate setting that does not
#                 fit fails with ENOSPC);
#   usb_f_uvc.ko  whose camera terminal and processing unit declare the controls a camera
#                 needs for face-driven exposure and focus (exposure time, absolute and auto
#                 focus, gain): configfs keeps those descriptors read-only with one control each;
#                 and which can offer a second, smaller streaming setting.
# Each is rebuilt only when the kernel, its edits or this script change.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
OUTDIR="$(realpath -m "${1:?usage: build-test-modules.sh OUTDIR}")"
PATCH="$ROOT/testbed/usb-gadget/dummy_hcd-iso.patch"

KVER=$("$ROOT/scripts/kernel-version.sh")                               # 6.1.0-57-amd64, as scripts/vivid-vm.sh boots
VERSION=$(dpkg-query -W -f='${Version}' "linux-image-$KVER")            # 6.1.192-3
ABI=${KVER%-*}                                                           # 6.1.0-57
SERIES=$(echo "$KVER" | cut -d. -f1-2)                                   # 6.1
SELF="$(realpath "$0")"   # $0 may be relative, and the script changes directory before it asks
up_to_date() { [ -s "$OUTDIR/$1" ] && [ "$OUTDIR/$1" -nt "$SELF" ] && { [ -z "${2:-}" ] || [ "$OUTDIR/$1" -nt "$2" ]; } &&
	[ "$(cat "$OUTDIR/$1.kernel" 2>/dev/null)" = "$KVER $VERSION" ]; }
up_to_date dummy_hcd.ko "$PATCH" && up_to_date usb_f_uvc.ko && exit 0

# kbuild is linux-kbuild-6.1 on Debian 12, linux-kbuild-6.12.57+deb13 on Debian 13.
KBUILD=linux-kbuild-$ABI
apt-cache show "$KBUILD=$VERSION" >/dev/null 2>&1 || KBUILD=linux-kbuild-$SERIES
CACHE=${OCELLUS_CACHE:-/var/cache/ocellus}/kernel-$KVER
mkdir -p "$CACHE" "$OUTDIR"
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

# The sources both modules need, taken from the source package in one pass.
SOURCE="$CACHE/source"
FUNCTION="$SOURCE/drivers/usb/gadget/function"
if [ ! -f "$SOURCE/drivers/usb/gadget/udc/dummy_hcd.c" ] || [ ! -f "$FUNCTION/f_uvc.c" ] || [ ! -f "$FUNCTION/Makefile" ]; then
	mkdir -p "$SOURCE"
	dpkg-deb --fsys-tarfile "linux-source-${SERIES}_${VERSION}_all.deb" |
		tar -xO "./usr/src/linux-source-$SERIES.tar.xz" |
		tar -xJ -C "$SOURCE" --strip-components=1 --wildcards "linux-source-$SERIES/drivers/usb/gadget/udc/dummy_hcd.c" \
			"linux-source-$SERIES/drivers/usb/gadget/function/Makefile" "linux-source-$SERIES/drivers/usb/gadget/function/*uvc*"
fi

BUILD=$(mktemp -d)
trap 'rm -rf "$BUILD"' EXIT

# make_module DIR NAME: builds DIR/NAME.ko against the headers and installs it in OUTDIR.
make_module() {
	# No BTF for an out-of-tree test module (6.12 would want pahole for it).
	make -s -C "$HEADERS" M="$1" CONFIG_DEBUG_INFO_BTF_MODULES= modules 2>&1 | grep -v "Skipping BTF" || true
	cp "$1/$2.ko" "$OUTDIR/$2.ko.tmp"
	mv "$OUTDIR/$2.ko.tmp" "$OUTDIR/$2.ko"
	echo "$KVER $VERSION" > "$OUTDIR/$2.ko.kernel"
}

if ! up_to_date dummy_hcd.ko "$PATCH"; then
	UDC="$BUILD/drivers/usb/gadget/udc"
	mkdir -p "$UDC"
	cp "$SOURCE/drivers/usb/gadget/udc/dummy_hcd.c" "$UDC/"
	patch -s -d "$BUILD" -p1 < "$PATCH"
	# dummy_queue completes an IN request at once when it fits its one-request FIFO. An iso request
	# must wait for its interval (transfer_iso): 6.12's f_uvc queues a zero-length request again from
	# each completion, so completing at once loops in the kernel and the guest locks up. The line
	# differs around it between kernels, hence an edit, not a hunk.
	sed -i 's/^\(\s*if (ep->desc && \)\((ep->desc->bEndpointAddress & USB_DIR_IN) &&\)$/\1!usb_endpoint_xfer_isoc(ep->desc) \&\& \2/' "$UDC/dummy_hcd.c"
	grep -q '!usb_endpoint_xfer_isoc(ep->desc) &&' "$UDC/dummy_hcd.c"
	echo 'obj-m := dummy_hcd.o' > "$UDC/Kbuild"
	make_module "$UDC" dummy_hcd
fi

if ! up_to_date usb_f_uvc.ko; then
	UVC="$BUILD/drivers/usb/gadget/function"
	mkdir -p "$UVC"
	cp "$FUNCTION"/*uvc* "$UVC/"
	# The camera terminal's bmControls (UVC 1.5 table 3-6): D1 auto-exposure mode, D3 exposure time
	# (absolute), D5 focus (absolute), D17 focus auto; the processing unit's (table 3-8): D0
	# brightness, D9 gain. The stock function declares D1 and D0 only.
	sed -i -e 's/^\(\s*cd->bmControls\[0\]\s*=\s*\)2;/\10x2a;/' -e 's/^\(\s*cd->bmControls\[2\]\s*=\s*\)0;/\10x02;/' \
		-e 's/^\(\s*pd->bmControls\[1\]\s*=\s*\)0;/\10x02;/' "$UVC/f_uvc.c"
	[ "$(grep -cE 'cd->bmControls\[0\]\s*=\s*0x2a;|cd->bmControls\[2\]\s*=\s*0x02;|pd->bmControls\[1\]\s*=\s*0x02;' "$UVC/f_uvc.c")" = 3 ]
	# A second, smaller streaming setting at high speed, as real cameras offer several: configfs
	# `streaming_small_maxpacket` (bytes a microframe, 0: none, the stock function's one setting)
	# adds alternate setting 2 with that endpoint size; uvcvideo picks the smallest setting that
	# carries what the camera's probe answer asks.
	perl -0pi -e 's/(\tunsigned int\s+streaming_maxburst;\n)/$1\tunsigned int\t\t\t\t\tstreaming_small_maxpacket;\n/' "$UVC/u_uvc.h"
	perl -0pi -e 's/(UVCG_OPTS_ATTR\(streaming_maxburst, streaming_maxburst, 15\);\n)/$1UVCG_OPTS_ATTR(streaming_small_maxpacket, streaming_small_maxpacket, 1024);\n/;
		s/(\t&f_uvc_opts_attr_streaming_maxburst,\n)/$1\t&f_uvc_opts_attr_streaming_small_maxpacket,\n/' "$UVC/uvc_configfs.c"
	perl -0pi -e '
		s/(static struct usb_endpoint_descriptor uvc_fs_streaming_ep = \{)/static struct usb_interface_descriptor uvc_streaming_intf_alt2 = {\n\t.bLength = USB_DT_INTERFACE_SIZE, .bDescriptorType = USB_DT_INTERFACE,\n\t.bAlternateSetting = 2, .bNumEndpoints = 1, .bInterfaceClass = USB_CLASS_VIDEO,\n\t.bInterfaceSubClass = UVC_SC_VIDEOSTREAMING,\n};\n\nstatic struct usb_endpoint_descriptor uvc_hs_streaming_ep_small = {\n\t.bLength = USB_DT_ENDPOINT_SIZE, .bDescriptorType = USB_DT_ENDPOINT,\n\t.bEndpointAddress = USB_DIR_IN, .bmAttributes = USB_ENDPOINT_SYNC_ASYNC | USB_ENDPOINT_XFER_ISOC,\n};\n\n$1/;
		s/static const struct usb_descriptor_header \* const uvc_hs_streaming\[\] = \{\n(.*?)\tNULL,/static const struct usb_descriptor_header *uvc_hs_streaming[] = {\n$1\t(struct usb_descriptor_header *) &uvc_streaming_intf_alt2,\n\t(struct usb_descriptor_header *) &uvc_hs_streaming_ep_small,\n\tNULL,/s;
		s/(\tuvc_hs_streaming_ep\.bEndpointAddress = uvc->video\.ep->address;\n)/$1\tuvc_hs_streaming_ep_small.bEndpointAddress = uvc->video.ep->address;\n\tuvc_hs_streaming_ep_small.wMaxPacketSize = cpu_to_le16(opts->streaming_small_maxpacket);\n\tuvc_hs_streaming_ep_small.bInterval = uvc_hs_streaming_ep.bInterval;\n\tuvc_hs_streaming[2] = opts->streaming_small_maxpacket ? (struct usb_descriptor_header *) &uvc_streaming_intf_alt2 : NULL;\n/;
		s/(\tuvc_streaming_intf_alt1\.bInterfaceNumber = ret;\n)/$1\tuvc_streaming_intf_alt2.bInterfaceNumber = ret;\n\tuvc_streaming_intf_alt2.iInterface = uvc_streaming_intf_alt1.iInterface;\n/;
		s/(\tcase 1:\n\t\tif \(uvc->state != UVC_STATE_CONNECTED\))/\tcase 2:\n$1/;
		s/config_ep_by_speed\(f->config->cdev->gadget,\n(\s*)&\(uvc->func\), uvc->video\.ep\);/config_ep_by_speed_and_alt(f->config->cdev->gadget,\n$1&(uvc->func), uvc->video.ep, alt);/;
	' "$UVC/f_uvc.c"
	[ "$(grep -c 'streaming_small_maxpacket' "$UVC/f_uvc.c")" = 2 ] && grep -q 'case 2:' "$UVC/f_uvc.c" && grep -q 'config_ep_by_speed_and_alt' "$UVC/f_uvc.c" \
		&& grep -q 'uvc_streaming_intf_alt2.bInterfaceNumber' "$UVC/f_uvc.c" && grep -q '&uvc_hs_streaming_ep_small,' "$UVC/f_uvc.c" \
		&& grep -q 'streaming_small_maxpacket;' "$UVC/u_uvc.h" && grep -q 'attr_streaming_small_maxpacket,' "$UVC/uvc_configfs.c"
	# The objects as the kernel's own Makefile lists them (5 on 6.1; 6.12 may add more).
	objects=$(sed -n 's/^usb_f_uvc-y\s*:=\s*//p' "$FUNCTION/Makefile")
	[ -n "$objects" ]
	printf 'obj-m := usb_f_uvc.o\nusb_f_uvc-y := %s\n' "$objects" > "$UVC/Kbuild"
	make_module "$UVC" usb_f_uvc
fi
