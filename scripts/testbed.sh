#!/bin/bash
# testbed.sh — a private PipeWire + WirePlumber with virtual cameras and a
# virtual microphone, for tests, benchmarks and the demo. No systemd, no D-Bus,
# no real devices; everything lives in a private runtime directory.
#
#   testbed.sh run [opts] -- CMD...    start, run CMD with the environment set, always tear down
#                                      (exit status = CMD's)
#   testbed.sh start [opts]            start; print `export ...` lines
#   testbed.sh stop [DIR]              stop everything started (by PID) and remove DIR
#   testbed.sh add-camera DIR NAME [virtual-camera args...]   hotplug a camera (prints its READY line)
#   testbed.sh remove-camera DIR NAME [SIGNAL]                unplug it (kill its process)
#   testbed.sh add-process-mic DIR NAME [speech]              a microphone that is its own process (silence, or
#                                                             alsa-utils' speech over pink noise, looped)
#   testbed.sh signal DIR NAME SIGNAL                         STOP / CONT a camera or process microphone: it stalls, recovers
#   testbed.sh add-mic DIR NAME [VOLUME]                      hotplug a microphone (a 440 Hz tone at VOLUME, default 1)
#   testbed.sh remove-mic DIR NAME                            unplug it
#
# opts: --cameras N   virtual cameras vcam0..vcamN-1, shaped like USB webcams (default 2)
#       --mics N      virtual microphones vmic0.. (default 1)
#       --dir DIR     runtime directory (default: mktemp -d)
#       --hardware    WirePlumber's V4L2 and ALSA monitors on (real drivers, e.g. in the test guest)
#       --portal      camera access through the camera portal (scripts/portal-bed.sh): the daemon tags
#                     the portal's connections (module-portal) and WirePlumber grants cameras by the
#                     portal's permission store; needs DBUS_SESSION_BUS_ADDRESS
#
# Needs: pipewire, wireplumber, pw-cli, and the `ocellus` CLI (OCELLUS_CLI, else
# build/bin/ocellus). Every process started is recorded as
# "PID NAME STARTTIME" in $DIR/pids and stopped by PID (TERM, then KILL after 2 s),
# checking the start time so that a reused PID is never signalled. Under `run`,
# children get PDEATHSIG=KILL so nothing survives if this script is killed.
set -u

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(dirname "$HERE")"
CONF="$ROOT/testbed/ocellus-testbed.conf"
WP_CONFIGS="$ROOT/testbed/wireplumber"   # per series: headless, hardware, portal (an overlay)
OCELLUS_CLI="${OCELLUS_CLI:-$ROOT/build/bin/ocellus}"

