# SPDX-License-Identifier: MIT
# What the bench scripts share; sourced, from the tree's top (cd first).

# The median of the numbers on stdin, one a line.
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

# Launch to attached and peak RSS of a tracer, medians of $REPEAT runs
# (bench/time_to_begin.py): MARKER is the line that says it attached.
# Each run starts cold: a tracer that exits unregisters its uprobes, which
# lets the next registration within an RCU grace period skip its wait, so
# back-to-back runs would flatter whichever tool runs second.
startup() { # marker tool program
	local i runs
	runs=$(for i in $(seq "$REPEAT"); do sleep 0.3; bench/time_to_begin.py "$@"; done)
	echo "$(cut -d' ' -f1 <<<"$runs" | median) $(cut -d' ' -f2 <<<"$runs" | median)"
}

# ns per run of the BPF programs of process $1 that ran at least $2 times
# (the run time and count of each of its program fds, in /proc/PID/fdinfo;
# kernel.bpf_stats_enabled must be on).
prog_ns() { # pid min-runs
	python3 - "$1" "$2" <<'PY'
import os, sys
pid, n = sys.argv[1], int(sys.argv[2])
t = c = 0
seen = set()
for fd in os.listdir(f"/proc/{pid}/fd"):
    try:
        if os.readlink(f"/proc/{pid}/fd/{fd}") != "anon_inode:bpf-prog":
            continue
        info = dict(l.split(":\t", 1) for l in open(f"/proc/{pid}/fdinfo/{fd}").read().splitlines() if ":\t" in l)
    except OSError:
        continue
    pid_id = info.get("prog_id", "").strip()
    cnt = int(info.get("run_cnt", "0"))
    if pid_id in seen or cnt < n:
        continue
    seen.add(pid_id)
    t += int(info["run_time_ns"]); c += cnt
print(f"{t / c:.0f}" if c else "nan")
PY
}

# kernel.bpf_stats_enabled on until the script exits; $tmp, a directory
# removed then, and $TMP_OUT in it.
bpf_stats_on() {
	BPF_STATS_OLD=$(sysctl -n kernel.bpf_stats_enabled)
	tmp=$(mktemp -d)
	TMP_OUT=$tmp/out
	trap 'sysctl -q kernel.bpf_stats_enabled="$BPF_STATS_OLD"; rm -rf "$tmp"' EXIT
	sysctl -q kernel.bpf_stats_enabled=1
}

# Starts tracer $1 (st: $ST, its environment from $ST_ENV, "VAR=value ...";
# bt: bpftrace) on program $2 with its output in $TMP_OUT, runs the
# workload (the other arguments) once it attached, prints prog_ns of it
# for $MIN_RUNS, and stops it. bpftrace started in the background of a
# script ignores SIGINT, and once in a while a first SIGTERM too (a round
# waited 25 minutes): TERM, then KILL.
traced_prog_ns() { # tool program workload...
	local tool=$1 prog=$2 pid i
	shift 2
	if [ "$tool" = st ]; then
		env ${ST_ENV:-} "$ST" -e "$prog" >"$TMP_OUT" 2>&1 &
	else
		bpftrace -e "$prog BEGIN { printf(\"Attaching-done\\n\"); }" >"$TMP_OUT" 2>&1 &
	fi
	pid=$!
	for i in $(seq 200); do grep -q '^Attaching' "$TMP_OUT" && break; sleep 0.05; done
	[ "$tool" = bt ] && for i in $(seq 200); do grep -q 'Attaching-done' "$TMP_OUT" && break; sleep 0.05; done
	"$@" >/dev/null 2>&1
	prog_ns "$pid" "$MIN_RUNS"
	kill -TERM "$pid"
	for i in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	kill -KILL "$pid" 2>/dev/null
	wait "$pid" || true
}

# The array cases ("label|sidetrace program|bpftrace program[|mode]"),
# both tools in each of $ROUNDS interleaved rounds through
# traced_prog_ns with the workload (the arguments after the width, then
# the case's mode if any), and the table of medians [min-max] and of the
# ratio sidetrace / bpftrace, labels width wide.
prog_time_table() { # width workload...
	local width=$1 r i label st bt mode
	shift
	for r in $(seq "$ROUNDS"); do
		for i in "${!cases[@]}"; do
			IFS='|' read -r label st bt mode <<<"${cases[$i]}"
			echo "$i $r $(traced_prog_ns st "$st" "$@" ${mode:+"$mode"})" \
				"$(traced_prog_ns bt "$bt" "$@" ${mode:+"$mode"})" >>"$tmp/res"
		done
	done
	echo "BPF program run time per event (bpf_stats), median of $ROUNDS interleaved rounds [min-max], ns"
	for i in "${!cases[@]}"; do
		IFS='|' read -r label st bt mode <<<"${cases[$i]}"
		awk -v i="$i" -v label="$label" -v w="$width" "$(cat bench/median.awk)"'
		$1 == i { k++; s[k] = $3; b[k] = $4; q[k] = $3 / $4
			if (k == 1 || $3 < smin) smin = $3; if (k == 1 || $3 > smax) smax = $3
			if (k == 1 || $4 < bmin) bmin = $4; if (k == 1 || $4 > bmax) bmax = $4 }
		END { printf "  %-" w "s sidetrace %5.0f [%4.0f-%4.0f]  bpftrace %5.0f [%4.0f-%4.0f]  ratio %.2f\n",
			label, med(s, k), smin, smax, med(b, k), bmin, bmax, med(q, k) }' "$tmp/res"
	done
}
