#!/bin/bash
# SPDX-License-Identifier: MIT
# Part 4: sidetrace serve, the Prometheus exporter.
#  - scrape time and exporter memory with about 10,000 series (one count()
#    keyed by latency: httpd_sim draws nearly every latency once);
#  - CPU while idle: no events, no scrapes, for IDLE seconds;
#  - per-event cost on the traced program: the same program run by serve
#    and by the one-liner path (the same BPF program: the ratio is ~1).
# Medians of REPEAT runs.
set -eu
cd "$(dirname "$0")/.."
APP=$PWD/.output/examples/httpd_sim
ST=$PWD/.output/sidetrace
N=${N:-200000}
REPEAT=${REPEAT:-5}
IDLE=${IDLE:-10}
LOG=$(mktemp)
trap 'rm -f "$LOG"' EXIT

mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing

. bench/common.sh

# Starts serve on a free port with the program; sets PID and URL.
start_serve() { # program
	local i
	"$ST" serve --listen 127.0.0.1:0 -e "$1" > "$LOG" 2>&1 &
	PID=$!
	for i in $(seq 100); do
		URL=$(sed -n 's/^Serving .* at //p' "$LOG")
		[ -n "$URL" ] && return 0
		sleep 0.1
	done
	cat "$LOG" >&2
	exit 1
}

stop_serve() {
	kill -TERM "$PID"
	wait "$PID"
}

# CPU seconds (user + system) the process has used.
cpu_s() { # pid
	awk -v hz="$(getconf CLK_TCK)" '{ printf "%.3f\n", ($14 + $15) / hz }' "/proc/$1/stat"
}

echo "scrape of about 10,000 series (median of 20 scrapes)"
start_serve "side:$APP:http:request { @requests[args.latency_ns] = count(); }"
"$APP" -n 10000 -s 5 > /dev/null
series=$(curl -s "$URL" | grep -c '^sidetrace_requests_total{')
text=$(for i in $(seq 20); do curl -s -o /dev/null -w '%{time_total}\n' "$URL"; done | median)
om=$(for i in $(seq 20); do
	curl -s -o /dev/null -w '%{time_total}\n' -H 'Accept: application/openmetrics-text' "$URL"
done | median)
bytes=$(curl -s "$URL" | wc -c)
own=$(curl -s "$URL" | sed -n 's/^sidetrace_scrape_duration_seconds //p')
rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$PID/status")
hwm=$(awk '/^VmHWM/ { print $2 }' "/proc/$PID/status")
printf '  series %d, exposition %d bytes\n' "$series" "$bytes"
printf '  scrape (curl, end to end): text %.1f ms, OpenMetrics %.1f ms; serve measures %.1f ms\n' \
	"$(echo "$text * 1000" | bc -l)" "$(echo "$om * 1000" | bc -l)" "$(echo "$own * 1000" | bc -l)"
printf '  exporter RSS %d KiB, peak %d KiB\n' "$rss" "$hwm"
stop_serve

echo
echo "CPU while idle: no events, no scrapes, $IDLE s"
start_serve "side:$APP:http:request { @requests[args.path] = count(); @latency = hist(args.latency_ns); }"
sleep 1
c0=$(cpu_s "$PID")
sleep "$IDLE"
c1=$(cpu_s "$PID")
awk -v a="$c0" -v b="$c1" -v t="$IDLE" 'BEGIN {
	printf "  %.3f CPU s in %d s: %.2f%% of one CPU\n", b - a, t, (b - a) / t * 100 }'
stop_serve

echo
echo "per-event cost on the traced program, N=$N events (median of $REPEAT)"
prog="side:$APP:http:request { @[args.path] = hist(args.latency_ns); }"
serve_ns() {
	local i
	for i in $(seq "$REPEAT"); do
		"$@" 2>&1 | sed -n 's/.*elapsed_ns \([0-9]*\).*/\1/p'
	done | median
}
base=$(serve_ns "$APP" -n "$N" -t)
oneliner=$(serve_ns "$ST" -c "$APP -n $N -t" -e "$prog")
start_serve "$(sed 's/@\[/@by_path[/' <<< "$prog")"
served=$(serve_ns "$APP" -n "$N" -t)
stop_serve
awk -v o="$oneliner" -v s="$served" -v base="$base" -v n="$N" 'BEGIN {
	a = (o - base) / n; b = (s - base) / n
	printf "  one-liner %.1f ns, serve %.1f ns per event: ratio %.2f\n", a, b, b / a }'
