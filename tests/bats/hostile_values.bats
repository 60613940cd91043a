#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# What a traced process leaves in the memory it shares with root's
# --in-process collector is read back as more CPUs of the kernel's maps,
# and the process may have written anything there: values no engine
# counts (a count of -1, a sum of INT64_MIN, whose average overflowed the
# division: SIGFPE) and keys naming another process. The process affects
# its own counts only: the collector, release and ASan+UBSan builds alike,
# neither traps nor aborts, and an honest process traced in the same
# session keeps exact counts. tests/fixtures/hostile.c attacks.

load helpers

TICKS=30000
# The collector built with ASan and UBSan (make asan), which each case runs
# too.
ASAN_ST="${ASAN_SIDETRACE:-$OUT/asan/sidetrace}"
export ASAN_OPTIONS=abort_on_error=0:exitcode=86:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:exitcode=87:print_stacktrace=1

setup_file() {
	build_hostile "$BATS_FILE_TMPDIR/hostile"
}

setup() {
	[ -x "$ASAN_ST" ] || {
		echo "$ASAN_ST is not built (make asan)" >&2
		return 1
	}
	APPBIN="$BATS_TEST_TMPDIR/hostile"
	cp "$BATS_FILE_TMPDIR/hostile" "$APPBIN"
	GO="$BATS_TEST_TMPDIR/go"
	STARTED=()
}

teardown() {
	local p
	for p in "${STARTED[@]}"; do
		kill "$p" 2> /dev/null || true
	done
}

# The collectors each case runs: the one under test, and the ASan+UBSan build.
collectors() {
	echo "$SIDETRACE"
	[ "$SIDETRACE" -ef "$ASAN_ST" ] || echo "$ASAN_ST"
}

# Starts the fixture in mode, waiting for GO: APP_PID, its output in NAME.txt.
start_hostile() { # mode [ticks [name]]
	rm -f "$GO"
	start_app "$BATS_TEST_TMPDIR/${3:-$1}.txt" "$APPBIN" -w "$GO" "$1" "${2:-$TICKS}"
	STARTED+=("$APP")
}

# No sanitizer report, no trap: the collector's output (file) is clean.
clean() { # file
	! grep -Eq 'runtime error|Sanitizer|SUMMARY|Floating point' "$1"
}

# One -p session of collector st over a process attacking in mode (the
# last attack after its last event); st.txt its output, status its exit.
p_case() { # st mode program
	local st=$1 mode=$2
	start_hostile "$mode" $((TICKS + 1))
	timeout 60 "$st" --in-process -p "$APP_PID" -e "$3" > "$BATS_TEST_TMPDIR/st.txt" 2>&1 &
	ST=$!
	wait_attached "$BATS_TEST_TMPDIR/st.txt"
	touch "$GO"
	# The session ends with the process.
	status=0
	wait "$ST" || status=$?
	cat "$BATS_TEST_TMPDIR/$mode.txt" "$BATS_TEST_TMPDIR/st.txt"
	grep -qx "hostile $mode done" "$BATS_TEST_TMPDIR/$mode.txt"
	grep -q "pid $APP_PID runs the side: probes in the process" "$BATS_TEST_TMPDIR/st.txt"
}

@test "-p: avg(), stats() of count -1, sum INT64_MIN print the wrapped quotient, no trap" {
	local st f="$BATS_TEST_TMPDIR/st.txt"
	for st in $(collectors); do
		p_case "$st" avg "side:$APPBIN:hs:tick { @a = avg(args.i); @s = stats(args.i);
			@k[1] = avg(args.i); @c = count(); }"
		[ "$status" -eq 0 ]
		clean "$f"
		grep -qx '@a: -9223372036854775808' "$f"
		grep -qx '@s: count -1, average -9223372036854775808, total -9223372036854775808' "$f"
		grep -qx '@k\[1\]: -9223372036854775808' "$f"
		grep -qx '@c: 18446744073709551615' "$f"
	done
}

@test "-p: keys naming another pid are left out and said, the process's own exact" {
	local st f="$BATS_TEST_TMPDIR/st.txt"
	for st in $(collectors); do
		HOSTILE_VICTIM=$$ p_case "$st" pid "side:$APPBIN:hs:tick { @c[pid] = count();
			@v[pid] = args.i; }"
		[ "$status" -eq 0 ]
		clean "$f"
		grep -qx "@c\[$APP_PID\]: $((TICKS + 1))" "$f"
		grep -qx "@v\[$APP_PID\]: $TICKS" "$f"
		[ "$(grep -c '^@[cv]\[' "$f")" -eq 2 ]
		grep -Eq "^sidetrace: pid $APP_PID: [0-9]+ keys of its in-process memory left out" "$f"
	done
}

@test "every process: hostile values and forged pids beside an honest process, exact; SIGINT ends it" {
	local st f="$BATS_TEST_TMPDIR/st.txt" honest apps rc
	for st in $(collectors); do
		start_hostile honest
		honest=$APP_PID
		apps=("$APP")
		# Two: their sums, INT64_MIN each, overflowed the combined sum.
		start_hostile avg
		apps+=("$APP")
		start_hostile avg $TICKS avg2
		apps+=("$APP")
		HOSTILE_VICTIM=$honest start_hostile pid
		apps+=("$APP")
		"$st" --in-process -e "side:$APPBIN:hs:tick { @a = avg(args.i); @s = stats(args.i);
			@k[1] = avg(args.i); @c[pid] = count(); @v[pid] = args.i; }" > "$f" 2>&1 &
		ST=$!
		STARTED+=("$ST")
		for pid in "${apps[@]}"; do
			wait_attached "$f" "pid $pid runs the side: probes in the process"
		done
		touch "$GO"
		wait "${apps[@]}"
		kill -INT "$ST"
		rc=0
		wait "$ST" || rc=$?
		cat "$BATS_TEST_TMPDIR"/{honest,avg,avg2,pid}.txt "$f"
		[ "$rc" -eq 0 ]
		clean "$f"
		grep -qx "@c\[$honest\]: $TICKS" "$f"
		grep -qx "@v\[$honest\]: $((TICKS - 1))" "$f"
		[ "$(grep -c "^@[cv]\[$honest\]" "$f")" -eq 2 ]
	done
}

@test "every process: one that holds every entry and lock delays SIGINT's last read by no more than a second" {
	local st f="$BATS_TEST_TMPDIR/st.txt" honest held rc t0 t1
	for st in $(collectors); do
		start_hostile honest
		honest=$APP
		start_hostile held
		held=$APP_PID
		"$st" --in-process -e "side:$APPBIN:hs:tick { @c[pid] = count(); @k[1] = avg(args.i); }" \
			> "$f" 2>&1 &
		ST=$!
		STARTED+=("$ST")
		wait_attached "$f" "pid $honest runs the side: probes in the process"
		wait_attached "$f" "pid $held runs the side: probes in the process"
		touch "$GO"
		wait "$honest"
		# The held process paused once it held everything; sessions of both count.
		sleep 0.3
		t0=$(date +%s%N)
		kill -INT "$ST"
		rc=0
		wait "$ST" || rc=$?
		t1=$(date +%s%N)
		kill "$held"
		cat "$f"
		echo "exit $rc, $(((t1 - t0) / 1000000)) ms after SIGINT"
		[ "$rc" -eq 0 ]
		clean "$f"
		grep -qx "@c\[$honest\]: $TICKS" "$f"
		grep -Eq "^sidetrace: pid $held: [0-9]+ entries of its in-process memory skipped" "$f"
		[ $((t1 - t0)) -lt 1000000000 ]
	done
}
