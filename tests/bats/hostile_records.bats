#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# A traced process that writes records no engine makes into the memory
# it shares with its --in-process collector (tests/fixtures/hostile.c:
# nested dynamic vlas of 0xffff elements, the last item cut; "flood"
# without end, ignoring the session's stop; a printf's records sent as
# print(args)'s). The ASan+UBSan collector
# (make asan) drops each one and counts it against the process, prints
# no line of it, answers SIGINT within a second, and a second, honest
# process in the same session keeps its exact output; under -p and for
# every process, with print(args) and with printf.

load helpers

ASAN_ST="$OUT/asan/sidetrace"
export ASAN_OPTIONS=abort_on_error=0:exitcode=86:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:exitcode=87:print_stacktrace=1
# The most text of one record (output/record_print.h ST_REC_TEXT_MAX).
REC_TEXT_MAX=65536
N=20000

setup_file() {
	[ -x "$ASAN_ST" ] || {
		echo "$ASAN_ST is not built (make asan)" >&2
		return 1
	}
	build_hostile "$BATS_FILE_TMPDIR/hostile"
}

setup() {
	BIN="$BATS_TEST_TMPDIR/hostile"
	cp "$BATS_FILE_TMPDIR/hostile" "$BIN"
	GO="$BATS_TEST_TMPDIR/go"
	ST_OUT="$BATS_TEST_TMPDIR/st.out"
	ST_ERR="$BATS_TEST_TMPDIR/st.err"
}

teardown() {
	kill ${HOSTILE:-} ${HONEST:-} 2>/dev/null || true
}

# Starts the fixture in MODE for n events once $GO exists; sets $2 to its pid.
start_hostile() { # mode var n
	start_app "$BATS_TEST_TMPDIR/$1.txt" "$BIN" -w "$GO" "$1" "$3"
	printf -v "$2" %s "$APP_PID"
	printf -v "$2_SH" %s "$APP"
}

# The ASan collector in the background, its output files bounded at 100 MB
# (a collector that floods them is killed); ST is its pid.
start_collector() { # sidetrace arguments...
	bash -c 'ulimit -f 102400; exec "$@"' _ "$ASAN_ST" "$@" > "$ST_OUT" 2> "$ST_ERR" &
	ST=$!
}

# Waits until the collector says that each pid runs the probes itself (at most 30 s).
wait_served() { # pid...
	local pid i
	for pid in "$@"; do
		for i in $(seq 600); do
			grep -q "pid $pid runs the side: probes in the process" "$ST_ERR" && break
			sleep 0.05
		done
		grep -q "pid $pid runs the side: probes in the process" "$ST_ERR"
	done
}

# SIGINT to the collector: sets ANSWER_MS to the time until it ended, ST_RC to its status.
interrupt() {
	local t0
	t0=$(date +%s%N)
	kill -INT "$ST"
	wait "$ST" && ST_RC=0 || ST_RC=$?
	ANSWER_MS=$((($(date +%s%N) - t0) / 1000000))
}

# What holds in every case: no sanitizer report, every line of the output
# one of the honest forms (FORM, an extended regex), none longer than a
# record's budget, and the hostile pid's malformed records said.
check_common() { # form hostile-pid
	cat "$ST_ERR" >&2
	[ "${ST_RC:-0}" -eq 0 ]
	! grep -q -e Sanitizer -e 'runtime error' "$ST_ERR"
	[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$ST_OUT")" -le $REC_TEXT_MAX ]
	! grep -Ev -e "$1" -e '^Attaching 1 probe\.\.\.$' -e '^\{"type": "(attached_probes|lost)"' "$ST_OUT"
	grep -Eq "^sidetrace: pid $2: [1-9][0-9]* records malformed, dropped$" "$ST_ERR"
}

# The honest process's N events, exactly, from what select prints of the output.
# The collector counted, for the hostile process, exactly the records it
# says it sent (at least one) as malformed.
dropped_as_sent() { # mode
	local sent
	sent=$(sed -n 's/^hostile: \([0-9]*\) records sent$/\1/p' "$BATS_TEST_TMPDIR/$1.txt")
	[ "${sent:-0}" -gt 0 ]
	grep -qx "sidetrace: pid $HOSTILE: $sent records malformed, dropped" "$ST_ERR"
}

