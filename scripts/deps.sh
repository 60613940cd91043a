#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs the Debian packages sidetrace needs, only those missing; with
# arguments, those packages instead (bench/deps.sh).
set -e
[ $# -gt 0 ] && PKGS="$*" || PKGS="build-essential clang llvm libbpf-dev bpftool libelf-dev libdw-dev liblzma-dev libbz2-dev libcapstone-dev zlib1g-dev pkg-config
bats bpftrace systemtap-sdt-dev valgrind python3 binutils time bc jq
prometheus curl postgresql python3.11 g++ golang-go"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages:$missing; run 'make deps' as root" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
