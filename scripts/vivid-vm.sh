#!/bin/bash
# vivid-vm.sh JOB.sh — runs JOB.sh as root inside a small QEMU guest that boots
# Debian's kernel with the `vivid` virtual video driver available, chrooted into
# this machine's / (shared read-only over 9p, so the project's build and the
# host's tools are there). Prints the job's output; exits with its status
# (124: timeout, 125: the guest never reported one). Run inside the Debian 13 root
# (scripts/trixie-root.sh run), that root is the guest's / and its kernel 6.12 boots.
#
# The kernel booted is the one linux-image-amd64 depends on (scripts/kernel-version.sh),
# whichever others are installed, never simply the newest. It is booted as an uncompressed ELF
# (PVH) to skip the bzImage decompression under TCG (xz, gzip or zstd inside); it and
# the initramfs (busybox, the 9p and virtio modules, decompressed) are built once into
# build/vm/.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
JOB="${1:?usage: vivid-vm.sh JOB.sh}"
CACHE="$ROOT/build/vm"
mkdir -p "$CACHE"

KVER=$("$ROOT/scripts/kernel-version.sh")
MODULES="/lib/modules/$KVER"
KERNEL="$CACHE/vmlinux-$KVER"
if [ ! -s "$KERNEL" ]; then
	/usr/bin/python3 - "/boot/vmlinuz-$KVER" "$KERNEL.tmp" <<'PY'
import lzma, subprocess, sys, zlib
data = open(sys.argv[1], "rb").read()
def first(magic):
    at = data.find(magic)
    return data[at:] if at >= 0 else None
if (payload := first(b"\xfd7zXZ\x00")) is not None:
    kernel = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(payload)
elif (payload := first(b"\x28\xb5\x2f\xfd")) is not None:
    # zstd (Debian 13's kernels); the bzImage's trailer after the frame is not zstd, so the
    # tool's complaint about it is expected: the ELF check below judges the result.
    kernel = subprocess.run(["zstd", "-dcq"], input=payload, capture_output=True).stdout
else:
    kernel = zlib.decompressobj(31).decompress(first(b"\x1f\x8b\x08"))
assert kernel[:4] == b"\x7fELF", "no ELF kernel inside " + sys.argv[1]
open(sys.argv[2], "wb").write(kernel)
PY
	mv "$KERNEL.tmp" "$KERNEL"
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
	# The modules 9p needs, with their dependencies, as modprobe resolves them; decompressed
	# (Debian 13 ships .ko.xz), since busybox's modprobe may not read compressed ones.
	for module in virtio_pci 9pnet_virtio 9p; do
		modprobe -S "$KVER" --show-depends "$module" | awk '$1 == "insmod" { print $2 }'
	done | sort -u | while read -r path; do
		staged="$STAGE$path"
		mkdir -p "$(dirname "$staged")"
		case "$path" in
		*.xz) xz -dc "$path" >"${staged%.xz}" ;;
		*.zst) zstd -dcq "$path" >"${staged%.zst}" ;;
		*) cp "$path" "$staged" ;;
		esac
	done
	cp "$MODULES"/modules.{order,builtin,builtin.modinfo} "$STAGE/lib/modules/$KVER/" 2>/dev/null || true
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
