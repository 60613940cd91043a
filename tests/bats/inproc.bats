#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# --in-process runs the side: probes inside the traced process
# (libside's agent and engine). Exact under threads, a process that exits
# mid-session loses nothing, a collector killed leaves the process running
# and its session undone within a second, a kernel session beside it counts
# the same events. Who may attach: tests/unit/test_api_inproc.c. The
# one-liner cases run in both engines (tests/oneliners, ONELINERS_ENGINE=inproc).

load helpers
bats_require_minimum_version 1.5.0

N=2000

setup_file() {
	cc -O2 -Wall -Werror -I"$ROOT/include" "$ROOT/tests/fixtures/fork_app.c" \
		-o "$BATS_FILE_TMPDIR/fork_app" "$OUT/libside.a" -lpthread
	# A worker that a server forks: it works a while after its start.
	cat > "$BATS_FILE_TMPDIR/worker.c" <<-'EOF'
	#include <sys/wait.h>
	#include <unistd.h>
	#include <side/trace.h>
	side_static_event(ev, "wk", "tick", SIDE_LOGLEVEL_INFO, side_field_list(side_field_u32("who")));
	int main(void)
	{
		pid_t c = fork();
		int i;

		if (!c)
			usleep(600000);
		for (i = 0; i < 100000; i++)
			side_event(ev, side_arg_list(side_arg_u32(!c)));
		if (c > 0)
			waitpid(c, NULL, 0);
		return 0;
	}
	EOF
	cc -O2 -Wall -Werror -I"$ROOT/include" "$BATS_FILE_TMPDIR/worker.c" \
		-o "$BATS_FILE_TMPDIR/worker" "$OUT/libside.a" -lpthread
	# Threads that emit, and nothing else: every event runs in the process's engine.
	cat > "$BATS_FILE_TMPDIR/emitters.c" <<-'EOF'
	#include <pthread.h>
	#include <side/trace.h>
	side_static_event(ev, "em", "tick", SIDE_LOGLEVEL_INFO, side_field_list(side_field_u32("n")));
	static void *emit(void *arg)
	{
		unsigned int i;

		for (i = 0; i < 20000; i++)
			side_event(ev, side_arg_list(side_arg_u32(i)));
		return arg;
	}
	int main(void)
	{
		pthread_t t[4];
		int i;

		for (i = 0; i < 4; i++)
			pthread_create(&t[i], NULL, emit, NULL);
		for (i = 0; i < 4; i++)
			pthread_join(t[i], NULL);
		return 0;
	}
	EOF
	cc -O2 -Wall -Werror -I"$ROOT/include" "$BATS_FILE_TMPDIR/emitters.c" \
		-o "$BATS_FILE_TMPDIR/emitters" "$OUT/libside.a" -lpthread
	cc -O2 -Wall -Werror -I"$ROOT/include" "$ROOT/tests/fixtures/ticker.c" \
		-o "$BATS_FILE_TMPDIR/ticker" "$OUT/libside.a" -lpthread
}

setup() {
	# A file of its own, that no earlier test's session has probed.
	APPBIN="$BATS_TEST_TMPDIR/fork_app"
	cp "$BATS_FILE_TMPDIR/fork_app" "$APPBIN"
	PROG="side:$APPBIN:fk:tick { @[args.who] = count(); @t[tid] = count(); }"
}

# The session's memory, mapped in the traced process while it lasts.
mapped() { # pid
	grep -q 'memfd:sidetrace-inproc' "/proc/$1/maps"
}

# The command runs the probes itself from its first event; the children
# it makes are followed in the kernel until the collector finds them.
@test "--in-process -c: 4 threads, every event counted, the process says where it runs" {
	run timeout 60 "$SIDETRACE" --in-process -c "$APPBIN threads $N" -e "$PROG"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -Eq 'pid [0-9]+ runs the side: probes in the process$' <<<"$output"
	grep -qx 'children ok' <<<"$output"
	grep -qx "@\[0\]: $((4 * N))" <<<"$output"
	grep -qx "@\[1\]: $((4 * N))" <<<"$output"
	# One key per worker with its N events (each child's has its one).
	[ "$(grep -c "^@t\[[0-9]*\]: $N$" <<<"$output")" -eq 4 ]
}

