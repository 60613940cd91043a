#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# sidetrace one-liners end to end where a case needs scripting: two traced
# processes at once, runs compared with each other under another code path,
# start-up timing. Program + workload + expected output cases are in
# tests/oneliners.

load helpers
bats_require_minimum_version 1.5.0

FIX="$BATS_TEST_DIRNAME/../fixtures"

setup_file() {
	cc -O2 -Wall -I"$ROOT/include" "$FIX/side_edge.c" -o "$BATS_FILE_TMPDIR/side_edge" \
		"$OUT/libside.a" -lpthread -ldl
}

setup() {
	D="$BATS_FILE_TMPDIR"
	EDGE="$D/side_edge"
}

# Runs sidetrace on httpd_sim -n 300 -s 7.
st_httpd() { # program [sidetrace options...]
	local prog=$1
	shift
	"$SIDETRACE" "$@" -e "$prog" -c "$HTTPD -n 300 -s 7"
}

@test "system-wide: two processes, the tracer leaves their results alone" {
	"$SIDETRACE" -e "side:$HTTPD:http:request { @[pid] = count(); @all = count(); }" \
		> "$D/sw.txt" 2>&1 &
	local st=$! i
	# "Attaching N probes..." is printed once they are attached.
	for i in $(seq 100); do
		grep -q '^Attaching' "$D/sw.txt" && break
		sleep 0.1
	done
	"$HTTPD" -n 30 -s 1 -v > "$D/a.txt"
	local a=$?
	"$HTTPD" -n 40 -s 2 > /dev/null
	kill -INT $st
	wait $st
	[ "$a" = 0 ]
	diff "$D/a.txt" <("$HTTPD" -n 30 -s 1 -v)
	grep -q '^@all: 70$' "$D/sw.txt"
	grep -q '^@\[[0-9]*\]: 30$' "$D/sw.txt"
	grep -q '^@\[[0-9]*\]: 40$' "$D/sw.txt"
}

@test "top-level fields read from the SDT arguments agree with the argument vector" {
	local prog="side:$HTTPD:http:request { @s = stats(args.bytes); @h = hist(args.latency_ns);
		@p[args.path, args.status] = count(); @mn = min(args.latency_ns); @mx = max(args.bytes);
		@b[args.method] = lhist(args.status, 100, 600, 100); }"
	run -0 st_httpd "$prog"
	local sdt=$output
	SIDETRACE_VECTOR_ONLY=1 run -0 st_httpd "$prog"
	[ "$output" = "$sdt" ]
	[[ "$sdt" == *"@s: count 300, "* ]]
}

@test "one perf-event uprobe per site where uprobe_multi is not used: same results" {
	local prog="side:$HTTPD:http:request { @c = count(); @h = hist(args.latency_ns);
		@p[args.path] = count(); }"
	run -0 st_httpd "$prog"
	local multi=$output
	SIDETRACE_NO_UPROBE_MULTI=1 run -0 st_httpd "$prog"
	[ "$output" = "$multi" ]
	[[ "$multi" == *"@c: 300"* ]]
	SIDETRACE_NO_UPROBE_MULTI=1 run -0 st_httpd "side:$HTTPD:http:request { @ = count(); }"
	[[ "$output" == *"@: 300"* ]]
	# The filter has the string read per event (a key alone is not: a
	# literal is keyed by address), so the fault-in runs by perf event too.
	SIDETRACE_NO_UPROBE_MULTI=1 run -0 --separate-stderr \
		"$ROOT/tests/fixtures/after_detach.sh" "$SIDETRACE" \
		-e "side:$EDGE:edge:ev /args.s != \"\"/ { @[args.s] = count(); }" -c "$EDGE far 9 200"
	[[ "$output" == *"@[far away]: 8"* ]]
}

@test "start-up to attached takes milliseconds" {
	# The command runs as soon as the probes are attached: it says when.
	start=$(date +%s%N)
	run -0 "$SIDETRACE" -e "side:$HTTPD:http:request { @[args.method] = hist(args.bytes); }" \
		-c "date +%s%N"
	attached=${lines[1]}
	echo "start-up to attached: $(((attached - start) / 1000000)) ms"
	[ $(((attached - start) / 1000000)) -lt 250 ]
}

