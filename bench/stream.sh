#!/bin/bash
# SPDX-License-Identifier: MIT
# Part 3: per-event output. One thread emits N events of four
# fields (string, u32, u64, s32) at full speed (bench/stream_app.c); each
# tracer prints or records every event, and we measure:
#  - the added cost per event: (traced - untraced) time of the emitting
#    loop, divided by N (the loop's own clock, so start-up is left out);
#  - delivered (lines in the output file, events in the LTTng trace) and
#    lost (N - delivered; sidetrace's own count is checked against it).
# Tools: sidetrace printf (and print(args) where the build accepts it) to a
# file with the default buffer; stock bpftrace's printf to a file; LTTng-UST
# recording the same event (bench/stream_lttng.c; default channel, and one
# of 16 MiB per CPU as sidetrace's default buffer holds 16 MiB); the
# floor, an empty bpftrace handler on the same probe. ROUNDS interleaved
# rounds; medians, [min-max] across rounds; ratios from the same run.
#
# SET=aggr measures aggregation instead: sidetrace and bpftrace
# on count(), hist(), a string key, a string and an integer key, hist by a
# string key, with the floor and the untraced loop in every round; the
# cost is the loop thread's CPU time (uprobes included, other tenants'
# time not), reported above the floor with its spread across rounds.
set -eu
cd "$(dirname "$0")/.."
ST=$PWD/.output/sidetrace
B=$PWD/.output/bench
APP=$B/stream_app
LAPP=$B/stream_lttng
N=${N:-1000000}
ROUNDS=${ROUNDS:-5}
SET=${SET:-stream}
FMT='"%s %u %lu %d\n"'

# The programs of the st_* and bt_* variants, on the same probe.
P="side:$APP:bench:op"
U="usdt:$APP:bench:op"
declare -A PROG=(
	[st_count]="$P { @ = count(); }"
	[bt_count]="$U { @ = count(); }"
	[st_printf]="$P { printf($FMT, args.name, args.seq, args.value, args.delta); }"
	[bt_printf]="$U { printf($FMT, str(arg0), arg1, arg2, (int32)arg3); }"
	[st_print]="$P { print(args); }"
	[st_hist]="$P { @ = hist(args.value); }"
	[bt_hist]="$U { @ = hist(arg2); }"
	[st_key]="$P { @[args.name] = count(); }"
	[bt_key]="$U { @[str(arg0)] = count(); }"
	[st_key2]="$P { @[args.name, cpu] = count(); }"
	[bt_key2]="$U { @[str(arg0), cpu] = count(); }"
	[st_khist]="$P { @[args.name] = hist(args.value); }"
	[bt_khist]="$U { @[str(arg0)] = hist(arg2); }"
)

mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug

mkdir -p "$B"
cc -O2 -g -Wall -Wextra -Iinclude -o "$APP" bench/stream_app.c .output/libside.a -lpthread
lttng=
if command -v lttng >/dev/null && command -v babeltrace2 >/dev/null &&
	cc -O2 -g -Wall -Wextra -Ibench -o "$LAPP" bench/stream_lttng.c -llttng-ust -ldl 2>/dev/null; then
	lttng=yes
fi

