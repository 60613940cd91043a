#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian packages only the benchmarks need (LTTng-UST, the
# peer of bench/stream.sh), those missing.
set -eu
PKGS="liblttng-ust-dev lttng-tools babeltrace2"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "bench deps: missing packages:$missing; run 'make bench' as root" >&2
	exit 1
fi
echo "bench deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
