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
