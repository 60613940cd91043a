#!/bin/bash
# SPDX-License-Identifier: MIT
# bpftrace's own tools (Debian's /usr/sbin/*.bt), unchanged, under both
# tracers: launch to attached (the tool's BEGIN line, "... Hit Ctrl-C to
# end.", which both print once every probe is attached) and peak RSS then,
# medians of REPEAT runs. A tool that either tracer cannot run on this
# host (a kprobe here, a function a build lacks) is listed as skipped,
# with the reason of the one that stopped.
set -u
cd "$(dirname "$0")/.."
ST=$PWD/.output/sidetrace
TOOLS=${TOOLS:-/usr/sbin}
REPEAT=${REPEAT:-3}

mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing

. bench/common.sh

# Launch to the BEGIN line and peak RSS of one run; "" when it never came.
one() { # tool...
	bench/time_to_begin.py "Ctrl-C" "$@" 2>/dev/null
}

# One run of each tracer, interleaved, REPEAT times, each started cold
# (startup()'s reason): both see the host alike, whatever it does
# meanwhile. Prints each one's median seconds and KiB; fails if a run of
# the first (sidetrace) failed; "" for the second if one of its failed.
interleaved() { # tool
	local i a b st="" bt="" bt_ok=1
	for i in $(seq "$REPEAT"); do
		sleep 0.3
		a=$(one "$ST" "$1") || return 1
		st+="$a"$'\n'
		sleep 0.3
		if b=$(one bpftrace "$1"); then bt+="$b"$'\n'; else bt_ok=; fi
	done
	echo "$(cut -d' ' -f1 <<<"$st" | sed '/^$/d' | median)" \
		"$(cut -d' ' -f2 <<<"$st" | sed '/^$/d' | median)"
	if [ -n "$bt_ok" ]; then
		echo "$(cut -d' ' -f1 <<<"$bt" | sed '/^$/d' | median)" \
			"$(cut -d' ' -f2 <<<"$bt" | sed '/^$/d' | median)"
	else
		echo
	fi
}

printf '%-18s %10s %10s %9s %10s %10s %7s\n' tool "bpftrace s" "sidetr. s" speedup \
	"bpftr. KiB" "sidetr. KiB" memory
for t in "$TOOLS"/*.bt; do
	grep -q "Ctrl-C" "$t" || continue
	name=$(basename "$t" .bt)
	if ! out=$(interleaved "$t"); then
		why=$(timeout 5 "$ST" "$t" 2>&1 >/dev/null | grep -v '^sidetrace: warning' | head -1)
		printf '%-18s skipped: sidetrace: %s\n' "$name" "${why:0:100}"
		continue
	fi
	st=$(sed -n 1p <<<"$out")
	bt=$(sed -n 2p <<<"$out")
	if [ -z "$bt" ]; then
		printf '%-18s skipped: bpftrace does not run it here\n' "$name"
		continue
	fi
	read -r st_s st_kb <<<"$st"
	read -r bt_s bt_kb <<<"$bt"
	awk -v n="$name" -v a="$st_s" -v b="$bt_s" -v c="$st_kb" -v d="$bt_kb" 'BEGIN {
		printf "%-18s %10.4f %10.4f %8.1fx %10d %10d %7.3f\n", n, b, a, b / a, d, c, c / d }'
done