# sidetrace exits once the kernel has unregistered its uprobes: the enable
# word is 0 as soon as the collector has exited, read once, not polled.
semaphore_after_exit() { # sidetrace's environment assignments...
	start_app "$BATS_TEST_TMPDIR/pid" "$HTTPD" -d 120 -r 200 -p
	local app=$APP pid=$APP_PID sema st i
	env "$@" "$SIDETRACE" -p "$pid" -e "side:$HTTPD:http:request { @ = count(); }" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	st=$!
	for i in $(seq 100); do
		sema=$(read_semaphore "$pid" "$HTTPD" http request)
		[ "$sema" -ne 0 ] && break
		sleep 0.05
	done
	echo "while attached: $sema" >&2
	kill -INT "$st"
	wait "$st"
	[ "$sema" -eq 1 ]
	grep -q '^@: [1-9]' "$BATS_TEST_TMPDIR/out"
	sema=$(read_semaphore "$pid" "$HTTPD" http request)
	kill "$app"
	wait "$app" || true
	echo "after exit: $sema" >&2
	[ "$sema" -eq 0 ]
	[ ! -s "$BATS_TEST_TMPDIR/err" ]
}

@test "exit: the enable word is 0 once sidetrace has exited" {
	semaphore_after_exit
}

@test "exit with one perf-event uprobe per site: the enable word is 0 once it has exited" {
	semaphore_after_exit SIDETRACE_NO_UPROBE_MULTI=1
}

@test "exit: a reader of sidetrace's output sees its end when sidetrace exits" {
	# Command substitution waits for every writer of the pipe: no helper
	# of sidetrace's may hold its fds.
	out=$("$SIDETRACE" -e "BEGIN { printf(\"begin\\n\"); exit(); }
		side:$HTTPD:http:request { @ = count(); } END { printf(\"end\\n\"); }" 2>&1)
	# A count() without keys prints 0 with nothing counted, as bpftrace's.
	[ "$out" = "$(printf 'Attaching 3 probes...\nbegin\nend\n\n\n@: 0')" ]
	run -3 "$SIDETRACE" -e "side:$HTTPD:http:request { @ = count(); }" -c "sh -c 'exit 3'"
}

@test "each program agrees with the generic one: flat, plain and filtered one-liners" {
	# Served by sidetrace_flat (no keys), sidetrace_plain (keys), and,
	# with an always-true filter, by the generic sidetrace_event.
	local body='@h = hist(args.latency_ns); @s = sum(args.bytes); @m = max(args.status);
		@l = lhist(args.status, 100, 600, 100); @c = count();'
	local keyed='@k[args.method, args.status] = count(); @p[args.path] = hist(args.latency_ns);
		@b[tid, args.method] = sum(args.bytes);'
	run -0 st_httpd "side:$HTTPD:http:request { $body }"
	flat=$output
	run -0 st_httpd "side:$HTTPD:http:request /args.status >= 0/ { $body }"
	[ "$output" = "$flat" ]
	run -0 st_httpd "side:$HTTPD:http:request { $keyed }"
	plain=$(sed 's/@b\[[0-9]*,/@b[TID,/' <<<"$output" | sort)
	run -0 st_httpd "side:$HTTPD:http:request /args.status >= 0/ { $keyed }"
	[ "$(sed 's/@b\[[0-9]*,/@b[TID,/' <<<"$output" | sort)" = "$plain" ]
	[[ "$flat" == *"@c: 300"* ]]
	[[ "$plain" == *"@k[GET, 200]: "* ]]
}

@test "one keyed statement is served by sidetrace_keyed (keyed1: one key part) and agrees with the generic program" {
	local stmt keyed prog
	for stmt in 'keyed @k[args.method, args.status] = count();' \
		'keyed1 @p[args.path] = hist(args.latency_ns);' 'keyed @b[tid, args.path] = sum(args.bytes);' \
		'keyed1 @m[args.status] = max(args.latency_ns);' 'keyed1 @c[pid] = count();' \
		'keyed @t[args.status, args.method, args.path] = count();'; do
		prog=${stmt%% *}
		stmt=${stmt#* }
		run -0 "$SIDETRACE" -d -e "side:$HTTPD:http:request { $stmt }"
		[[ "${lines[1]}" == *", program $prog" ]]
		run -0 st_httpd "side:$HTTPD:http:request { $stmt }"
		keyed=$(sed 's/@b\[[0-9]*,/@b[TID,/; s/@c\[[0-9]*\]/@c[PID]/' <<<"$output" | sort)
		[[ "$keyed" == *"@"[kpbmtc]"["* ]]
		run -0 st_httpd "side:$HTTPD:http:request /args.status >= 0/ { $stmt }"
		[ "$(sed 's/@b\[[0-9]*,/@b[TID,/; s/@c\[[0-9]*\]/@c[PID]/' <<<"$output" | sort)" = "$keyed" ]
	done
	# A session whose largest key does not fit the program's stack (three
	# strings, 200 bytes) is served by sidetrace_plain.
	run -0 "$SIDETRACE" -d -e "side:$HTTPD:http:request { @[args.method, args.path, args.method] = count(); }"
	[[ "${lines[1]}" == *", program plain" ]]
	run -0 "$SIDETRACE" -d -e "side:$HTTPD:http:request { @[args.method, args.path] = count(); }"
	[[ "${lines[1]}" == *", program keyed" ]]
}
