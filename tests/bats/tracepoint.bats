#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# tracepoint:CATEGORY:NAME end to end on the running kernel: fields typed
# from tracefs, exact syscall totals against req_writes' ground truth,
# -p filtering, strings of every kind a record holds, and a map set at a
# side: probe read in a tracepoint clause (requests attributed across the
# user/kernel boundary).

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	build_req_writes "$BATS_FILE_TMPDIR/req_writes"
}

setup() {
	D=$BATS_TEST_TMPDIR
	RW=$BATS_FILE_TMPDIR/req_writes
}

@test "-lv lists a tracepoint's fields as its format declares them, as bpftrace does" {
	run -0 "$SIDETRACE" -lv 'tracepoint:syscalls:sys_enter_openat'
	[ "${lines[0]}" = "tracepoint:syscalls:sys_enter_openat" ]
	[[ "$output" == *"    int dfd"* ]]
	[[ "$output" == *"    const char * filename"* ]]
	[[ "$output" != *common_* ]]
	local tp
	for tp in sched:sched_switch sched:sched_process_exec; do
		run -0 "$SIDETRACE" -lv "tracepoint:$tp"
		if [ $tp = sched:sched_switch ]; then
			[ "${lines[1]}" = "    char prev_comm[16]" ]
			[ "${lines[2]}" = "    pid_t prev_pid" ]
		else
			[ "${lines[1]}" = "    __data_loc char[] filename" ]
		fi
		if command -v bpftrace >/dev/null; then
			[ "$output" = "$(bpftrace -lv "tracepoint:$tp" 2>/dev/null)" ]
		fi
	done
	run -0 "$SIDETRACE" -l 'tracepoint:sched:sched_process_e*'
	[[ "$output" == *"tracepoint:sched:sched_process_exec"* ]]
	[[ "$output" == *"tracepoint:sched:sched_process_exit"* ]]
}

@test "-l 'tracepoint:*' lists every tracepoint tracefs can enable, as bpftrace -l does; category globs skip tracefs' plain files" {
	local tfs=/sys/kernel/tracing
	# The plain files beside the categories, which a category glob matches.
	[ -f "$tfs/events/enable" ] && [ -f "$tfs/events/header_page" ]
	sed 's/^/tracepoint:/' "$tfs/available_events" | sort > "$D/want"
	run -0 "$SIDETRACE" -l 'tracepoint:*'
	printf '%s\n' "${lines[@]}" | sort > "$D/got"
	diff "$D/want" "$D/got"
	[[ " ${lines[*]} " == *" tracepoint:sched:sched_process_exec "* ]]
	[[ " ${lines[*]} " == *" tracepoint:syscalls:sys_enter_openat "* ]]
	run -0 "$SIDETRACE" -l 'tracepoint:*:*'
	printf '%s\n' "${lines[@]}" | sort | diff "$D/want" -
	run -0 "$SIDETRACE" -l 'tracepoint:*:sched_process_exec'
	[ "$output" = "tracepoint:sched:sched_process_exec" ]
	run -0 "$SIDETRACE" -l 'tracepoint:*:sys_enter_*'
	grep '^tracepoint:syscalls:sys_enter_' "$D/want" > "$D/want_enter"
	printf '%s\n' "${lines[@]}" | sort | diff "$D/want_enter" -
	# A glob alone after the kind is a tracepoint of any category, as bpftrace's.
	run -0 "$SIDETRACE" -l 'tracepoint:sys_enter_*'
	printf '%s\n' "${lines[@]}" | sort | diff "$D/want_enter" -
	run -0 "$SIDETRACE" -l 'tracepoint:*sched_process_exe*'
	[ "$output" = "tracepoint:sched:sched_process_exec" ]
	# A category named without a wildcard is listed alone: the same events.
	run -0 "$SIDETRACE" -l 'tracepoint:syscalls:sys_enter_*'
	printf '%s\n' "${lines[@]}" | sort | diff "$D/want_enter" -
	run -0 "$SIDETRACE" -l 'tracepoint:sched:*'
	grep '^tracepoint:sched:' "$D/want" | diff - <(printf '%s\n' "${lines[@]}" | sort)
	# A dot file or a plain file for a category: nothing, as no category matches them.
	local cat
	for cat in . .. enable; do
		run -1 "$SIDETRACE" -l "tracepoint:$cat:*"
		[ "$output" = "sidetrace: no probe matches tracepoint:$cat:*" ]
	done
	# The same globs in a program: the exec of the command, once.
	run -0 "$SIDETRACE" -e 'tracepoint:*:sched_process_exec { @ = count(); }' -c /bin/true
	[ "${lines[-1]}" = "@: 1" ]
	# ftrace's own events take no program: a glob skips them, a name says so.
	[ -d "$tfs/events/ftrace/function" ]
	run -1 "$SIDETRACE" -l 'tracepoint:ftrace:*'
	[ "$output" = "sidetrace: no probe matches tracepoint:ftrace:*" ]
	run -1 "$SIDETRACE" -e 'tracepoint:ftrace:function { @ = count(); }'
	[[ "$output" == *"tracepoint ftrace:function is one of ftrace's own events, to which the kernel attaches no program (tracefs gives it no enable file)"* ]]
}