log() { echo "testbed: $*" >&2; }
start_of() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f20; }
ours() { [ -n "$1" ] && kill -0 "$1" 2>/dev/null && { [ -z "${2:-}" ] || [ "$(start_of "$1")" = "$2" ]; }; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

spawn() {   # NAME CMD...
	local name="$1"; shift
	if [ "${PDEATH:-0}" = 1 ]; then
		setpriv --pdeathsig KILL "$@" >"$DIR/$name.log" 2>&1 &
	else
		"$@" >"$DIR/$name.log" 2>&1 &
	fi
	local pid=$!
	disown "$pid" 2>/dev/null
	echo "$pid $name $(start_of "$pid")" >>"$DIR/pids"
	SPAWNED_PID=$pid
}

wait_for() {   # TIMEOUT_S CMD...
	local end=$(( $(now_ms) + $1 * 1000 )); shift
	until "$@" 2>/dev/null; do
		[ "$(now_ms)" -ge "$end" ] && return 1
		sleep 0.01
	done
}

node_serial() {   # NODE_NAME -> object.serial
	pw-cli ls Node 2>/dev/null | awk -v want="$1" '
		/^[ \t]*id [0-9]+,/ { serial="" }
		/object.serial = / { serial=$3; gsub("\"", "", serial) }
		/node.name = / { n=$3; gsub("\"", "", n); if (n == want) { print serial; exit } }'
}

has_default_metadata() { pw-cli ls Metadata 2>/dev/null | grep -q 'metadata.name = "default"'; }

# WirePlumber 0.4's suspend-node.lua arms a 5 s timer when a node goes idle and never
# disarms it when the node is destroyed: a test unplugging a device within 5 s of its
# last stream crashes WirePlumber (segfault in wp_node_send_command). Test devices opt out.
NO_SUSPEND="session.suspend-timeout-seconds=0"

add_camera() {   # NAME [virtual-camera args]
	local name="$1"; shift
	rm -f "$DIR/$name.log"   # a replug reuses the name: never read the last instance's READY line
	spawn "$name" "$OCELLUS_CLI" virtual-camera --name "$name" --prop "$NO_SUSPEND" "$@"
	if ! wait_for 10 grep -q '^READY' "$DIR/$name.log"; then
		log "camera $name did not come up:"; cat "$DIR/$name.log" >&2; return 1
	fi
	grep '^READY' "$DIR/$name.log" | head -1
}

# Node checks for wait_for, which runs its command on every try: `wait_for 5 test -n "$(…)"`
# would look once, before the first try.
has_node() { [ -n "$(node_serial "$1")" ]; }
lacks_node() { ! has_node "$1"; }

# A microphone that is a process of its own (pw-cat feeding silence as an Audio/Source
# stream), so that `signal DIR NAME STOP` makes it deliver nothing without going away.
add_process_mic() {   # NAME [speech]
	local name="$1" raw="" source=/dev/zero
	# PipeWire 1.x's pw-cat reads stdin as a sound file unless told it is raw (0.3.65's has no flag).
	pw-cat --help 2>&1 | grep -q -- --raw && raw=--raw
	if [ "${2:-}" = speech ]; then
		# What a user's microphone hears: the speech alsa-utils ships, a pause, and a fan's pink
		# noise under it throughout, as raw stereo float, played again and again.
		local sound="$DIR/$name.f32" speech=/usr/share/sounds/alsa
		sox -m -v 1 "|sox $speech/Front_Center.wav $speech/Front_Left.wav $speech/Rear_Right.wav -p rate 48000 channels 2 pad 0 0.7" \
			-v 1 "|sox -n -p synth 6 pinknoise vol 0.05 rate 48000 channels 2" -t f32 -r 48000 -c 2 "$sound" trim 0 6 || return 1
		# The loop ends with pw-cat: cat then fails on the closed pipe.
		source="<(while cat '$sound'; do :; done)"
	fi
	# pw-cat is the process spawned (what remove-mic stops); a loop feeding it ends with it.
	spawn "$name" bash -c "exec pw-cat -p $raw --target 0 -P '{ media.class=Audio/Source node.name=$name node.description=$name session.suspend-timeout-seconds=0 }' --format f32 --rate 48000 --channels 2 - < $source"
	wait_for 10 has_node "$name" || { log "microphone $name did not come up:"; cat "$DIR/$name.log" >&2; return 1; }
}

# A camera shaped like a USB webcam under WirePlumber's V4L2 monitor: udev identity
# on a Video/Device object, the node carries api.v4l2.* and device.id.
add_usb_camera() {   # INDEX
	local i="$1" vdev=/dev/video$((40 + $1 * 2)) bus="pci-0000:00:14.0-usb-0:$(($1 + 1)):1.0"
	add_camera "vcam$i" --desc "Virtual Camera $i" \
		--prop device.api=v4l2 --prop api.v4l2.path=$vdev --prop object.path=v4l2:$vdev \
		--prop api.v4l2.cap.driver=uvcvideo --prop "api.v4l2.cap.card=Virtual Camera $i" \
		--prop api.v4l2.cap.bus_info=usb-0000:00:14.0-$((i + 1)) \
		--device-prop device.api=v4l2 --device-prop device.enum.api=udev \
		--device-prop "device.description=Virtual Camera $i" --device-prop api.v4l2.path=$vdev \
		--device-prop device.bus-path=$bus --device-prop device.bus=usb \
		--device-prop device.subsystem=video4linux --device-prop device.vendor.id=0x1d6b \
		--device-prop "device.vendor.name=Linux Foundation" --device-prop device.product.id=0x01$((10 + i)) \
		--device-prop "device.product.name=Virtual Camera $i" --device-prop device.serial=VCAM-000$i
}

# A microphone playing a 440 Hz tone at VOLUME (0–1 of full scale: microphones told apart by
# loudness), a process of Ocellus's own as the cameras are. PipeWire 0.3.65's in-daemon
# audiotestsrc, used before, stopped delivering to every later client once a few had ended.
add_mic() {   # NAME [VOLUME]
	local name="$1" volume="${2:-1}"
	rm -f "$DIR/$name.log"
	spawn "$name" "$OCELLUS_CLI" virtual-camera --microphone --name "$name" --desc "Virtual Microphone $name" \
		--prop "$NO_SUSPEND" --volume "$volume"
	if ! wait_for 10 grep -q '^READY' "$DIR/$name.log"; then
		log "microphone $name did not come up:"; cat "$DIR/$name.log" >&2; return 1
	fi
}

# WirePlumber's configuration for the series installed (0.4: Lua fragments; 0.5: SPA-JSON
# fragments, which 0.4's files would be rejected as), into $DIR/xdg-config.
wireplumber_config() {   # FLAVOUR PORTAL(0|1)
	local series
	series=$(wireplumber --version 2>/dev/null | sed -n 's/^Linked with libwireplumber \([0-9]*\.[0-9]*\).*/\1/p')
	[ -d "$WP_CONFIGS/$series" ] || { log "WirePlumber ${series:-(not found)} is not supported: the test bed has configurations for $(ls "$WP_CONFIGS" | tr '\n' ' ')"; return 1; }
	mkdir -p "$DIR/xdg-config"
	cp -r "$WP_CONFIGS/$series/$1/." "$DIR/xdg-config/"
	[ "$2" = 0 ] || cp -r "$WP_CONFIGS/$series/portal/." "$DIR/xdg-config/"
}

do_start() {
	local cams=2 mics=1 portal=0 flavour=headless
	DIR=""
	while [ $# -gt 0 ]; do
		case "$1" in
		--cameras) cams="$2"; shift ;;
		--mics) mics="$2"; shift ;;
		--dir) DIR="$2"; shift ;;
		--hardware) flavour=hardware ;;
		--portal) portal=1 ;;
		--) shift; break ;;
		*) log "unknown option $1"; return 2 ;;
		esac
		shift
	done
	REST=("$@")
	[ -x "$OCELLUS_CLI" ] || { log "no ocellus CLI at $OCELLUS_CLI (run make first)"; return 1; }
	[ -n "$DIR" ] || DIR=$(mktemp -d /tmp/ocellus-testbed.XXXXXX)
	mkdir -p "$DIR/state"; chmod 700 "$DIR"; : >"$DIR/pids"

	unset PIPEWIRE_REMOTE PIPEWIRE_CORE PIPEWIRE_NODE PIPEWIRE_PROPS PIPEWIRE_DEBUG \
	      PIPEWIRE_CONFIG_DIR PIPEWIRE_CONFIG_NAME PIPEWIRE_RUNTIME_DIR WIREPLUMBER_CONFIG_DIR
	export XDG_RUNTIME_DIR="$DIR"

	local conf="$CONF" t0; t0=$(now_ms)
	if [ "$portal" = 1 ]; then
		[ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || { log "--portal needs DBUS_SESSION_BUS_ADDRESS"; return 1; }
		# The same daemon and session manager, with the portal's access control on.
		conf="$DIR/pipewire-portal.conf"
		sed 's|^\(    { name = libpipewire-module-access.*\)$|\1\n    { name = libpipewire-module-portal }|' "$CONF" >"$conf"
	fi
	wireplumber_config "$flavour" "$portal" || return 1
	spawn pipewire pipewire -c "$conf"
	wait_for 5 test -S "$DIR/pipewire-0" || { log "pipewire did not start"; cat "$DIR/pipewire.log" >&2; return 1; }
	wait_for 5 pw-cli info 0 >/dev/null || return 1
	# WirePlumber reads only our fragments (via XDG_CONFIG_HOME), keeps its state private.
	spawn wireplumber env XDG_CONFIG_HOME="$DIR/xdg-config" XDG_STATE_HOME="$DIR/state" wireplumber
	wait_for 10 has_default_metadata || { log "wireplumber did not start"; cat "$DIR/wireplumber.log" >&2; return 1; }

	local i
	for ((i = 0; i < cams; i++)); do add_usb_camera "$i" >/dev/null || return 1; done
	for ((i = 0; i < mics; i++)); do add_mic "vmic$i" || return 1; done
	log "up in $(( $(now_ms) - t0 )) ms: $cams cameras, $mics microphones in $DIR"
	echo "export XDG_RUNTIME_DIR=$DIR"
	echo "export PIPEWIRE_REMOTE=$DIR/pipewire-0"
	echo "export OCELLUS_TESTBED_DIR=$DIR"
}

