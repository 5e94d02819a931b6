#!/bin/bash
# vivid-vm.sh JOB.sh — runs JOB.sh as root inside a small QEMU guest that boots
# Debian's kernel with the `vivid` virtual video driver available, chrooted into
# this machine's / (shared read-only over 9p, so the project's build and the
# host's tools are there). Prints the job's output; exits with its status
# (124: timeout, 125: the guest never reported one).
#
# The kernel (linux-image-amd64) is booted as an uncompressed ELF (PVH) to skip
# the bzImage decompression under TCG; it and the initramfs (busybox, the 9p
# and virtio modules) are built once into build/vm/.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JOB="${1:?usage: vivid-vm.sh JOB.sh}"
CACHE="$ROOT/build/vm"
mkdir -p "$CACHE"

BZIMAGE=$(ls /boot/vmlinuz-* | sort -V | tail -1)
KVER=${BZIMAGE#/boot/vmlinuz-}
KERNEL="$CACHE/vmlinux-$KVER"
if [ ! -s "$KERNEL" ]; then
	/usr/bin/python3 - "$BZIMAGE" "$KERNEL" <<'PY'
import lzma, sys, zlib
data = open(sys.argv[1], "rb").read()
start = data.find(b"\xfd7zXZ\x00")
if start >= 0:
    kernel = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[start:])
else:
    kernel = zlib.decompressobj(31).decompress(data[data.find(b"\x1f\x8b\x08"):])
assert kernel[:4] == b"\x7fELF", "no ELF kernel inside the bzImage"
open(sys.argv[2], "wb").write(kernel)
PY
fi

INITRD="$CACHE/base-$KVER.cpio"
if [ ! -s "$INITRD" ] || [ "$ROOT/testbed/vm/init" -nt "$INITRD" ]; then
	STAGE=$(mktemp -d)
	trap 'rm -rf "$STAGE"' EXIT
	mkdir -p "$STAGE"/{bin,sbin,proc,sys,dev,host,tmp,etc} "$STAGE/lib/modules/$KVER"
	cp /bin/busybox "$STAGE/bin/busybox"
	for applet in sh mount modprobe insmod chroot cp mkdir stty sync poweroff cat echo sleep; do
		ln -sf busybox "$STAGE/bin/$applet"
	done
	# The modules 9p needs, with their dependencies, as modprobe resolves them.
	for module in virtio_pci 9pnet_virtio 9p; do
		modprobe -S "$KVER" --show-depends "$module" | awk '$1 == "insmod" { print $2 }'
	done | sort -u | while read -r path; do
		mkdir -p "$STAGE$(dirname "$path")"
		cp "$path" "$STAGE$path"
	done
	cp /lib/modules/"$KVER"/modules.{order,builtin,builtin.modinfo} "$STAGE/lib/modules/$KVER/" 2>/dev/null || true
	depmod -b "$STAGE" "$KVER"
	cp "$ROOT/testbed/vm/init" "$STAGE/init"
	chmod 755 "$STAGE/init"
	(cd "$STAGE" && find . -print0 | cpio --null -o -H newc --quiet) > "$INITRD.tmp"
	mv "$INITRD.tmp" "$INITRD"
fi

WORK=$(mktemp -d /tmp/ocellus-vm.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$WORK/job"
# The job runs from the host's / inside: @ROOT@ is this checkout, @TESTS@ what to run (GUEST_TESTS).
sed "s|@ROOT@|$ROOT|g; s|@TESTS@|${GUEST_TESTS:-}|g" "$JOB" > "$WORK/job/job.sh"
(cd "$WORK/job" && echo job.sh | cpio -o -H newc --quiet) > "$WORK/job.cpio"
cat "$INITRD" "$WORK/job.cpio" > "$WORK/initrd.cpio"

set +e
timeout --foreground -k 5 "${VM_TIMEOUT:-600}" qemu-system-x86_64 -accel tcg,thread=multi -cpu max -m 1536 -smp 2 \
	-display none -monitor none -no-reboot -nodefaults \
	-serial "file:$WORK/console.log" -serial "file:$WORK/job.out" \
	-kernel "$KERNEL" -initrd "$WORK/initrd.cpio" \
	-append "console=ttyS0 quiet loglevel=3 panic=-1" \
	-virtfs "local,path=/,mount_tag=hostroot,security_model=none,readonly=on,multidevs=remap,id=hostroot" \
	</dev/null
QEMU_STATUS=$?
set -e
cat "$WORK/job.out"
[ "$QEMU_STATUS" = 124 ] && { echo "vivid-vm: timed out" >&2; exit 124; }
STATUS=$(sed -n 's/^VM_EXIT=\([0-9]*\).*/\1/p' "$WORK/console.log" | tail -1)
[ -n "$STATUS" ] || { echo "vivid-vm: the guest reported no exit status; console:" >&2; tail -20 "$WORK/console.log" >&2; exit 125; }
exit "$STATUS"