@test "--in-process -c with no probe a process can run: the kernel runs them, and says so" {
	run --separate-stderr timeout 60 "$SIDETRACE" --in-process -c "$APPBIN fork 3" \
		-e "side:$APPBIN:fk:tick { @[args.who] = count(); @k[ustack(1)] = count(); }"
	echo "$output$stderr"
	[ "$status" -eq 0 ]
	[[ "$stderr" == *"--in-process: the kernel runs every probe: none is a side: probe"* ]]
	[[ "$stderr" != *"runs the side: probes in the process"* ]]
	grep -qx '@\[0\]: 3' <<<"$output"
	grep -qx '@\[1\]: 3' <<<"$output"
}

@test "--in-process -c: 4 threads, an event's two printfs never split by another thread's" {
	local em="$BATS_FILE_TMPDIR/emitters"
	run timeout 60 "$SIDETRACE" -b 64M --in-process -c "$em" \
		-e "side:$em:em:tick { printf(\"%d \", tid); printf(\"%d\\n\", tid); }"
	[ "$status" -eq 0 ]
	grep -Eq 'pid [0-9]+ runs the side: probes in the process$' <<<"$output"
	pairs=$(grep -Ec '^[0-9]+ [0-9]+$' <<<"$output")
	split=$(grep -E '^[0-9]+ [0-9]+' <<<"$output" | awk '$1 != $2 || NF != 2' | wc -l)
	echo "pairs=$pairs split=$split" >&2
	[ "$pairs" -eq $((4 * 20000)) ]
	[ "$split" -eq 0 ]
}

@test "--in-process -c: a worker the command forks runs the probes itself once found, exactly" {
	local w="$BATS_FILE_TMPDIR/worker"
	run timeout 60 "$SIDETRACE" --in-process -c "$w" -e "side:$w:wk:tick { @[args.who] = count(); }"
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'runs the side: probes in the process' <<<"$output")" -eq 2 ]
	grep -qx '@\[0\]: 100000' <<<"$output"
	grep -qx '@\[1\]: 100000' <<<"$output"
}

@test "--in-process -c: a forked child lives, the parent's events and the children's counted" {
	run timeout 60 "$SIDETRACE" --in-process -c "$APPBIN fork 5" -e "$PROG"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'children ok' <<<"$output"
	grep -qx '@\[0\]: 5' <<<"$output"
	grep -qx '@\[1\]: 5' <<<"$output"
}

# The kernel's probes of an in-process session sit on each site's
# fallback (side/probe.h): a process that serves itself disarms them and
# takes no trap; a child it forks has them armed again until found. The
# command's counts are exact either way.
fallback_case() { # child's state, sidetrace's options...
	local child=$1
	shift
	run timeout 60 "$SIDETRACE" "$@" -c "$APPBIN fallback 3" -e "$PROG"
	echo "$output"
	[ "$status" -eq 0 ]
	grep -qx 'parent fallback: not armed' <<<"$output"
	grep -qx "child fallback: $child" <<<"$output"
	grep -qx 'children ok' <<<"$output"
	grep -qx '@\[0\]: 3' <<<"$output"
	grep -qx '@\[1\]: 1' <<<"$output"
}

@test "--in-process -c: the command disarms the kernel's fallback probe, its child has it armed" {
	fallback_case armed --in-process
}

@test "the kernel path probes the site itself: no fallback armed" {
	fallback_case "not armed"
}

@test "--in-process -p: a process that exits mid-session loses none of its counts" {
	local st
	start_app "$BATS_TEST_TMPDIR/app.txt" "$APPBIN" -w "$BATS_TEST_TMPDIR/go" threads "$N"
	timeout 60 "$SIDETRACE" --in-process -p "$APP_PID" -e "$PROG" > "$BATS_TEST_TMPDIR/st.txt" 2>&1 &
	st=$!
	wait_attached "$BATS_TEST_TMPDIR/st.txt"
	touch "$BATS_TEST_TMPDIR/go"
	wait "$APP" || rc=$?
	wait $st
	cat "$BATS_TEST_TMPDIR/app.txt" "$BATS_TEST_TMPDIR/st.txt"
	[ "${rc:-0}" -eq 0 ]
	grep -qx "@\[0\]: $((4 * N))" "$BATS_TEST_TMPDIR/st.txt"
	[ "$(grep -c '^@t\[' "$BATS_TEST_TMPDIR/st.txt")" -eq 4 ]
}

