#!/bin/bash
# SPDX-License-Identifier: MIT
# Part 8: what each probe-site design costs per event, untraced and traced
# by sidetrace (@ = count(), system-wide), in the parent and in a child it
# forks after its loop (the child's site was optimized in the parent):
#  nop5   the default, 0f 1f 44 00 00: kernels from 6.18 optimize it into a
#         call (the runtime repairs it in a forked child)
#  nop1   0x90, <sys/sdt.h>'s: always the int3 trap
#  nop11  0x90 + a 10-byte nop, libbpf/usdt.h's newest convention
# N events a run, ROUNDS interleaved rounds, medians in ns per event, and
# each design's traced cost as a ratio of nop5's in the same rounds.
set -eu
cd "$(dirname "$0")/.."
ST=$PWD/.output/sidetrace
B=$PWD/.output/bench/sites
N=${N:-200000}
ROUNDS=${ROUNDS:-5}
mkdir -p "$B"
declare -A BYTES=(
	[nop5]=""
	[nop1]="0x90"
	[nop11]="0x90,0x66,0x2e,0x0f,0x1f,0x84,0x00,0x00,0x00,0x00,0x00"
)
DESIGNS="nop5 nop1 nop11"
for d in $DESIGNS; do
	cc -O2 -Iinclude ${BYTES[$d]:+"-DSIDE_PROBE_INSN_BYTES=${BYTES[$d]}"} bench/site_app.c \
		-o "$B/$d" .output/libside.a -lpthread
done

res=$(mktemp)
trap 'rm -f "$res"' EXIT
for r in $(seq "$ROUNDS"); do
	for d in $DESIGNS; do
		"$B/$d" "$N" fork | sed "s/^/$d untraced /" >> "$res"
		"$ST" -e "side:$B/$d:bench:site { @ = count(); }" > "$B/st.txt" 2>&1 &
		st=$!
		for _ in $(seq 200); do
			grep -q '^Attaching' "$B/st.txt" && break
			sleep 0.05
		done
		"$B/$d" "$N" fork | sed "s/^/$d traced /" >> "$res"
		kill -INT $st
		wait $st || true
	done
done
awk -f bench/median.awk -v designs="$DESIGNS" -f /dev/stdin "$res" <<'AWK'
{ k = $1 " " $2 " " $3; v[k, ++n[k]] = $4 }
END {
	split(designs, ds, " ")
	split("untraced parent|traced parent|untraced child|traced child", ks, "|")
	printf "%-6s %10s %10s %10s %10s %12s\n", "design", "untraced", "traced", "child_untr", "child_tr", "traced/nop5"
	for (i = 1; i in ds; i++) {
		d = ds[i]
		for (j = 1; j <= 4; j++) {
			k = d " " ks[j]; delete a
			for (m = 1; m <= n[k]; m++) a[m] = v[k, m]
			f[d, j] = med(a, n[k])
		}
	}
	for (i = 1; i in ds; i++) {
		d = ds[i]
		printf "%-6s %10.1f %10.1f %10.1f %10.1f %11.2fx\n", d, f[d, 1], f[d, 2], f[d, 3], f[d, 4], f[d, 2] / f["nop5", 2]
	}
}
AWK