@test "sys_enter_write and sys_exit_write of one process (-p): exact calls and bytes, its cgroup" {
	start_app "$D/rw.out" "$RW" -w "$D/go" 300
	stat -c %i "/sys/fs/cgroup$(sed -n 's/^0:://p' "/proc/$APP_PID/cgroup")" > "$D/cgroup"
	"$SIDETRACE" -p "$APP_PID" -e '
tracepoint:syscalls:sys_enter_write /tid != pid/ { @calls = count(); @bytes = sum(args.count); @cg[cgroup] = count(); }
tracepoint:syscalls:sys_exit_write /tid != pid/ { @ret = sum(args.ret); }' > "$D/out" 2>&1 &
	local st=$! i
	for i in $(seq 100); do grep -q '^Attaching' "$D/out" && break; sleep 0.1; done
	# Another process writing meanwhile: not counted.
	dd if=/dev/zero of=/dev/null bs=512 count=2000 2> /dev/null
	touch "$D/go"
	wait $APP
	wait $st
	cat "$D/out" "$D/rw.out"
	tail -n +2 "$D/rw.out" > "$D/truth"
	grep -q "^@calls: $(truth_total "$D/truth" calls)\$" "$D/out"
	grep -q "^@bytes: $(truth_total "$D/truth" bytes)\$" "$D/out"
	grep -q "^@ret: $(truth_total "$D/truth" bytes)\$" "$D/out"
	# cgroup: the id of the process's cgroup v2, its directory's inode.
	grep -q "^@cg\[$(cat "$D/cgroup")\]: $(truth_total "$D/truth" calls)\$" "$D/out"
}

@test "the specialized tracepoint programs (count, plain, keyed) count exactly, two sessions at once" {
	local prog='tracepoint:syscalls:sys_enter_write { @n = count(); }
tracepoint:syscalls:sys_exit_write { @b = sum(args.ret); @m = max(args.ret); }'
	local keyed='tracepoint:syscalls:sys_enter_write { @p[pid] = count(); }'
	run -0 "$SIDETRACE" -d -e "$prog"
	[[ "${lines[1]}" == *"program tracepoint count" ]]
	[[ "${lines[2]}" == *"program tracepoint plain" ]]
	run -0 "$SIDETRACE" -d -e "$keyed"
	[[ "${lines[1]}" == *"program tracepoint keyed" ]]
	start_app "$D/rw.out" "$RW" -w "$D/go" 200
	"$SIDETRACE" -p "$APP_PID" -e "$prog" > "$D/out" 2>&1 &
	local st=$! i
	"$SIDETRACE" -p "$APP_PID" -e "$keyed" > "$D/out2" 2>&1 &
	local st2=$!
	for i in $(seq 100); do grep -q '^Attaching' "$D/out" && grep -q '^Attaching' "$D/out2" && break; sleep 0.1; done
	dd if=/dev/zero of=/dev/null bs=512 count=2000 2> /dev/null
	touch "$D/go"
	wait $APP
	wait $st
	wait $st2
	cat "$D/out" "$D/out2" "$D/rw.out"
	tail -n +2 "$D/rw.out" > "$D/truth"
	# Once attached, the main thread writes its truth in one write (the pid came before).
	local calls=$(($(truth_total "$D/truth" calls) + 1))
	local bytes=$(($(truth_total "$D/truth" bytes) + $(stat -c %s "$D/truth")))
	grep -q "^@n: $calls\$" "$D/out"
	grep -q "^@b: $bytes\$" "$D/out"
	# The longest write: a /static/logo.png request's last, 300 + 6 + 2 bytes.
	grep -q "^@m: 308\$" "$D/out"
	grep -q "^@p\[$APP_PID\]: $calls\$" "$D/out2"
}

@test "a map set at side: and read at a tracepoint attributes write(2) bytes to requests exactly" {
	cat > "$D/attr.st" <<EOF
side:$RW:rq:begin { @path[tid] = args.path; }
tracepoint:syscalls:sys_enter_write /@path[tid] != ""/ {
	@bytes[@path[tid]] = sum(args.count);
	@calls[@path[tid]] = count();
}
side:$RW:rq:end { delete(@path[tid]); }
EOF
	# Options after the program file, as bpftrace takes them.
	run -0 "$SIDETRACE" "$D/attr.st" -c "$RW 400"
	echo "$output"
	local path line
	for path in /api/users /api/orders /static/logo.png; do
		line=$(grep "^$path " <<< "$output")
		[[ "$output" == *"@calls[$path]: $(sed 's/.*calls=\([0-9]*\).*/\1/' <<< "$line")"* ]]
		[[ "$output" == *"@bytes[$path]: $(sed 's/.*bytes=\([0-9]*\).*/\1/' <<< "$line")"* ]]
	done
	# Writes outside any request are in no path.
	[ "$(grep -c '^@calls\[' <<< "$output")" = 3 ]
}