@test "--in-process beside a kernel session on the same event: each counts every event" {
	local k i
	start_app "$BATS_TEST_TMPDIR/app.txt" "$APPBIN" -w "$BATS_TEST_TMPDIR/go" threads "$N"
	timeout 60 "$SIDETRACE" -p "$APP_PID" -e "$PROG" > "$BATS_TEST_TMPDIR/k.txt" 2>&1 &
	k=$!
	timeout 60 "$SIDETRACE" --in-process -p "$APP_PID" -e "$PROG" > "$BATS_TEST_TMPDIR/i.txt" 2>&1 &
	i=$!
	wait_attached "$BATS_TEST_TMPDIR/k.txt"
	wait_attached "$BATS_TEST_TMPDIR/i.txt"
	touch "$BATS_TEST_TMPDIR/go"
	wait "$APP"
	wait $k $i
	cat "$BATS_TEST_TMPDIR/k.txt" "$BATS_TEST_TMPDIR/i.txt"
	grep -qx "@\[0\]: $((4 * N))" "$BATS_TEST_TMPDIR/k.txt"
	grep -qx "@\[0\]: $((4 * N))" "$BATS_TEST_TMPDIR/i.txt"
	grep -q 'runs the side: probes in the process' "$BATS_TEST_TMPDIR/i.txt"
	! grep -q 'runs the side: probes in the process' "$BATS_TEST_TMPDIR/k.txt"
}

@test "--in-process: a collector killed with SIGKILL leaves the process running, its session undone within a second" {
	local st i
	"$HTTPD" -p -d 30 -r 2000 > "$BATS_TEST_TMPDIR/app.txt" &
	APP=$!
	for i in $(seq 100); do
		APP_PID=$(head -1 "$BATS_TEST_TMPDIR/app.txt" 2>/dev/null)
		[ -n "$APP_PID" ] && break
		sleep 0.05
	done
	"$SIDETRACE" --in-process -p "$APP_PID" -e "side:$HTTPD:http:request { @[args.path] = count(); }" \
		> "$BATS_TEST_TMPDIR/st.txt" 2>&1 &
	st=$!
	wait_attached "$BATS_TEST_TMPDIR/st.txt"
	mapped "$APP_PID"
	kill -KILL $st
	wait $st || true
	for i in $(seq 10); do
		mapped "$APP_PID" || break
		sleep 0.1
	done
	! mapped "$APP_PID"
	kill -0 "$APP"
	# Undone: a new session attaches at once, and counts.
	run timeout 20 "$SIDETRACE" --in-process -p "$APP_PID" \
		-e "side:$HTTPD:http:request { @ = count(); } interval:ms:300 { exit(); }"
	echo "$output"
	kill "$APP"
	wait "$APP" || true
	[ "$status" -eq 0 ]
	grep -q 'runs the side: probes in the process' <<<"$output"
	grep -Eq '^@: [1-9][0-9]*$' <<<"$output"
}

@test "--in-process -p with no side: probe for a process to run: said, the kernel path traces" {
	sleep 30 &
	local pid=$!
	run timeout 20 "$SIDETRACE" --in-process -p $pid \
		-e "tracepoint:syscalls:sys_enter_nanosleep { @ = count(); } interval:ms:100 { exit(); }"
	kill $pid
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q -- "--in-process: the kernel runs every probe: none is a side: probe" <<<"$output"
	! grep -q "runs the side: probes in the process" <<<"$output"
	grep -Eq '^@: [0-9]+$' <<<"$output"
}

# A session of every process running program while the app start_app
# started (waiting for $BATS_TEST_TMPDIR/go) runs to its end; then SIGINT.
# The app's output and the session's are printed.
session_of_all_over_app() { # program
	local st
	"$SIDETRACE" --in-process -e "$1" > "$BATS_TEST_TMPDIR/st.txt" 2>&1 &
	st=$!
	wait_attached "$BATS_TEST_TMPDIR/st.txt"
	touch "$BATS_TEST_TMPDIR/go"
	wait "$APP"
	kill -INT $st
	wait $st
	cat "$BATS_TEST_TMPDIR/app.txt" "$BATS_TEST_TMPDIR/st.txt"
}

@test "--in-process of every process: a process running at the start runs the probes itself, exactly; its children live" {
	start_app "$BATS_TEST_TMPDIR/app.txt" "$APPBIN" -w "$BATS_TEST_TMPDIR/go" threads "$N"
	session_of_all_over_app "$PROG"
	grep -qx 'children ok' "$BATS_TEST_TMPDIR/app.txt"
	grep -q "pid $APP_PID runs the side: probes in the process" "$BATS_TEST_TMPDIR/st.txt"
	grep -qx "@\[0\]: $((4 * N))" "$BATS_TEST_TMPDIR/st.txt"
	grep -qx "@\[1\]: $((4 * N))" "$BATS_TEST_TMPDIR/st.txt"
}

