#!/bin/bash
# SPDX-License-Identifier: MIT
# Part 13: scale of attach. Generated binaries (bench/gen_scale.py,
# built here; their objects are kept in .output/bench):
# EVENTS x SITES call sites; the large one 1,000 events of 10 sites each,
# the small one a tenth of it, to see that costs grow linearly. Measured:
#  - `sidetrace list` (wall and CPU time) against `bpftrace -l`;
#  - launch to attached (bench/time_to_begin.py) and peak RSS, for one event
#    and for every event (side:BIN:gen:*), bpftrace on one event as peer;
#  - launch to exit of BEGIN { exit(); } on every event (the detach child);
#  - per-event cost of ev0's loop when ev0 alone or every event is traced,
#    the floor (empty bpftrace program on ev0) in the same rounds.
# Medians of REPEAT runs (rounds interleaved); SCALE_BPFTRACE_ALL=1 also
# times bpftrace attaching every site of the small binary (minutes).
set -eu
cd "$(dirname "$0")/.."
ST=$PWD/.output/sidetrace
B=$PWD/.output/bench
REPEAT=${REPEAT:-5}
N=${N:-200000}

mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing

# build NAME EVENTS SITES: the binary $B/NAME; a generated file whose text
# and inputs did not change keeps its object (the large one takes minutes).
build() {
	local bin=$B/$1 dir=$B/$1.src f newest todo=()
	newest=$(ls -t include/side/*.h include/side/abi/*.h | head -1)
	mkdir -p "$dir" "$dir.new"
	bench/gen_scale.py "$2" "$3" 8 "$dir.new"
	for f in "$dir.new"/*.c; do
		f=$(basename "$f")
		if cmp -s "$dir.new/$f" "$dir/$f" && [ "$dir/$f.o" -nt "$newest" ]; then
			continue
		fi
		cp "$dir.new/$f" "$dir/$f"
		todo+=("$dir/$f")
	done
	rm -rf "$dir.new"
	if [ ${#todo[@]} -gt 0 ]; then
		echo "  building $1: $2 events x $3 sites, ${#todo[@]} files (minutes for the large one)"
		# -O1: -O2 merges a switch's identical call sites into one.
		printf '%s\n' "${todo[@]}" | xargs -P "$(nproc)" -I{} cc -O1 -g0 -Iinclude -c {} -o {}.o
	fi
	cc "$dir"/*.o .output/libside.a -lpthread -o "$bin"
}

mkdir -p "$B"
build scale_small 100 10
build scale_large 1000 10
SMALL=$B/scale_small
LARGE=$B/scale_large

. bench/common.sh

# wall_cpu CMD...: "wall_ms cpu_ms" medians of REPEAT runs, output discarded.
wall_cpu() {
	python3 - "$REPEAT" "$@" <<'PY'
import os, statistics, subprocess, sys, time
n, cmd = int(sys.argv[1]), sys.argv[2:]
wall, cpu = [], []
for _ in range(n):
    time.sleep(0.3)
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    wall.append(time.monotonic() - t0)
    cpu.append(ru.ru_utime + ru.ru_stime)
print(f"{statistics.median(wall) * 1000:.1f} {statistics.median(cpu) * 1000:.1f}")
PY
}

sites() { "$ST" list -v "$1" | grep -c 'site 0x' || true; }
echo "binaries: $(basename "$SMALL") $(sites "$SMALL") sites, $(basename "$LARGE") $(sites "$LARGE") sites"

echo
echo "list (median of $REPEAT; wall / CPU ms)"
for bin in "$SMALL" "$LARGE"; do
	read -r sw sc < <(wall_cpu "$ST" list "$bin")
	read -r bw bc < <(wall_cpu bpftrace -l "usdt:$bin:*")
	printf '  %-12s sidetrace list %7.1f / %7.1f   bpftrace -l %7.1f / %7.1f   ratio %.3f\n' \
		"$(basename "$bin")" "$sw" "$sc" "$bw" "$bc" "$(echo "$sw / $bw" | bc -l)"
done

echo
echo "launch to attached and peak RSS (median of $REPEAT)"
startup() { # marker command...
	local i runs
	runs=$(for i in $(seq "$REPEAT"); do sleep 0.3; bench/time_to_begin.py "$@"; done)
	echo "$(cut -d' ' -f1 <<<"$runs" | median) $(cut -d' ' -f2 <<<"$runs" | median)"
}
for bin in "$SMALL" "$LARGE"; do
	read -r s1 k1 < <(startup Attaching "$ST" -e "side:$bin:gen:ev0 { @ = count(); }")
	read -r sa ka < <(startup Attaching "$ST" -e "side:$bin:gen:* { @[args.name] = count(); }")
	read -r b1 bk1 < <(startup attached-now bpftrace -e "usdt:$bin:gen:ev0 { @ = count(); }
		BEGIN { printf(\"attached-now\\n\"); }")
	printf '  %-12s one event %6.1f ms %6d KiB   every event %6.1f ms %6d KiB   bpftrace one event %6.1f ms %6d KiB\n' \
		"$(basename "$bin")" "$(echo "$s1 * 1000" | bc -l)" "$k1" "$(echo "$sa * 1000" | bc -l)" "$ka" \
		"$(echo "$b1 * 1000" | bc -l)" "$bk1"
done
if [ -n "${SCALE_BPFTRACE_ALL:-}" ]; then
	t0=$(date +%s%N)
	BPFTRACE_MAX_PROBES=100000 bpftrace -e "usdt:$SMALL:gen:* { @ = count(); } BEGIN { exit(); }" \
		>/dev/null 2>&1
	echo "  bpftrace, every site of $(basename "$SMALL"), launch to exit: $((($(date +%s%N) - t0) / 1000000)) ms"
fi

echo
echo "launch to exit, BEGIN { exit(); } on every event of $(basename "$LARGE") (wall / CPU ms)"
read -r w c < <(wall_cpu "$ST" -e "side:$LARGE:gen:* { @[args.name] = count(); } BEGIN { exit(); }")
printf '  %.1f / %.1f\n' "$w" "$c"

echo
echo "per-event cost of ev0's loop, N=$N (median of $REPEAT interleaved rounds, ns/event added;"
echo "CPU: the loop thread's CPU time, uprobes included, which other tenants do not inflate)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# "elapsed_ns cpu_ns" of the loop.
loop() { "$@" 2>&1 >/dev/null | sed -n 's/^\(elapsed\|cpu\)_ns \([0-9]*\)$/\2/p' | paste -sd' '; }
for r in $(seq "$REPEAT"); do
	for v in untraced floor one all; do
		sleep 0.3
		case $v in
		untraced) t=$(loop "$LARGE" "$N") ;;
		floor) t=$(loop bpftrace -c "$LARGE $N" -e "usdt:$LARGE:gen:ev0 { }") ;;
		one) t=$(loop "$ST" -c "$LARGE $N" -e "side:$LARGE:gen:ev0 { @ = count(); }") ;;
		all) t=$(loop "$ST" -c "$LARGE $N" -e "side:$LARGE:gen:* { @ = count(); }") ;;
		esac
		echo "$v $r $t" >>"$tmp/res"
	done
done
awk -v n="$N" -v rounds="$REPEAT" "$(cat bench/median.awk)"'
{ w[$1, $2] = $3; c[$1, $2] = $4 }
function added(t, v,    r, x) {
	for (r = 1; r <= rounds; r++) x[r] = (t[v, r] - t["untraced", r]) / n
	return med(x, rounds)
}
function ratio(t,    r, x) {
	for (r = 1; r <= rounds; r++)
		x[r] = (t["all", r] - t["untraced", r]) / (t["one", r] - t["untraced", r])
	return med(x, rounds)
}
END {
	printf "  %-42s %8s %8s\n", "", "CPU", "wall"
	printf "  %-42s %8.0f %8.0f\n", "floor: bpftrace usdt:...:gen:ev0 { }", added(c, "floor"), added(w, "floor")
	printf "  %-42s %8.0f %8.0f\n", "sidetrace @ = count(), ev0 alone (10 sites)", added(c, "one"), added(w, "one")
	printf "  %-42s %8.0f %8.0f\n", "sidetrace @ = count(), every event (10,000)", added(c, "all"), added(w, "all")
	printf "  every event / ev0 alone (median of per-round ratios): CPU %.2f, wall %.2f\n", ratio(c), ratio(w)
}' "$tmp/res"
