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
