#!/bin/bash
# SPDX-License-Identifier: MIT
# Part 1: instructions and data writes per disabled call site, counted by
# callgrind (deterministic), for gcc and clang builds of the same loops.
set -eu
cd "$(dirname "$0")/.."
N=1000000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "disabled call site cost: extra per iteration vs the same loop uninstrumented"
printf '%-6s %-28s %12s %12s\n' cc variant "instr/call" "writes/call"
for cc in gcc clang; do
	$cc -O2 -g -Iinclude bench/disabled_cost.c .output/libside.a -lpthread -o "$tmp/dc_$cc"
	valgrind --tool=callgrind --cache-sim=yes --callgrind-out-file="$tmp/cg_$cc" \
		"$tmp/dc_$cc" $N >/dev/null 2>&1
	callgrind_annotate "$tmp/cg_$cc" 2>/dev/null |
		awk -v n=$N -v cc=$cc '
		/:loop_(plain|side|sdt) / {
			# Drop the "( 0.00%)" columns, whose inner space splits fields.
			gsub(/\( *[0-9.]+%\)/, ""); gsub(",", "")
			name = $0; sub(/.*:loop_/, "", name); sub(/ .*/, "", name)
			ir[name] = $1; dw[name] = $3
		}
		END {
			printf "%-6s %-28s %12.2f %12.2f\n", cc, "side_event (disabled)",
				(ir["side"] - ir["plain"]) / n, (dw["side"] - dw["plain"]) / n
			printf "%-6s %-28s %12.2f %12.2f\n", cc, "sys/sdt.h + semaphore",
				(ir["sdt"] - ir["plain"]) / n, (dw["sdt"] - dw["plain"]) / n
		}'
done
