#!/bin/bash
# SPDX-License-Identifier: MIT
# The in-process tracer path: ns per event with one empty callback
# registered (bench/stream_app.c "callback": the four-field event, the
# argument vector built, side_call() and its RCU section), sidetrace's
# in-process engine (--in-process: @[args.name] = count(), and a printf of
# the four fields to a file, a quarter of the events, every record kept,
# losses said), the same count on the kernel path (a uprobe
# per event), and LTTng-UST recording the same event (bench/stream_lttng.c,
# default channel). Then each state a process can be in under an
# --in-process session against the kernel path in the same rounds: served
# (-p, -c, and the child of a -c wrapper, sh -c), and not served (an
# --in-process session of every process, the program run with
# SIDE_INPROC=0: what a process costs before it is found, a child forked
# by a served one until it is, or one without the agent), against a plain
# session of every process. Each figure is the loop's time less the same loop
# untraced, per event; the variants run interleaved, ROUNDS times, and the
# medians are shown.
set -eu
cd "$(dirname "$0")/.."
N=${N:-5000000}
# The printf runs a quarter of the events, in bursts that its ring holds
# and its reader drains between them (stream_app's "bursts"): a record
# dropped costs less than one written, so a loss would flatter it, and a
# ring as large as the whole run would be written cold.
NP=$((N / 4))
ROUNDS=${ROUNDS:-7}
tmp=$(mktemp -d)
APP=$tmp/stream_app
LAPP=$tmp/stream_lttng
sessiond=
cleanup() {
	[ -z "$sessiond" ] || { kill "$sessiond" 2>/dev/null || true; wait "$sessiond" 2>/dev/null || true; }
	rm -rf "$tmp"
}
trap cleanup EXIT

cc -O2 -g -Wall -Wextra -Iinclude -o "$APP" bench/stream_app.c .output/libside.a -lpthread
lttng=
if command -v lttng >/dev/null &&
	cc -O2 -g -Wall -Wextra -Ibench -o "$LAPP" bench/stream_lttng.c -llttng-ust -ldl 2>/dev/null; then
	lttng=yes
	if ! lttng list >/dev/null 2>&1; then
		lttng-sessiond --no-kernel --quiet &
		sessiond=$!
		for _ in $(seq 50); do lttng list >/dev/null 2>&1 && break; sleep 0.1; done
	fi
fi

elapsed() { sed -n 's/^elapsed_ns //p' "$1"; }

P="side:$APP:bench:op"
KEY="$P { @[args.name] = count(); }"
PRINTF="$P { printf(\"%s %u %lu %d\\n\", args.name, args.seq, args.value, args.delta); }"
ST=.output/sidetrace

# --in-process -p PROG over n events (stream_app's mode, if any): the
# loop starts once the engine counts (SIDE_INPROC_WAIT). Records not
# printed are said on stderr.
in_process_p() { # n mode program
	local app
	sh -c 'SIDE_INPROC_WAIT=$$ exec "$0" "$@"' "$APP" "$1" $2 2>"$tmp/e" &
	app=$!
	# Its agent listening: the pid is the program's, not the shell's.
	until grep -q "@sidetrace-inproc\.$app\$" /proc/net/unix; do sleep 0.01; done
	"$ST" -q --in-process -p "$app" -e "$3" -o "$tmp/o" 2>"$tmp/st"
	wait "$app"
	grep "not printed" "$tmp/st" | sed 's/^/inproc: /' >&2
}

# A session of every process (sidetrace's options...) while "$APP" runs N
# events in env's environment.
session_of_all() { # env-assignment sidetrace-options...
	local st env=$1
	shift
	"$ST" "$@" -e "$KEY" -o "$tmp/o" >"$tmp/st" 2>&1 &
	st=$!
	until grep -q '^Attaching' "$tmp/st" "$tmp/o" 2>/dev/null; do sleep 0.01; done
	env $env "$APP" "$N" 2>"$tmp/e"
	kill -INT "$st"
	wait "$st" || true
}

