#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# bpftrace's own tools, as Debian installs them (/usr/sbin/*.bt), run
# unchanged under sidetrace on small workloads: their header lines as
# bpftrace prints them, a data line for each thing the workload did, and
# sidetrace's own -d plan for each tool that gets past its program.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	D=$BATS_TEST_TMPDIR
	TOOLS=/usr/sbin
}

@test "syncsnoop: its header, then one line for the sync(2) of the command" {
	run -0 --separate-stderr "$SIDETRACE" -c sync "$TOOLS/syncsnoop.bt"
	[ "${lines[0]}" = "Attaching 7 probes..." ]
	[ "${lines[1]}" = "Tracing sync syscalls... Hit Ctrl-C to end." ]
	[[ "${lines[2]}" =~ ^TIME\ +PID\ +COMM\ +EVENT$ ]]
	[[ "${lines[3]}" =~ ^[0-9]{2}:[0-9]{2}:[0-9]{2}\ +[0-9]+\ +sync\ +tracepoint:syscalls:sys_enter_sync$ ]]
	[ "${#lines[@]}" -eq 4 ]
	[ -z "$stderr" ]
}

@test "killsnoop: the signal a shell sends, its target and result, and no note that nothing was traced" {
	run -0 --separate-stderr "$SIDETRACE" -c "sh -c 'kill -0 \$\$'" "$TOOLS/killsnoop.bt"
	[ "${lines[1]}" = "Tracing kill() signals... Hit Ctrl-C to end." ]
	[[ "${lines[2]}" =~ ^TIME\ +PID\ +COMM\ +SIG\ +TPID\ +RESULT$ ]]
	# sh kills itself with signal 0: its pid is the target, the result 0.
	read -r _ pid comm sig tpid result <<<"${lines[3]}"
	[ "$comm" = sh ] && [ "$sig" = 0 ] && [ "$tpid" = "$pid" ] && [ "$result" = 0 ]
	[ -z "$stderr" ]
}

@test "opensnoop: each file the command opens, its fd or errno, the path kept at entry and printed at exit" {
	run -0 --separate-stderr "$SIDETRACE" -c '/usr/bin/head -c0 /etc/hostname' "$TOOLS/opensnoop.bt"
	[ "${lines[1]}" = "Tracing open syscalls... Hit Ctrl-C to end." ]
	[[ "${lines[2]}" =~ ^PID\ +COMM\ +FD\ ERR\ PATH$ ]]
	# head opens its file last, and gets a descriptor.
	grep -Eq '^[0-9]+ +head +[0-9]+ +0 /etc/hostname$' <<<"$output"
	# The path is kept as its pointer and read at exit, as bpftrace reads
	# it: the syscall has paged it in by then.
	[ -z "$stderr" ]
}

@test "statsnoop: each stat of the command, its errno and path, the same lines as bpftrace's" {
	local cmd='/usr/bin/stat /etc/hostname' bt
	run -0 --separate-stderr "$SIDETRACE" -c "$cmd" "$TOOLS/statsnoop.bt"
	[ "${lines[1]}" = "Tracing stat syscalls... Hit Ctrl-C to end." ]
	[[ "${lines[2]}" =~ ^PID\ +COMM\ +ERR\ PATH$ ]]
	grep -Eq '^[0-9]+ +stat +0 /etc/hostname$' <<<"$output"
	[ -z "$stderr" ]
	command -v bpftrace >/dev/null || return 0
	# Paths a library probes first (statfs of /sys/fs/selinux) too: read at exit.
	bt=$(bpftrace -c "$cmd" "$TOOLS/statsnoop.bt" 2>/dev/null | awk '$2 == "stat" { print $3, $4 }')
	[ -n "$bt" ]
	[ "$(awk '$2 == "stat" { print $3, $4 }' <<<"$output")" = "$bt" ]
}

@test "syscount: the command's syscalls by id and by process, dd's reads and writes among them" {
	run -0 "$SIDETRACE" -c 'dd if=/dev/zero of=/dev/null bs=4k count=50 status=none' \
		"$TOOLS/syscount.bt"
	[ "${lines[1]}" = "Counting syscalls... Hit Ctrl-C to end." ]
	[[ "$output" == *"Top 10 syscalls IDs:"* ]]
	[[ "$output" == *"Top 10 processes:"* ]]
	# read(2) is 0, write(2) 1 on x86-64: at least the 50 blocks each.
	[ "$(sed -n 's/^@syscall\[0\]: //p' <<<"$output")" -ge 50 ]
	[ "$(sed -n 's/^@syscall\[1\]: //p' <<<"$output")" -ge 50 ]
	[ "$(sed -n 's/^@process\[dd\]: //p' <<<"$output")" -ge 100 ]
}

@test "execsnoop: each exec of the command, its time, pid and argv joined" {
	run -0 --separate-stderr "$SIDETRACE" -c "sh -c 'ls / >/dev/null; /bin/echo a \"\" b >/dev/null'" \
		"$TOOLS/execsnoop.bt"
	[ "${lines[1]}" = "TIME(ms)   PID   ARGS" ]
	grep -Eq "^[0-9]+ +[0-9]+ +sh -c ls / >/dev/null; /bin/echo a \"\" b >/dev/null$" <<<"$output"
	grep -Eq '^[0-9]+ +[0-9]+ +ls /$' <<<"$output"
	# An empty argument ends the list, as bpftrace joins it.
	grep -Eq '^[0-9]+ +[0-9]+ +/bin/echo a$' <<<"$output"
	[ -z "$stderr" ]
}

@test "-d plans each tool whose probes this kernel has: #include and #ifndef BPFTRACE_HAVE_BTF read, functions a build lacks skipped" {
	local t out ok=0
	# runqlat includes <linux/sched.h> for TASK_RUNNING (the preprocessor's
	# header macros); biolatency and biostacks name a function this kernel
	# inlined, skipped with a warning. The tcp tools' kprobes plan without
	# attaching, on a kernel without kprobes too.
	for t in bashreadline biolatency biostacks bitesize capable cpuwalk gethostlatency \
		execsnoop killsnoop opensnoop pidpersec runqlat setuids ssllatency sslsnoop statsnoop syncsnoop \
		syscount tcpaccept tcpconnect tcpdrop tcplife tcpretrans vfscount vfsstat writeback xfsdist; do
		out=$("$SIDETRACE" -d "$TOOLS/$t.bt" 2>&1) || { echo "$t: $out"; false; }
		[[ "$out" == *"Dry run: nothing attached."* ]]
		ok=$((ok + 1))
	done
	[ "$ok" -eq 27 ]
}

@test "setuids: a setresuid of the command, its uids and result, the same line as bpftrace's" {
	local cmd='/usr/bin/setpriv --reuid=65534 /bin/true' bt
	run -0 --separate-stderr "$SIDETRACE" -c "$cmd" "$TOOLS/setuids.bt"
	[ "${lines[1]}" = "Tracing setuid(2) family syscalls. Hit Ctrl-C to end." ]
	grep -Eq '^[0-9:]+ +[0-9]+ +setpriv +0 +setresuid ruid=65534 euid=65534 suid=65534 \(0\)$' <<<"$output"
	[ -z "$stderr" ]
	command -v bpftrace >/dev/null || return 0
	bt=$(bpftrace -c "$cmd" "$TOOLS/setuids.bt" 2>/dev/null | awk '$3 == "setpriv" { $1 = $2 = ""; print }')
	[ -n "$bt" ]
	[ "$(awk '$3 == "setpriv" { $1 = $2 = ""; print }' <<<"$output")" = "$bt" ]
}
