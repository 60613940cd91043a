#!/bin/bash
# SPDX-License-Identifier: MIT
# make demo: list the example's events, then trace it with one-liners.
set -eu
cd "$(dirname "$0")/.."
OUT=.output
APP=$OUT/examples/httpd_sim

if [ "$(id -u)" != 0 ]; then
	echo "demo: tracing needs root (CAP_BPF and CAP_PERFMON)" >&2
	exit 1
fi
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf

# Shows the command as one would type it (words with spaces in quotes), then runs it.
run() {
	local w line="$"
	for w in "$@"; do
		case "$w" in *[[:space:]]*) line+=" '$w'" ;; *) line+=" $w" ;; esac
	done
	printf '\n%s\n' "$line"
	"$@"
}

run $OUT/sidetrace list $APP
run $OUT/sidetrace -c "$APP -n 20000" -e \
	"side:$APP:http:request { @latency_ns = hist(args.latency_ns); @by_path[args.path] = count(); }"
run $OUT/sidetrace -c "$APP -n 20000" -e \
	"side:$APP:http:request /args.status >= 500/ { @errors[args.method, args.status] = count(); }"
# The latency between two events of one request, begun and ended on two threads.
REQ=$OUT/examples/request_pairs
run $OUT/sidetrace -c "$REQ -n 2000" -e \
	"side:$REQ:req:begin { @start[args.id] = nsecs; } side:$REQ:req:end /@start[args.id]/ { @lat_us[args.path] = hist((nsecs - @start[args.id]) / 1000); delete(@start[args.id]); }"
