#!/bin/bash
# SPDX-License-Identifier: MIT
# The in-process tracer path: ns per event with one empty callback
# registered (bench/stream_app.c "callback": the four-field event, the
# argument vector built, side_call() and its RCU section) against LTTng-UST
# recording the same event (bench/stream_lttng.c, default channel). Each
# figure is the loop's time less the same loop untraced, per event; the
# four variants run interleaved, ROUNDS times, and the medians are shown.
set -eu
cd "$(dirname "$0")/.."
N=${N:-5000000}
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

run() { # variant -> elapsed ns of the loop
	case $1 in
	untraced) "$APP" "$N" 2>"$tmp/e" ;;
	callback) "$APP" "$N" callback 2>"$tmp/e" ;;
	untraced_lttng) "$LAPP" "$N" 2>"$tmp/e" ;;
	lttng)
		lttng create inproc --output="$tmp/trace" >/dev/null
		lttng enable-event -u bench:op >/dev/null
		lttng start >/dev/null
		"$LAPP" "$N" 2>"$tmp/e"
		lttng stop inproc >/dev/null 2>&1
		lttng destroy inproc >/dev/null
		rm -rf "$tmp/trace"
		;;
	esac
	elapsed "$tmp/e"
}

variants="untraced callback"
[ -n "$lttng" ] && variants="$variants untraced_lttng lttng"
for r in $(seq "$ROUNDS"); do
	for v in $variants; do
		echo "$v $r $(run "$v")"
	done
done >"$tmp/runs"

awk -v n="$N" -v lt="$lttng" "$(cat bench/median.awk)"'
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
		if (lt) vals["lt", r] = (loop["lttng", r] - loop["untraced_lttng", r]) / n
	}
	printf "ns per event added to the loop, median of %d interleaved rounds of %d events\n", length(rounds), n
	printf "  %-48s %8.1f\n", "in-process, one empty callback (sidetrace)", median("cb")
	if (lt) {
		printf "  %-48s %8.1f\n", "LTTng-UST recording, default channel", median("lt")
		printf "  ratio in-process / LTTng-UST: %.2f\n", median("cb") / median("lt")
	} else {
		printf "  LTTng-UST: skipped (lttng or liblttng-ust-dev missing)\n"
	}
}' "$tmp/runs"
