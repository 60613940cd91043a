#!/bin/bash
# SPDX-License-Identifier: MIT
# Part 2: sidetrace against stock bpftrace, measured in the same run.
#  - start-up: launch to probes attached, i.e. to the line BEGIN prints
#    (both tools run BEGIN once every probe is attached), and peak RSS then;
#  - launch to exit of a one-shot session (BEGIN { exit(); }).
# Medians of REPEAT runs; ratios are sidetrace / bpftrace (lower is better).
set -eu
cd "$(dirname "$0")/.."
APP=$PWD/.output/examples/httpd_sim
ST=$PWD/.output/sidetrace
REPEAT=${REPEAT:-5}

mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug

. bench/common.sh

# Start-up of both tools on equivalent programs, and their ratio.
# bpftrace prints "Attaching" before attaching, so its marker is BEGIN's
# output; sidetrace prints "Attaching N probes..." once they are attached.
compare_startup() { # label bpftrace-program sidetrace-program
	local bt_s bt_kb st_s st_kb
	read -r bt_s bt_kb < <(startup attached-now bpftrace \
		-e "$2 BEGIN { printf(\"attached-now\\n\"); }")
	read -r st_s st_kb < <(startup Attaching "$ST" -e "$3")
	printf '  %s:\n' "$1"
	printf '  %-10s %8.3f s %8d KiB\n' bpftrace "$bt_s" "$bt_kb" sidetrace "$st_s" "$st_kb"
	awk -v a="$st_s" -v b="$bt_s" -v c="$st_kb" -v d="$bt_kb" 'BEGIN {
		printf "  sidetrace/bpftrace: time %.3f (%.1fx faster), memory %.3f\n", a / b, b / a, c / d }'
}

echo "start-up to attached (median of $REPEAT), and peak RSS"
compare_startup "@ = count()" \
	"usdt:$APP:http:request { @ = count(); }" \
	"side:$APP:http:request { @ = count(); }"
# A keyed histogram needs sidetrace_plain, a filter the generic program.
compare_startup "@[path] = hist(latency)" \
	"usdt:$APP:http:request { @[str(arg1)] = hist(arg3); }" \
	"side:$APP:http:request { @[args.path] = hist(args.latency_ns); }"
compare_startup "/status >= 500/ @[path] = count()" \
	"usdt:$APP:http:request /arg2 >= 500/ { @[str(arg1)] = count(); }" \
	"side:$APP:http:request /args.status >= 500/ { @[args.path] = count(); }"

echo
echo "launch to exit of a one-probe one-shot session, BEGIN { exit(); } (median of $((REPEAT * 2)), interleaved)"
bench/launch_to_exit.py $((REPEAT * 2)) \
	"bpftrace=[\"bpftrace\", \"-e\", \"usdt:$APP:http:request { @ = count(); } BEGIN { exit(); }\"]" \
	"sidetrace=[\"$ST\", \"-e\", \"side:$APP:http:request { @ = count(); } BEGIN { exit(); }\"]"

echo
echo "verifier steps of each program, loaded alone (machine-independent)"
mkdir -p .output/bench
cc -O2 -Wall -Wextra -Ibpf -I.output -o .output/bench/verifier_steps bench/verifier_steps.c -lbpf
.output/bench/verifier_steps

# Per-event cost: SET=aggr bench/stream.sh (interleaved rounds, the floor
# in each) and bench/prog_time.sh (the BPF programs' own run time).