check_honest() { # select-command...
	diff <(seq 0 $((N - 1))) <("$@" | sort -n)
	! grep -q "pid $HONEST: .*malformed" "$ST_ERR"
}

@test "-p, print(args): every record of nested vlas cut dropped and counted exactly, the rest printed" {
	start_hostile vla HOSTILE $N
	start_collector --in-process -p "$HOSTILE" -e "side:$BIN:hs:tick { print(args); }"
	wait_served "$HOSTILE"
	touch "$GO"
	wait "$HOSTILE_SH"
	wait "$ST" && ST_RC=0 || ST_RC=$?
	cat "$BATS_TEST_TMPDIR/vla.txt"
	check_common '^\{ \.i = [0-9]+ \}$' "$HOSTILE"
	dropped_as_sent vla
	[ "$(grep -c '^{ .i = ' "$ST_OUT")" -eq $N ]
}

@test "-p, printf: a process flooding its ring without end, said each second under -v; SIGINT answered within a second" {
	start_hostile flood HOSTILE 1000000
	start_collector -v --in-process -p "$HOSTILE" -e "side:$BIN:hs:tick { printf(\"%d\\n\", args.i); }"
	wait_served "$HOSTILE"
	touch "$GO"
	sleep 2.5
	interrupt
	echo "SIGINT answered in $ANSWER_MS ms" >&2
	check_common '^[0-9]+$' "$HOSTILE"
	# Once a second as it grows, then at the end.
	[ "$(grep -c "^sidetrace: pid $HOSTILE: [0-9]* records malformed, dropped$" "$ST_ERR")" -ge 3 ]
	[ "$ANSWER_MS" -lt 1000 ]
}

@test "every process, print(args): a flooding process beside an honest one, whose events print exactly; SIGINT within a second" {
	start_hostile flood HOSTILE 1000000
	start_hostile honest HONEST $N
	start_collector --in-process -f json -e "side:$BIN:hs:tick { print(args); }"
	wait_served "$HOSTILE" "$HONEST"
	touch "$GO"
	wait "$HONEST_SH"
	interrupt
	echo "SIGINT answered in $ANSWER_MS ms" >&2
	check_common '^\{"type": "event", "probe": "side:[^"]*:hs:tick", "pid": [0-9]+, "tid": [0-9]+, "time_ns": [0-9]+, "data": \{"i": [0-9]+\}\}$' "$HOSTILE"
	check_honest jq -r "select(.type == \"event\" and .pid == $HONEST) | .data.i" "$ST_OUT"
	[ "$ANSWER_MS" -lt 1000 ]
}

@test "every process, printf: nested vlas cut beside an honest process: each counted exactly, the honest output exact" {
	start_hostile vla HOSTILE $N
	start_hostile honest HONEST $N
	start_collector --in-process -e "side:$BIN:hs:tick { printf(\"%d %d\\n\", pid, args.i); }"
	wait_served "$HOSTILE" "$HONEST"
	touch "$GO"
	wait "$HOSTILE_SH" "$HONEST_SH"
	interrupt
	echo "SIGINT answered in $ANSWER_MS ms" >&2
	cat "$BATS_TEST_TMPDIR/vla.txt"
	check_common '^[0-9]+ [0-9]+$' "$HOSTILE"
	dropped_as_sent vla
	check_honest awk -v p="$HONEST" '$1 == p { print $2 }' "$ST_OUT"
	[ "$(grep -c "^$HOSTILE " "$ST_OUT")" -eq $N ]
	[ "$ANSWER_MS" -lt 1000 ]
}

@test "-p, printf -f json: a printf's records sent as print(args)'s, its integer never read as a string" {
	start_hostile args HOSTILE $N
	start_collector --in-process -f json -p "$HOSTILE" \
		-e "side:$BIN:hs:tick { printf(\"%d\\n\", args.i > 5 ? 1 : 0); }"
	wait_served "$HOSTILE"
	touch "$GO"
	wait "$HOSTILE_SH"
	wait "$ST" && ST_RC=0 || ST_RC=$?
	cat "$BATS_TEST_TMPDIR/args.txt"
	check_common '^\{"type": "printf", "data": "[01]\\n"\}$' "$HOSTILE"
	dropped_as_sent args
	[ "$(grep -c '"type": "printf"' "$ST_OUT")" -eq $N ]
}