@test "an array of a record by index: raw_syscalls:sys_enter's args[] of write(2), exact" {
	run -0 "$SIDETRACE" -e 'tracepoint:raw_syscalls:sys_enter /args.id == 1 && tid != pid/ {
	@b = sum(args.args[2]); @low[args.args[0] <= 2] = count(); }' -c "$RW 100"
	echo "$output"
	local truth
	truth=$(grep ' calls=' <<< "$output")
	# The workers write to /dev/null, opened after the standard fds.
	[[ "$output" == *"@b: $(truth_total <(echo "$truth") bytes)"* ]]
	[[ "$output" == *"@low[0]: $(truth_total <(echo "$truth") calls)"* ]]
	[[ "$output" != *"@low[1]"* ]]
}

@test "strings from a record: __data_loc, char arrays in place, and syscall pointers" {
	run -0 "$SIDETRACE" -e 'tracepoint:sched:sched_process_exec { @exec[args.filename] = count(); }' \
		-c 'sh -c "/bin/true; /bin/true; /bin/true"'
	[[ "$output" == *"@exec[/bin/true]: 3"* ]]
	run -0 "$SIDETRACE" -e 'tracepoint:sched:sched_process_exec { print(args); }' \
		-c 'sh -c "/bin/true; /bin/true"'
	[ "$(grep -cE '^\{ \.filename = "/bin/true", \.pid = [0-9]+, \.old_pid = [0-9]+ \}$' <<< "$output")" = 2 ]
	# The exit of each task of the command, its own included, whichever of
	# the exit's programs runs first (sidetrace's -c keeps exited tasks).
	run -0 "$SIDETRACE" -e 'tracepoint:sched:sched_process_exit { @[args.comm] = count(); }' \
		-c 'sh -c "/bin/true; /bin/true; exec /bin/true"'
	[[ "$output" == *"@[true]: 3"* ]]
	[[ "$output" != *"@[sh]"* ]]
	run -0 "$SIDETRACE" -e 'tracepoint:sched:sched_process_fork { @[args.parent_comm] = count(); }' \
		-c 'sh -c "/bin/true; /bin/true"'
	[[ "$output" == *"@[sh]: 2"* ]]
	run -0 "$SIDETRACE" -e 'tracepoint:syscalls:sys_enter_openat /comm == "cat"/ { @[str(args.filename)] = count(); }' \
		-c "cat $ROOT/README.md $ROOT/Makefile"
	[[ "$output" == *"@[$ROOT/README.md]: 1"* ]]
	[[ "$output" == *"@[$ROOT/Makefile]: 1"* ]]
}

@test "a tracepoint that is not there, a field it has not, an element past its array: each refused with its reason" {
	run -1 "$SIDETRACE" -e 'tracepoint:syscalls:sys_enter_wrte { @ = count(); }'
	[[ "$output" == *"no tracepoint syscalls:sys_enter_wrte on this kernel"* ]]
	[[ "$output" == *"sidetrace -l 'tracepoint:syscalls:*'"* ]]
	run -1 "$SIDETRACE" -e 'tracepoint:syscalls:sys_enter_write { @ = sum(args.cnt); }'
	[[ "$output" == *"has no field 'cnt'; its fields: __syscall_nr, fd, buf, count"* ]]
	run -1 "$SIDETRACE" -e 'tracepoint:raw_syscalls:sys_enter { @[args.args[6]] = count(); }'
	[[ "$output" == *"index 6 is out of bounds: args.args has 6 elements (0 to 5)"* ]]
	run -1 "$SIDETRACE" -e 'tracepoint:syscalls { @ = count(); }'
	[[ "$output" == *"expected ':' before the tracepoint (tracepoint:CATEGORY:NAME)"* ]]
}

@test "-k: a string cut is said as it happens, then in the totals at exit" {
	local long=$D/$(printf 'a%.0s' $(seq 100))
	touch "$long"
	run -0 --separate-stderr "$SIDETRACE" -k -c "sh -c 'cat $long; sleep 1.5; cat $long'" \
		-e 'tracepoint:syscalls:sys_enter_openat /str(args->filename) != "x"/ { @ = count(); }'
	local why="string longer than 63 bytes, truncated (tracepoint:syscalls:sys_enter_openat)"
	# The first cut while the command sleeps, the total of both at exit.
	[ "$(grep -c "strings were cut" <<<"$stderr")" -eq 2 ]
	[ "$(grep "strings were cut" <<<"$stderr" | head -1)" = "sidetrace: 1 strings were cut: $why" ]
	[ "$(grep "strings were cut" <<<"$stderr" | tail -1)" = "sidetrace: 2 strings were cut: $why" ]
}