run() { # variant -> elapsed ns of the loop
	case $1 in
	untraced) "$APP" "$N" 2>"$tmp/e" ;;
	callback) "$APP" "$N" callback 2>"$tmp/e" ;;
	st_key) in_process_p "$N" "" "$KEY" ;;
	st_printf) in_process_p "$NP" bursts "$PRINTF" ;;
	st_key_c) "$ST" -q --in-process -c "$APP $N" -e "$KEY" -o "$tmp/o" 2>"$tmp/e" ;;
	st_key_wrapper) "$ST" -q --in-process -c "sh -c '$APP $N'" -e "$KEY" -o "$tmp/o" 2>"$tmp/e" ;;
	st_key_kernel) "$ST" -q -c "$APP $N" -e "$KEY" -o "$tmp/o" 2>"$tmp/e" ;;
	all_kernel) session_of_all SIDE_INPROC=1 ;;
	all_not_served) session_of_all SIDE_INPROC=0 --in-process ;;
	untraced_lttng) "$LAPP" "$N" 2>"$tmp/e" ;;
	lttng)
		lttng create inproc --output="$tmp/trace" >/dev/null
		lttng enable-event -u bench:op >/dev/null
		lttng start >/dev/null
		"$LAPP" "$N" 2>"$tmp/e"
		# Its default channel discards when its consumer lags: said, as ours.
		lttng stop inproc 2>&1 | grep -i discarded | sed 's/^/inproc: LTTng-UST: /' >&2
		lttng destroy inproc >/dev/null
		rm -rf "$tmp/trace"
		;;
	esac
	elapsed "$tmp/e"
}

variants="untraced callback st_key st_printf st_key_c st_key_wrapper st_key_kernel all_kernel"
variants="$variants all_not_served"
[ -n "$lttng" ] && variants="$variants untraced_lttng lttng"
for r in $(seq "$ROUNDS"); do
	for v in $variants; do
		echo "$v $r $(run "$v")"
	done
done >"$tmp/runs"

awk -v n="$N" -v np="$NP" -v lt="$lttng" "$(cat bench/median.awk)"'
# The median of the rounds of variant v.
function median(v,   k, m, a) {
	m = 0
	for (k in vals) if (k ~ "^" v SUBSEP) a[++m] = vals[k]
	return med(a, m)
}
{ loop[$1, $2] = $3; rounds[$2] = 1 }
END {
	for (r in rounds) {
		vals["cb", r] = (loop["callback", r] - loop["untraced", r]) / n
		vals["key", r] = (loop["st_key", r] - loop["untraced", r]) / n
		vals["pf", r] = loop["st_printf", r] / np - loop["untraced", r] / n
		vals["kc", r] = (loop["st_key_c", r] - loop["untraced", r]) / n
		vals["kw", r] = (loop["st_key_wrapper", r] - loop["untraced", r]) / n
		vals["kk", r] = (loop["st_key_kernel", r] - loop["untraced", r]) / n
		vals["ak", r] = (loop["all_kernel", r] - loop["untraced", r]) / n
		vals["an", r] = (loop["all_not_served", r] - loop["untraced", r]) / n
		if (lt) vals["lt", r] = (loop["lttng", r] - loop["untraced_lttng", r]) / n
	}
	printf "ns per event added to the loop, median of %d interleaved rounds of %d events\n", length(rounds), n
	printf "  %-48s %8.1f\n", "in-process, one empty callback (sidetrace)", median("cb")
	printf "  %-48s %8.1f\n", "--in-process -p @[args.name] = count()", median("key")
	printf "  %-48s %8.1f\n", "--in-process -p printf of 4 fields, every one kept", median("pf")
	printf "  %-48s %8.1f\n", "--in-process -c, the count (fallbacks disarmed)", median("kc")
	printf "  %-48s %8.1f\n", "--in-process -c, the child of an sh -c wrapper", median("kw")
	printf "  %-48s %8.1f\n", "kernel path @[args.name] = count() (uprobe)", median("kk")
	printf "  ratio kernel path / in-process, the count: %.1f\n", median("kk") / median("key")
	printf "  %-48s %8.1f\n", "every process, kernel path", median("ak")
	printf "  %-48s %8.1f\n", "every process --in-process, one not served", median("an")
	printf "  ratio not served / kernel path (goal <= 1): %.2f\n", median("an") / median("ak")
	if (lt) {
		printf "  %-48s %8.1f\n", "LTTng-UST recording, default channel", median("lt")
		printf "  ratio in-process / LTTng-UST: %.2f\n", median("cb") / median("lt")
		printf "  ratio --in-process printf / LTTng-UST: %.2f\n", median("pf") / median("lt")
	} else {
		printf "  LTTng-UST: skipped (lttng or liblttng-ust-dev missing)\n"
	}
}' "$tmp/runs"