tmp=$(mktemp -d)
sessiond=
cleanup() {
	if [ -n "$sessiond" ]; then
		kill "$sessiond" 2>/dev/null || true
		wait "$sessiond" 2>/dev/null || true
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
if [ -n "$lttng" ] && [ "$SET" != aggr ] && ! lttng list >/dev/null 2>&1; then
	lttng-sessiond --no-kernel --quiet &
	sessiond=$!
	for _ in $(seq 50); do lttng list >/dev/null 2>&1 && break; sleep 0.1; done
fi

# print(args) may not be in this build yet: try it on a few events.
PRINT_ARGS=
if "$ST" -o "$tmp/probe" -c "$APP 3" -e "side:$APP:bench:op { print(args); }" \
	>"$tmp/probe.err" 2>&1; then
	PRINT_ARGS=yes
else
	print_args_err=$(grep -m1 -i error "$tmp/probe.err" || head -1 "$tmp/probe.err")
fi

now_ns() { date +%s%N; }
loop_ns() { sed -n 's/^elapsed_ns \([0-9]*\)$/\1/p' "$1"; }
cpu_ns() { sed -n 's/^cpu_ns \([0-9]*\)$/\1/p' "$1"; }
# Events in a tracer's output file: every line but the tools' own.
lines() { grep -cv -e '^Attaching ' -e '^$' -e '^Lost ' "$1" || true; }

# One run of variant $1; appends "variant round loop_ns delivered
# reported_lost wall_ns cpu_ns" to $tmp/res.
run() { # variant round
	local v=$1 r=$2 out=$tmp/out err=$tmp/err t0 t1 del=- lost=0
	rm -rf "$out" "$err"
	sleep 0.3
	t0=$(now_ns)
	case $v in
	untraced) "$APP" "$N" 2>"$err" ;;
	untraced_lttng) "$LAPP" "$N" 2>"$err" ;;
	floor) bpftrace -o "$out" -c "$APP $N" -e "usdt:$APP:bench:op { }" >/dev/null 2>"$err" ;;
	st_*) "$ST" -o "$out" -c "$APP $N" -e "${PROG[$v]}" 2>"$err" ;;
	bt_*) bpftrace -o "$out" -c "$APP $N" -e "${PROG[$v]}" >/dev/null 2>"$err" ;;
	lttng | lttng16)
		local s=sidetrace-bench-$$-$r ch=()
		lttng create "$s" --output="$out" >/dev/null
		if [ "$v" = lttng16 ]; then
			lttng enable-channel -u --subbuf-size=2M --num-subbuf=8 big >/dev/null
			ch=(-c big)
		fi
		lttng enable-event -u "${ch[@]}" bench:op >/dev/null
		lttng start >/dev/null
		t0=$(now_ns)
		"$LAPP" "$N" 2>"$err"
		lttng stop "$s" >"$tmp/stop" 2>&1
		lttng destroy "$s" >/dev/null
		;;
	esac
	t1=$(now_ns)
	case $v in
	st_printf | st_print | bt_printf)
		del=$(lines "$out")
		lost=$(sed -n -e 's/^sidetrace: \([0-9]*\) events not printed.*/\1/p' \
			-e 's/^Lost \([0-9]*\) events.*/\1/p' "$err" "$out" |
			awk '{ s += $1 } END { print s + 0 }')
		;;
	lttng | lttng16)
		lost=$(sed -n 's/.* \([0-9]*\) events were discarded.*/\1/p' "$tmp/stop")
		del=$(babeltrace2 --component=sink.utils.counter "$out" 2>/dev/null |
			sed -n 's/^ *\([0-9]*\) Event messages*$/\1/p' | tail -1)
		;;
	esac
	echo "$v $r $(loop_ns "$err") ${del:-0} ${lost:-0} $((t1 - t0)) $(cpu_ns "$err")" >>"$tmp/res"
}

if [ "$SET" = aggr ]; then
	variants="untraced floor st_count bt_count st_hist bt_hist st_key bt_key st_key2 bt_key2"
	variants="$variants st_khist bt_khist"
else
	variants="untraced floor st_count st_printf"
	[ -n "$PRINT_ARGS" ] && variants="$variants st_print"
	variants="$variants bt_printf"
	[ -n "$lttng" ] && variants="$variants untraced_lttng lttng lttng16"
fi
for r in $(seq "$ROUNDS"); do
	for v in $variants; do run "$v" "$r"; done
done
if [ -n "${STREAM_RAW:-}" ]; then cp "$tmp/res" "$STREAM_RAW"; fi
if [ "$SET" = aggr ]; then
	awk -f bench/median.awk -f bench/aggr_report.awk -v n="$N" -v rounds="$ROUNDS" "$tmp/res"
	exit 0
fi

