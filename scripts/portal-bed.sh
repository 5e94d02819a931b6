#!/bin/bash
# portal-bed.sh: the camera portal on a headless machine, for tests. A private session bus,
# the real xdg-permission-store and xdg-desktop-portal (Debian 12: 1.16), the PipeWire test
# bed with the portal's access control on (testbed.sh --portal), and the one stand-in: the
# desktop's access dialog (testbed/portal/access-dialog.py). No systemd, no desktop.
#
#   portal-bed.sh run [--cameras N] [--answer allow|deny|cancel] -- CMD...
#       start, run CMD with DBUS_SESSION_BUS_ADDRESS, PIPEWIRE_REMOTE, XDG_RUNTIME_DIR and
#       PORTAL_BED_DIR set, always tear down (exit status = CMD's)
#
# $PORTAL_BED_DIR/answer holds the dialog's answer (read per dialog); $PORTAL_BED_DIR/dialogs.jsonl
# gets a line per dialog. Cameras must exist before the portal starts: 1.16 reads
# IsCameraPresent once, at start-up.
set -u
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
PY=/usr/bin/python3   # Debian's, which has dbus and gi
log() { echo "portal-bed: $*" >&2; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
start_of() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
ours() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null && [ "$(start_of "$1")" = "$2" ]; }
wait_for() {   # TIMEOUT_S CMD...
	local end=$(( $(now_ms) + $1 * 1000 )); shift
	until "$@" >/dev/null 2>&1; do [ "$(now_ms)" -ge "$end" ] && return 1; sleep 0.01; done
}
spawn() {   # NAME CMD...: recorded "PID NAME STARTTIME", killed with us
	local name="$1"; shift
	setpriv --pdeathsig KILL "$@" >"$DIR/$name.log" 2>&1 &
	echo "$! $name $(start_of $!)" >>"$DIR/pids"
}
owned() {
	[ "$(gdbus call --session -d org.freedesktop.DBus -o /org/freedesktop/DBus -m org.freedesktop.DBus.NameHasOwner "$1")" = "(true,)" ]
}

start() {
	local cameras=1 answer=allow
	while [ $# -gt 0 ]; do
		case "$1" in
		--cameras) cameras="$2"; shift ;;
		--answer) answer="$2"; shift ;;
		*) log "unknown option $1"; return 2 ;;
		esac
		shift
	done
	DIR=$(mktemp -d /tmp/ocellus-portal.XXXXXX)
	mkdir -p "$DIR/data" "$DIR/runtime"; chmod 700 "$DIR" "$DIR/runtime"; : >"$DIR/pids"
	echo "$answer" >"$DIR/answer"
	local t0; t0=$(now_ms)
	# A session bus of our own that activates nothing: every service here is started by hand.
	cat >"$DIR/bus.conf" <<-CONF
	<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
	 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
	<busconfig>
	  <type>session</type>
	  <listen>unix:path=$DIR/bus</listen>
	  <auth>EXTERNAL</auth>
	  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
	</busconfig>
	CONF
	spawn dbus-daemon dbus-daemon --config-file="$DIR/bus.conf" --nofork --nopidfile
	export DBUS_SESSION_BUS_ADDRESS="unix:path=$DIR/bus"
	wait_for 5 test -S "$DIR/bus" || { log "no session bus"; return 1; }
	XDG_DATA_HOME="$DIR/data" spawn permission-store /usr/libexec/xdg-permission-store
	wait_for 5 owned org.freedesktop.impl.portal.PermissionStore || { log "xdg-permission-store did not start"; return 1; }
	"$HERE/testbed.sh" start --portal --dir "$DIR/pipewire" --cameras "$cameras" --mics 1 >"$DIR/pipewire.env" 2>"$DIR/pipewire-start.log" \
		|| { log "the PipeWire test bed did not start"; cat "$DIR/pipewire-start.log" >&2; return 1; }
	ACCESS_ANSWER_FILE="$DIR/answer" ACCESS_LOG="$DIR/dialogs.jsonl" spawn access-dialog "$PY" "$ROOT/testbed/portal/access-dialog.py"
	wait_for 5 grep -q '^READY' "$DIR/access-dialog.log" || { log "the access dialog stand-in did not start"; cat "$DIR/access-dialog.log" >&2; return 1; }
	# The real frontend: its backends from our .portal file, PipeWire = the test bed's.
	XDG_DESKTOP_PORTAL_DIR="$ROOT/testbed/portal/portals" XDG_CURRENT_DESKTOP=ocellus-test \
		XDG_RUNTIME_DIR="$DIR/runtime" XDG_DATA_HOME="$DIR/data" PIPEWIRE_REMOTE="$DIR/pipewire/pipewire-0" \
		spawn portal /usr/libexec/xdg-desktop-portal
	wait_for 10 owned org.freedesktop.portal.Desktop || { log "xdg-desktop-portal did not start"; cat "$DIR/portal.log" >&2; return 1; }
	log "up in $(( $(now_ms) - t0 )) ms in $DIR"
}

stop() {
	[ -n "${DIR:-}" ] && [ -f "$DIR/pids" ] || return 0
	local pid name began
	# The portal and the dialog, then the PipeWire bed, then the store and the bus.
	tac "$DIR/pids" | while read -r pid name began; do
		case "$name" in portal|access-dialog) ours "$pid" "$began" && kill -TERM "$pid" 2>/dev/null ;; esac
	done
	sleep 0.1
	[ -f "$DIR/pipewire/pids" ] && "$HERE/testbed.sh" stop "$DIR/pipewire" 2>/dev/null
	tac "$DIR/pids" | while read -r pid name began; do ours "$pid" "$began" && kill -TERM "$pid" 2>/dev/null; done
	local end=$(( $(now_ms) + 2000 ))
	while read -r pid name began; do
		while ours "$pid" "$began" && [ "$(now_ms)" -lt "$end" ]; do sleep 0.01; done
		ours "$pid" "$began" && kill -KILL "$pid" 2>/dev/null
	done <"$DIR/pids"
	rm -rf "$DIR"
}

case "${1:-}" in
run)
	shift
	options=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do options+=("$1"); shift; done
	[ "${1:-}" = -- ] && shift
	trap stop EXIT
	trap 'exit 130' INT TERM
	start "${options[@]}" || exit 1
	export PORTAL_BED_DIR="$DIR" PIPEWIRE_REMOTE="$DIR/pipewire/pipewire-0" XDG_RUNTIME_DIR="$DIR/pipewire"
	"$@"
	exit $?
	;;
*) sed -n '2,15p' "$0"; exit 2 ;;
esac
