#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# A traced process is not trusted (docs/ARCHITECTURE.md, "What a traced
# process can do"): under --in-process it shares memory and a socket with
# root's collector, and may write or answer anything there. It affects its
# own counts and records, never the session's life, the collector's time,
# or another process's results. tests/fixtures/hostile.c attacks; an
# honest process traced in the same session keeps exact counts. The whole
# file runs again with the ASan+UBSan collector (tests/asan.sh).

load helpers

TICKS=30000

setup_file() {
	build_hostile "$BATS_FILE_TMPDIR/hostile"
}

setup() {
	APPBIN="$BATS_TEST_TMPDIR/hostile"
	cp "$BATS_FILE_TMPDIR/hostile" "$APPBIN"
	PROG="side:$APPBIN:hs:tick { @[pid] = count(); }"
	GO="$BATS_TEST_TMPDIR/go"
}

teardown() {
	pkill -f "$APPBIN" 2>/dev/null || true
}

# Starts the collector (options...) in the background: ST, its output in st.txt.
start_st() {
	"$SIDETRACE" "$@" > "$BATS_TEST_TMPDIR/st.txt" 2>&1 &
	ST=$!
	wait_attached "$BATS_TEST_TMPDIR/st.txt"
}

# Sends signal to pid, which must exit 0 within a second.
stop_within_a_second() { # signal pid
	local t0 t1 rc=0
	t0=$(date +%s%N)
	kill -"$1" "$2"
	wait "$2" || rc=$?
	t1=$(date +%s%N)
	echo "exit $rc after $(((t1 - t0) / 1000000)) ms"
	[ "$rc" -eq 0 ] && [ $((t1 - t0)) -lt 1000000000 ]
}

# The same with SIGINT for ST, whose output is printed after.
stop_st_within_a_second() {
	local ok=0
	stop_within_a_second INT "$ST" || ok=$?
	cat "$BATS_TEST_TMPDIR/st.txt"
	return $ok
}

# The honest process (pid) was counted exactly, in the process.
honest_exact() { # pid
	grep -q "pid $1 runs the side: probes in the process" "$BATS_TEST_TMPDIR/st.txt"
	grep -qx "@\[$1\]: $TICKS" "$BATS_TEST_TMPDIR/st.txt"
}

# A hostile process (mode) and an honest one under a session (options...).
exit_word_case() { # sidetrace options...
	local hostile honest
	start_app "$BATS_TEST_TMPDIR/honest.txt" "$APPBIN" -w "$GO" honest $TICKS
	honest=$APP
	start_app "$BATS_TEST_TMPDIR/hostile.txt" "$APPBIN" -w "$GO" exit $TICKS
	hostile=$APP
	start_st "$@" -e "$PROG"
	touch "$GO"
	wait "$hostile" "$honest"
	# Its program has no exit(): the word the process set ends nothing.
	sleep 0.3
	kill -0 "$ST"
	stop_st_within_a_second
	grep -qx 'hostile exit done' "$BATS_TEST_TMPDIR/hostile.txt"
	honest_exact "$honest"
}

@test "the exit word of a process: a session of every process ends only on SIGINT" {
	exit_word_case --in-process
}

@test "the exit word of a process: a -p session ends only on SIGINT" {
	local pid
	start_app "$BATS_TEST_TMPDIR/hostile.txt" "$APPBIN" -w "$GO" exit $((TICKS * 10))
	pid=$APP_PID
	start_st --in-process -p "$pid" -e "$PROG"
	touch "$GO"
	# The process sets the word after every 1,000 of its events, for seconds.
	sleep 1
	kill -0 "$pid"
	kill -0 "$ST"
	stop_st_within_a_second
	grep -q "pid $pid runs the side: probes in the process" "$BATS_TEST_TMPDIR/st.txt"
}

@test "the exit word of a process whose program runs exit(): it ends the session, as the event would" {
	local pid
	start_app "$BATS_TEST_TMPDIR/hostile.txt" "$APPBIN" -w "$GO" exit $((TICKS * 10))
	pid=$APP_PID
	touch "$GO"
	run timeout 30 "$SIDETRACE" --in-process -p "$pid" \
		-e "side:$APPBIN:hs:tick /args.i == 1/ { exit(); } side:$APPBIN:hs:tick { @ = count(); }"
	echo "$output"
	[ "$status" -eq 0 ]
	kill -0 "$pid"
}