echo "streaming $N events (string, u32, u64, s32) from one thread at full speed;"
echo "median of $ROUNDS interleaved rounds [min-max]; added = (traced - untraced loop time) / N"
awk -v n="$N" -v rounds="$ROUNDS" -v pa="$PRINT_ARGS" -v lt="$lttng" \
	-v pa_err="${print_args_err:-}" "$(cat bench/median.awk)"'
{ loop[$1, $2] = $3; del[$1, $2] = $4; rep[$1, $2] = $5; wall[$1, $2] = $6; seen[$1] = 1 }
# Per-event added cost of variant v in round r, against its own app untraced
# in the same round.
function added(v, r) { return (loop[v, r] - loop[(v ~ /^lttng/ ? "untraced_lttng" : "untraced"), r]) / n }
function stat(v,    r, x, lo, hi) {
	for (r = 1; r <= rounds; r++) {
		x[r] = added(v, r)
		if (r == 1 || x[r] < lo) lo = x[r]
		if (r == 1 || x[r] > hi) hi = x[r]
	}
	M[v] = med(x, rounds); LO[v] = lo; HI[v] = hi
}
function ratio(a, b, label, goal,    r, x, lo, hi) {
	for (r = 1; r <= rounds; r++) {
		x[r] = added(a, r) / added(b, r)
		if (r == 1 || x[r] < lo) lo = x[r]
		if (r == 1 || x[r] > hi) hi = x[r]
	}
	printf "  %-44s %7.3f [%.3f-%.3f]%s\n", label, M[a] / M[b], lo, hi, goal
}
function row(v, label,    r, x, dmin, lmax, rmax, w, loss) {
	stat(v)
	dmin = -1; lmax = 0; rmax = 0
	for (r = 1; r <= rounds; r++) {
		w[r] = wall[v, r] / 1e9
		if (del[v, r] != "-" && (dmin < 0 || del[v, r] < dmin)) dmin = del[v, r]
		if (n - del[v, r] > lmax) lmax = n - del[v, r]
		if (rep[v, r] > rmax) rmax = rep[v, r]
	}
	if (v ~ /printf|print$|lttng/)
		loss = sprintf("%9d %7d %7d", dmin, lmax, rmax)
	else
		loss = sprintf("%9s %7s %7s", "-", "-", "-")
	printf "  %-40s %7.0f [%5.0f-%5.0f] %s %8.2f\n", label, M[v], LO[v], HI[v], loss, med(w, rounds)
}
END {
	for (r = 1; r <= rounds; r++) { u[r] = loop["untraced", r] / n; ul[r] = loop["untraced_lttng", r] / n }
	printf "  untraced loop: SIDE app %.1f ns/event", med(u, rounds)
	if (lt) printf ", LTTng app %.1f ns/event", med(ul, rounds)
	printf "\n\n  %-40s %21s %9s %7s %7s %8s\n", "", "added ns/event", "delivered", "lost", "counted", "wall s"
	printf "  %-40s %21s %9s %7s %7s %8s\n", "", "", "(min)", "(max)", "(max)", "(median)"
	row("floor", "floor: bpftrace usdt { }")
	row("st_count", "sidetrace @ = count()")
	row("st_printf", "sidetrace printf -o FILE")
	if (pa) row("st_print", "sidetrace print(args) -o FILE")
	row("bt_printf", "bpftrace printf -o FILE")
	if (lt) row("lttng", "LTTng-UST, default channel (2 MiB/CPU)")
	if (lt) row("lttng16", "LTTng-UST, 16 MiB/CPU channel")
	if (!pa) printf "  sidetrace print(args): skipped, not accepted by this build (%s)\n", pa_err
	if (!lt) printf "  LTTng-UST: skipped, lttng, babeltrace2 or liblttng-ust-dev missing\n"
	printf "\n  ratios of added cost (median of rounds, [min-max] of per-round ratios)\n"
	ratio("st_printf", "bt_printf", "sidetrace printf / bpftrace printf", "  goal <= 0.15")
	if (pa) ratio("st_print", "bt_printf", "sidetrace print(args) / bpftrace printf", "  goal <= 0.15")
	if (lt) ratio("st_printf", "lttng", "sidetrace printf / LTTng-UST default", "")
	ratio("st_printf", "floor", "sidetrace printf / floor", "")
	printf "  %-44s %7.0f ns\n", "sidetrace printf - floor (medians)", M["st_printf"] - M["floor"]
	printf "  %-44s %7.0f ns\n", "sidetrace printf - sidetrace count() (medians)", M["st_printf"] - M["st_count"]
	lost = 0
	for (r = 1; r <= rounds; r++) lost += n - del["st_printf", r]
	printf "\n  goals: 0 lost with the default buffer into a file: %s (%d lost in %d rounds)\n",
		lost ? "no" : "yes", lost, rounds
	printf "                   at most about 1 us added per event: %s (%.0f ns, of which the floor %.0f)\n",
		M["st_printf"] <= 1000 ? "yes" : "no", M["st_printf"], M["floor"]
	printf "                   sidetrace/bpftrace <= 0.15: %s\n",
		M["st_printf"] / M["bt_printf"] <= 0.15 ? "yes" : "no"
}' "$tmp/res"
