# SPDX-License-Identifier: MIT
# The report of `SET=aggr bench/stream.sh`: per-event cost of each
# aggregation, sidetrace against bpftrace, from lines "variant round
# loop_ns delivered lost wall_ns cpu_ns" (-v n=EVENTS -v rounds=R).
# Cost = (traced - untraced) thread CPU time / n, per round; above the
# floor = cost - the floor's cost in the same round. Medians of rounds,
# [min-max] across rounds. med() is bench/median.awk's.
function spread(x,    r, lo, hi) {
	lo = hi = x[1]
	for (r = 2; r <= rounds; r++) { if (x[r] < lo) lo = x[r]; if (x[r] > hi) hi = x[r] }
	return sprintf("%6.0f [%5.0f-%5.0f]", med(x, rounds), lo, hi)
}
function cost(v, r, col) { return (col == "cpu" ? cpu[v, r] - cpu["untraced", r] : loop[v, r] - loop["untraced", r]) / n }
{ loop[$1, $2] = $3; cpu[$1, $2] = $7 }
function row(label, st, bt,    r, a, b, c, d, e, f, w) {
	for (r = 1; r <= rounds; r++) {
		a[r] = cost(bt, r, "cpu"); b[r] = cost(st, r, "cpu")
		c[r] = a[r] - cost("floor", r, "cpu"); d[r] = b[r] - cost("floor", r, "cpu")
		e[r] = b[r] / a[r]; f[r] = d[r] / c[r]
		w[r] = cost(st, r, "wall") / cost(bt, r, "wall")
	}
	printf "  %-30s %s %s %s %s %5.2f [%4.2f-%4.2f] %5.2f [%5.2f-%5.2f] %5.2f\n", label,
		spread(a), spread(b), spread(c), spread(d), med(e, rounds), lo(e), hi(e),
		med(f, rounds), lo(f), hi(f), med(w, rounds)
}
function lo(x,    r, m) { m = x[1]; for (r = 2; r <= rounds; r++) if (x[r] < m) m = x[r]; return m }
function hi(x,    r, m) { m = x[1]; for (r = 2; r <= rounds; r++) if (x[r] > m) m = x[r]; return m }
END {
	for (r = 1; r <= rounds; r++) { u[r] = cpu["untraced", r] / n; fl[r] = cost("floor", r, "cpu") }
	printf "aggregation per event, N=%d, %d interleaved rounds: median [min-max] of rounds, ns/event\n", n, rounds
	printf "of the loop thread's CPU time added (untraced loop: %.1f ns/event)\n", med(u, rounds)
	printf "  floor, bpftrace usdt:... { }: %s\n\n", spread(fl)
	printf "  %-30s %-20s %-20s %-20s %-20s %-17s %-19s %s\n", "", "bpftrace", "sidetrace",
		"bpftrace - floor", "sidetrace - floor", "st/bt", "st/bt above floor", "st/bt wall"
	row("@ = count()", "st_count", "bt_count")
	row("@ = hist(value)", "st_hist", "bt_hist")
	row("@[name] = count()", "st_key", "bt_key")
	row("@[name, cpu] = count()", "st_key2", "bt_key2")
	row("@[name] = hist(value)", "st_khist", "bt_khist")
	printf "\n  goal: keyed aggregation st/bt <= 0.8\n"
}
