#!/bin/bash
# kernel-version.sh — the kernel release (6.1.0-57-amd64) the test guest boots: the one
# linux-image-amd64 depends on, whichever others are installed (never simply the newest).
set -euo pipefail
release=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null | sed -n 's/^linux-image-\([^ ,]*\).*/\1/p')
[ -n "$release" ] && [ -f "/boot/vmlinuz-$release" ] ||
	{ echo "kernel-version: no kernel from linux-image-amd64 (install it)" >&2; exit 1; }
echo "$release"