@test "--in-process of every process: a process without the runtime's agent is traced by the kernel" {
	start_app "$BATS_TEST_TMPDIR/app.txt" env SIDE_INPROC=0 "$APPBIN" -w "$BATS_TEST_TMPDIR/go" threads "$N"
	session_of_all_over_app "$PROG"
	! grep -q "pid $APP_PID runs the side: probes in the process" "$BATS_TEST_TMPDIR/st.txt"
	grep -qx "@\[0\]: $((4 * N))" "$BATS_TEST_TMPDIR/st.txt"
	grep -qx "@\[1\]: $((4 * N))" "$BATS_TEST_TMPDIR/st.txt"
}

@test "serve --in-process: a process's own counts reach the scrape, exactly" {
	local log="$BATS_TEST_TMPDIR/serve.log"
	start_app "$BATS_TEST_TMPDIR/app.txt" "$APPBIN" -w "$BATS_TEST_TMPDIR/go" threads "$N"
	start_serve "$log" --in-process -e "side:$APPBIN:fk:tick { @ticks[args.who] = count(); }"
	wait_attached "$log" "pid $APP_PID runs the side: probes in the process"
	cat "$log"
	touch "$BATS_TEST_TMPDIR/go"
	wait "$APP"
	run curl -sf "http://$SERVE_ADDR/metrics"
	kill -TERM $SERVE_PID
	wait $SERVE_PID
	echo "$output"
	[[ "$output" == *"sidetrace_ticks_total{who=\"0\"} $((4 * N))"* ]]
}

# Reads the session's shared memory in process pid (/proc/PID/mem) into file.
read_shm() { # pid file
	python3 - "$1" "$2" <<'PY'
import sys
pid, out = sys.argv[1], sys.argv[2]
for line in open(f"/proc/{pid}/maps"):
    if "memfd:sidetrace-inproc" in line:
        lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
        with open(f"/proc/{pid}/mem", "rb") as m:
            m.seek(lo)
            open(out, "wb").write(m.read(hi - lo))
        break
PY
}

@test "--in-process: a string literal is keyed by its address, as the kernel keys it; a heap string by its bytes" {
	cat > "$BATS_TEST_TMPDIR/lit.c" <<-'EOF'
	#include <stdlib.h>
	#include <string.h>
	#include <unistd.h>
	#include <side/trace.h>
	side_static_event(ev, "lit", "op", SIDE_LOGLEVEL_INFO, side_field_list(side_field_string("name")));
	int main(void)
	{
		char *heap = strdup("HEAP_ONLY_NAME");
		int i;

		for (i = 0; i < 400; i++) {
			side_event(ev, side_arg_list(side_arg_string(i % 2 ? heap : "LITERAL_ONLY_NAME")));
			usleep(10000);
		}
		free(heap);
		return 0;
	}
	EOF
	cc -O2 -Wall -Werror -I"$ROOT/include" "$BATS_TEST_TMPDIR/lit.c" -o "$BATS_TEST_TMPDIR/lit" \
		"$OUT/libside.a" -lpthread
	"$BATS_TEST_TMPDIR/lit" &
	local app=$! st
	timeout 60 "$SIDETRACE" --in-process -p "$app" \
		-e "side:$BATS_TEST_TMPDIR/lit:lit:op { @[args.name] = count(); }" > "$BATS_TEST_TMPDIR/st.txt" 2>&1 &
	st=$!
	wait_attached "$BATS_TEST_TMPDIR/st.txt"
	sleep 1
	read_shm "$app" "$BATS_TEST_TMPDIR/shm"
	wait "$app"
	wait $st
	cat "$BATS_TEST_TMPDIR/st.txt"
	grep -q 'runs the side: probes in the process' "$BATS_TEST_TMPDIR/st.txt"
	# Both counted, both printed by their strings.
	grep -q '^@\[LITERAL_ONLY_NAME\]: [1-9]' "$BATS_TEST_TMPDIR/st.txt"
	grep -q '^@\[HEAP_ONLY_NAME\]: [1-9]' "$BATS_TEST_TMPDIR/st.txt"
	# In the engine's keys, only the heap string's bytes: the literal was never read.
	grep -aq HEAP_ONLY_NAME "$BATS_TEST_TMPDIR/shm"
	! grep -aq LITERAL_ONLY_NAME "$BATS_TEST_TMPDIR/shm"
	# The same for a -c command, which the collector reaches as it starts.
	rm -f "$BATS_TEST_TMPDIR/shm"
	timeout 60 "$SIDETRACE" --in-process -c "$BATS_TEST_TMPDIR/lit" \
		-e "side:$BATS_TEST_TMPDIR/lit:lit:op { @[args.name] = count(); }" > "$BATS_TEST_TMPDIR/st.txt" 2>&1 &
	st=$!
	wait_attached "$BATS_TEST_TMPDIR/st.txt"
	sleep 1
	read_shm "$(pgrep -f "^$BATS_TEST_TMPDIR/lit\$")" "$BATS_TEST_TMPDIR/shm"
	wait $st
	grep -q '^@\[LITERAL_ONLY_NAME\]: 200$' "$BATS_TEST_TMPDIR/st.txt"
	grep -aq HEAP_ONLY_NAME "$BATS_TEST_TMPDIR/shm"
	! grep -aq LITERAL_ONLY_NAME "$BATS_TEST_TMPDIR/shm"
}

