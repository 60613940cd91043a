#!/bin/bash
# SPDX-License-Identifier: MIT
# Kernel probes against stock bpftrace, same run.
#  - the BPF programs' run time per event (kernel.bpf_stats_enabled) of a
#    tracepoint clause, and of the request-attribution program (side:/usdt:
#    begin and end, a write(2) tracepoint reading the map they set), while
#    tests/fixtures/req_writes makes N requests on 4 threads;
#  - launch to attached (BEGIN's line) and peak RSS then, for a tracepoint.
# Medians of ROUNDS interleaved rounds [min-max]; ratios are sidetrace /
# bpftrace (lower is better).
set -eu
cd "$(dirname "$0")/.."
. bench/common.sh
ST=$PWD/.output/sidetrace
RW=$PWD/.output/bench/req_writes
N=${N:-20000}
ROUNDS=${ROUNDS:-5}
REPEAT=${REPEAT:-5}
mkdir -p "$(dirname "$RW")"
cc -O2 -Wall -Iinclude -o "$RW" tests/fixtures/req_writes.c .output/libside.a -lpthread
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing

W=tracepoint:syscalls:sys_enter_write
# label|sidetrace|bpftrace
cases=(
	"tracepoint @[comm] = count()|$W { @[comm] = count(); }|$W { @[comm] = count(); }"
	"tracepoint @[fd] = sum(count)|$W { @[args.fd] = sum(args.count); }|$W { @[args->fd] = sum(args->count); }"
	"side/usdt + tracepoint, bytes by path|side:$RW:rq:begin { @path[tid] = args.path; } $W /@path[tid] != \"\"/ { @b[@path[tid]] = sum(args.count); } side:$RW:rq:end { delete(@path[tid]); }|usdt:$RW:rq:begin { @path[tid] = str(arg0); } $W /@path[tid] != \"\"/ { @b[@path[tid]] = sum(args->count); } usdt:$RW:rq:end { delete(@path[tid]); }"
)
bpf_stats_on
# Programs that ran for the workload's events (the begin/end uprobes: 4 N each).
MIN_RUNS=$N
prog_time_table 40 "$RW" "$N"

echo
echo "Launch to attached and peak RSS, median of $REPEAT"
s=$(startup Attaching "$ST" -e "$W { @[comm] = count(); }")
b=$(startup go bpftrace -e "$W { @[comm] = count(); } BEGIN { printf(\"go\\n\"); }")
awk -v s="$s" -v b="$b" 'BEGIN { split(s, x, " "); split(b, y, " ")
	printf "  %-40s %8.1f ms %8.1f ms %6.2fx %8d KiB %8d KiB %6.2fx\n", "tracepoint @[comm] = count()",
		x[1] * 1000, y[1] * 1000, x[1] / y[1], x[2], y[2], x[2] / y[2] }'

# Profiling's cost to the profiled: its program's run time per sample
# (bpf_stats) while a CPU-bound program runs (hot_app -n), and what that
# is of a CPU's time at 99 and 999 Hz. Wall times of the profiled program
# vary here by more than the cost (one run: 1.39 to 1.89 s alone).
HOT=$PWD/.output/bench/hot_app
cc -O0 -g -o "$HOT" tests/fixtures/hot_app.c
HOT_N=${HOT_N:-1000}
profile_ns() { # marker hz tracer...
	local pid i marker=$1 hz=$2
	shift 2
	"$@" >"$tmp/pout" 2>&1 &
	pid=$!
	for i in $(seq 200); do grep -q "$marker" "$tmp/pout" && break; sleep 0.05; done
	"$HOT" -n "$HOT_N"
	prog_ns "$pid" "$hz"
	kill -INT "$pid" 2>/dev/null
	for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" || true
}
: >"$tmp/hot"
for r in $(seq "$ROUNDS"); do
	for hz in 99 999; do
		s=$(profile_ns '^Attaching' "$hz" "$ST" -e "profile:hz:$hz { @[ustack] = count(); }")
		b=$(profile_ns '^go$' "$hz" bpftrace -e "profile:hz:$hz { @[ustack] = count(); } BEGIN { printf(\"go\\n\"); }")
		echo "$hz $s $b" >>"$tmp/hot"
	done
done
echo
echo "Profiling: program run time per sample, @[ustack] = count(), median of $ROUNDS [min-max], ns; share of a CPU"
for hz in 99 999; do
	awk -v hz="$hz" "$(cat bench/median.awk)"'
	$1 == hz { k++; s[k] = $2; b[k] = $3; q[k] = $2 / $3
		if (k == 1 || $2 < smin) smin = $2; if (k == 1 || $2 > smax) smax = $2
		if (k == 1 || $3 < bmin) bmin = $3; if (k == 1 || $3 > bmax) bmax = $3 }
	END { ms = med(s, k); mb = med(b, k)
		printf "  profile:hz:%-4d sidetrace %5.0f [%4.0f-%4.0f] (%.3f%%)  bpftrace %5.0f [%4.0f-%4.0f] (%.3f%%)  ratio %.2f\n",
			hz, ms, smin, smax, ms * hz / 1e7, mb, bmin, bmax, mb * hz / 1e7, med(q, k) }' "$tmp/hot"
done