do_stop() {
	local dir="${1:-${OCELLUS_TESTBED_DIR:-}}" pid name start left end
	[ -n "$dir" ] && [ -f "$dir/pids" ] || { log "no test bed directory"; return 1; }
	tac "$dir/pids" | while read -r pid name start; do
		ours "$pid" "$start" && kill -TERM "$pid" 2>/dev/null
	done
	end=$(( $(now_ms) + 2000 ))
	while :; do
		left=0
		while read -r pid name start; do
			if ours "$pid" "$start" && [ "$(ps -o stat= -p "$pid" 2>/dev/null | cut -c1)" != Z ]; then left=1; fi
		done <"$dir/pids"
		[ $left = 0 ] && break
		if [ "$(now_ms)" -ge $end ]; then
			while read -r pid name start; do ours "$pid" "$start" && kill -KILL "$pid" 2>/dev/null; done <"$dir/pids"
			break
		fi
		sleep 0.01
	done
	rm -rf "$dir"
}

cmd="${1:-}"; shift || true
case "$cmd" in
start) do_start "$@" || exit 1 ;;
stop) do_stop "$@" ;;
run)
	PDEATH=1
	CHILD=""
	trap 'do_stop "$DIR" 2>/dev/null' EXIT
	# bash runs traps only between commands: start the test command in the background and wait.
	trap '[ -n "$CHILD" ] && kill -TERM "$CHILD" 2>/dev/null; exit 130' INT TERM
	do_start "$@" >/dev/null || exit 1
	export OCELLUS_TESTBED_DIR="$DIR" PIPEWIRE_REMOTE="$DIR/pipewire-0" OCELLUS_CLI
	[ ${#REST[@]} -gt 0 ] || REST=(true)
	setpriv --pdeathsig KILL "${REST[@]}" <&0 &
	CHILD=$!
	wait "$CHILD"
	status=$?
	# A daemon that died mid-run fails every later test for a reason none of them names (seen:
	# WirePlumber 0.4.13 segfaulting when an idle node it meant to suspend was destroyed).
	while read -r pid name start; do
		case "$name" in pipewire|wireplumber) ;; *) continue ;; esac
		ours "$pid" "$start" && continue
		log "$name exited during the run: tests after that failed for it (its log: $(tail -3 "$DIR/$name.log" 2>/dev/null | tr '\n' ' '); a crash shows in the kernel log)"
		status=1
	done <"$DIR/pids"
	exit $status
	;;
