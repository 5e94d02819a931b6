#!/bin/bash
# sandboxed.sh APP_ID CMD...: runs CMD as the Flatpak app APP_ID would run — bubblewrap with
# a fresh root holding /.flatpak-info ([Application] name=APP_ID, and the [Instance] group
# xdg-desktop-portal 1.18+ requires, whose bwrapinfo.json with the sandbox's pid bwrap writes where
# Flatpak does: the portal's runtime directory, .flatpak/INSTANCE/), /usr and this checkout
# read-only, /proc, /dev (no camera nodes reach a Flatpak app by default: /dev is bwrap's
# minimal one), the session bus, and no PipeWire socket: the camera only through the portal.
set -eu
app="$1"; shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
bus="${DBUS_SESSION_BUS_ADDRESS#unix:path=}"; bus="${bus%%,*}"
[ -S "$bus" ] || { echo "sandboxed.sh: needs DBUS_SESSION_BUS_ADDRESS=unix:path=SOCKET" >&2; exit 2; }
info="$(mktemp /tmp/flatpak-info.XXXXXX)"
instance="${PORTAL_BED_DIR:+$PORTAL_BED_DIR/runtime}"
instance="${instance:-$XDG_RUNTIME_DIR}/.flatpak/$$"
trap 'rm -rf "$info" "$instance"' EXIT
printf '[Application]\nname=%s\n\n[Instance]\ninstance-id=%s\n' "$app" "$$" >"$info"
mkdir -p "$instance"
bwrap --die-with-parent --unshare-pid --unshare-ipc --info-fd 3 \
	--ro-bind /usr /usr --symlink usr/lib /lib --symlink usr/lib64 /lib64 \
	--symlink usr/bin /bin --symlink usr/sbin /sbin --ro-bind /etc /etc \
	--proc /proc --dev /dev --tmpfs /tmp --tmpfs /run \
	--ro-bind "$root" "$root" --bind "$bus" "$bus" \
	--ro-bind "$info" /.flatpak-info \
	--setenv DBUS_SESSION_BUS_ADDRESS "unix:path=$bus" --setenv HOME /tmp \
	--unsetenv PIPEWIRE_REMOTE --unsetenv XDG_RUNTIME_DIR --unsetenv OCELLUS_CAMERA_PORTAL \
	"$@" 3>"$instance/bwrapinfo.json"
