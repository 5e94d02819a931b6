#!/bin/bash
# The Debian packages of the FFmpeg libraries a build loads, from the majors of the headers it is
# built with (what Sources/CLibAV/loader.c opens): "libavcodec59, libavformat59, libavutil57" on
# Debian 12. debian/rules puts them in libocellus0's Recommends.
set -euo pipefail
printf '#include <libavcodec/version.h>\n#include <libavformat/version.h>\n#include <libavutil/version.h>\n'\
'codec LIBAVCODEC_VERSION_MAJOR\nformat LIBAVFORMAT_VERSION_MAJOR\nutil LIBAVUTIL_VERSION_MAJOR\n' \
	| ${CC:-cc} -E -P $(pkg-config --cflags libavcodec libavformat libavutil) - \
	| awk '$1 ~ /^(codec|format|util)$/ { names[n++] = "libav" $1 $2 } END { printf "%s, %s, %s\n", names[0], names[1], names[2] }'
