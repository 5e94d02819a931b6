#!/bin/bash
# Man pages from the CLI's own help text, so they cannot drift from it: ocellus.1 from
# `ocellus --help`, and ocellus-COMMAND.1 from `ocellus COMMAND --help` for every command
# the help lists. Uses help2man (Debian's help2man).
#   scripts/man-pages.sh OCELLUS_BINARY OUTPUT_DIR VERSION
set -eu
BIN="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; OUT="$2"; VERSION="$3"
mkdir -p "$OUT"
WRAP="$(mktemp -d)"
trap 'rm -rf "$WRAP"' EXIT
page() {   # NAME SUMMARY PROGRAM
	help2man --no-info --no-discard-stderr --section 1 --version-string "$VERSION" \
		--name "$2" --output "$OUT/$1.1" "$3"
}
page ocellus "camera capture for Linux: list, choose, stream, photograph and record cameras" "$BIN"
"$BIN" --help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p; s/^  \([a-z][a-z-]*\)$/\1/p' | sort -u | while read -r command; do
	# The description's first line: after the usage on its own line, or the first indented one.
	summary="$("$BIN" "$command" --help | awk '
		NR == 1 { if (match($0, /   +[^ ].*$/)) { first = substr($0, RSTART); sub(/^ +/, "", first) } next }
		/^                    / && found == "" { found = $0; sub(/^ +/, "", found) }
		END { print (found != "" ? found : first) }')"
	printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$BIN" "$command" > "$WRAP/ocellus-$command"
	chmod +x "$WRAP/ocellus-$command"
	page "ocellus-$command" "${summary:-ocellus $command}" "$WRAP/ocellus-$command"
done