# Six silent agents hold six of the eight attach threads (ST_INPROC_ATTACHING)
# for their 5 s; the honest process gets one of the others. Were they all
# held, it would stay on the kernel path, its counts exact still.
@test "silent agents: SIGINT is answered within a second, an honest process is exact" {
	local honest i
	for i in 1 2 3 4 5 6; do
		SIDE_INPROC=0 "$APPBIN" -w "$GO" silent $TICKS > /dev/null &
	done
	start_app "$BATS_TEST_TMPDIR/honest.txt" "$APPBIN" -w "$GO" honest $TICKS
	honest=$APP
	start_st --in-process -e "$PROG"
	touch "$GO"
	wait "$honest"
	sleep 0.3
	stop_st_within_a_second
	honest_exact "$APP_PID"
}

@test "silent agents under serve: an honest process reaches the scrape exactly, SIGTERM answered within a second" {
	local log="$BATS_TEST_TMPDIR/serve.log" i
	for i in 1 2 3 4 5 6; do
		SIDE_INPROC=0 "$APPBIN" -w "$GO" silent $TICKS > /dev/null &
	done
	start_serve "$log" --in-process -e "side:$APPBIN:hs:tick { @ticks[pid] = count(); }"
	start_app "$BATS_TEST_TMPDIR/honest.txt" "$APPBIN" -w "$GO" honest $TICKS
	touch "$GO"
	wait "$APP"
	sleep 0.3
	run curl -sf "http://$SERVE_ADDR/metrics"
	stop_within_a_second TERM $SERVE_PID
	cat "$log"
	echo "$output" | grep ticks
	grep -q "pid $APP_PID runs the side: probes in the process" "$log"
	[[ "$output" == *"sidetrace_ticks_total{pid=\"$APP_PID\"} $TICKS"* ]]
}

# Random words over the whole mapping, again and again: whatever the
# collector reads back of that process, it neither crashes nor stalls, and
# the honest process's counts stay exact.
@test "random words over the shared memory: the session lives, SIGINT within a second, an honest process exact" {
	local honest hostile
	start_app "$BATS_TEST_TMPDIR/honest.txt" "$APPBIN" -w "$GO" honest $TICKS
	honest=$APP
	start_app "$BATS_TEST_TMPDIR/hostile.txt" "$APPBIN" -w "$GO" random $TICKS
	hostile=$APP
	start_st --in-process -e "$PROG side:$APPBIN:hs:tick { @a = avg(args.i); @s = stats(args.i);
		@h = hist(args.i); @k[args.i % 7] = sum(args.i); printf(\"%d\\n\", args.i % 2); }"
	touch "$GO"
	wait "$hostile" "$honest"
	sleep 0.3
	kill -0 "$ST"
	stop_st_within_a_second
	grep -qx 'hostile random done' "$BATS_TEST_TMPDIR/hostile.txt"
	honest_exact "$honest"
}

@test "random words under serve: the scrape goes on, an honest process exact, SIGTERM within a second" {
	local log="$BATS_TEST_TMPDIR/serve.log" honest hostile
	start_app "$BATS_TEST_TMPDIR/honest.txt" "$APPBIN" -w "$GO" honest $TICKS
	honest=$APP
	start_app "$BATS_TEST_TMPDIR/hostile.txt" "$APPBIN" -w "$GO" random $TICKS
	hostile=$APP
	start_serve "$log" --in-process -e "side:$APPBIN:hs:tick { @ticks[pid] = count();
		@a = avg(args.i); @k[args.i % 7] = sum(args.i); }"
	wait_attached "$log" "pid $honest runs the side: probes in the process"
	wait_attached "$log" "pid $hostile runs the side: probes in the process"
	touch "$GO"
	wait "$hostile" "$honest"
	run curl -sf "http://$SERVE_ADDR/metrics"
	[ "$status" -eq 0 ]
	stop_within_a_second TERM $SERVE_PID
	cat "$log"
	echo "$output" | grep ticks
	[[ "$output" == *"sidetrace_ticks_total{pid=\"$honest\"} $TICKS"* ]]
}