# A process taken over in the middle of its stream of events: those before
# the switch are the kernel's, those after it the engine's, and every event
# is counted once (the site's fallback decides, side/probe.h). Three runs,
# each with four threads emitting.
TICKS=50000
ticker_prog() { # binary
	echo "side:$1:tk:tick { @ = count(); @s = sum(args.seq); }"
}

# The sum of seq over THREADS threads of N ticks each: every event once.
ticker_sum() { # threads n
	echo $(($1 * $2 * ($2 - 1) / 2))
}

ticker_exact() { # output threads n
	grep -qx "@: $(($2 * $3))" <<<"$1"
	grep -qx "@s: $(ticker_sum "$2" "$3")" <<<"$1"
}

@test "--in-process of every process: taken over mid-stream, every event counted once" {
	local r
	for r in 1 2 3; do
		cp "$BATS_FILE_TMPDIR/ticker" "$BATS_TEST_TMPDIR/ticker"
		rm -f "$BATS_TEST_TMPDIR/go"
		start_app "$BATS_TEST_TMPDIR/app.txt" "$BATS_TEST_TMPDIR/ticker" \
			-w "$BATS_TEST_TMPDIR/go" 4 $TICKS
		session_of_all_over_app "$(ticker_prog "$BATS_TEST_TMPDIR/ticker")"
		grep -q "pid $APP_PID runs the side: probes in the process" "$BATS_TEST_TMPDIR/st.txt"
		ticker_exact "$(cat "$BATS_TEST_TMPDIR/st.txt")" 4 $TICKS
	done
}

@test "--in-process -c through a wrapper: its child taken over mid-stream, every event counted once" {
	local w cmd="$BATS_FILE_TMPDIR/ticker 4 $TICKS"
	for w in "sh -c '$cmd'" "env $cmd" "nice $cmd" "/usr/bin/time $cmd"; do
		run timeout 60 "$SIDETRACE" --in-process -c "$w" \
			-e "$(ticker_prog "$BATS_FILE_TMPDIR/ticker")"
		echo "$w: $output"
		[ "$status" -eq 0 ]
		grep -q 'runs the side: probes in the process' <<<"$output"
		ticker_exact "$output" 4 $TICKS
	done
}

@test "serve --in-process: processes taken over mid-stream, every event counted once" {
	local log="$BATS_TEST_TMPDIR/serve.log" r
	cp "$BATS_FILE_TMPDIR/ticker" "$BATS_TEST_TMPDIR/ticker"
	start_serve "$log" --in-process -e "side:$BATS_TEST_TMPDIR/ticker:tk:tick { @ticks = count(); }"
	for r in 1 2 3; do
		"$BATS_TEST_TMPDIR/ticker" 2 $TICKS > /dev/null
	done
	run curl -sf "http://$SERVE_ADDR/metrics"
	kill -TERM $SERVE_PID
	wait $SERVE_PID
	cat "$log"
	echo "$output"
	grep -q 'runs the side: probes in the process' "$log"
	[[ "$output" == *"sidetrace_ticks_total $((3 * 2 * TICKS))"* ]]
}
