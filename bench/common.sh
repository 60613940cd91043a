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