add-camera) DIR="$1"; shift; export XDG_RUNTIME_DIR="$DIR" PIPEWIRE_REMOTE="$DIR/pipewire-0"; add_camera "$@" ;;
add-mic) DIR="$1"; shift; export XDG_RUNTIME_DIR="$DIR" PIPEWIRE_REMOTE="$DIR/pipewire-0"; add_mic "$@" ;;
add-process-mic) DIR="$1"; shift; export XDG_RUNTIME_DIR="$DIR" PIPEWIRE_REMOTE="$DIR/pipewire-0"; add_process_mic "$@" ;;
remove-mic)
	# Unplugged once its node is gone (a process's node goes with the process).
	DIR="$1"; export XDG_RUNTIME_DIR="$DIR" PIPEWIRE_REMOTE="$DIR/pipewire-0"
	set -- "$2" $(awk -v n="$2" '$2==n{print $1, $3}' "$DIR/pids" | tail -1)
	ours "${2:-}" "${3:-}" && kill -TERM "$2"
	wait_for 5 lacks_node "$1"
	;;
remove-camera|signal)
	DIR="$1"; name="$2"; sig="${3:-TERM}"
	set -- $(awk -v n="$name" '$2==n{print $1, $3}' "$DIR/pids" | tail -1)
	ours "${1:-}" "${2:-}" && kill -"$sig" "$1"
	;;
*) sed -n '2,26p' "$0"; exit 2 ;;
esac
