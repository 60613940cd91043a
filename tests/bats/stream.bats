#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Printed events never block the app and are never lost silently:
# delivered + lost = emitted; the output's reader may leave; Ctrl-C prints
# what the buffer holds, then the maps.

load helpers

PROG_REQ() { # printf of every http:request
	echo "side:$HTTPD:http:request { printf(\"%s %s %u\\n\", args.method, args.path, args.status); }"
}

@test "a stopped reader and a tiny buffer: delivered + lost equals emitted, per probe" {
	out="$BATS_TEST_TMPDIR/out"
	"$SIDETRACE" -b 4K -e "$(PROG_REQ) side:$HTTPD:http:request { @n = count(); }" \
		-c "$HTTPD -n 20000 -r 40000" >"$out" 2>"$out.err" &
	st=$!
	for i in $(seq 100); do grep -q Attaching "$out" && break; sleep 0.05; done
	kill -STOP "$st"
	sleep 0.4
	kill -CONT "$st"
	wait "$st"
	delivered=$(grep -c '^[A-Z]* /' "$out")
	lost=$(sed -n 's/^sidetrace: \([0-9]*\) events not printed: output buffer full.*(side:.*:http:request)$/\1/p' "$out.err")
	echo "delivered=$delivered lost=$lost" >&2
	[ -n "$lost" ] && [ "$lost" -gt 0 ]
	[ "$((delivered + lost))" -eq 20000 ]
	# The aggregation in the same program still counted every event.
	grep -qx '@n: 20000' "$out"
}

@test "-f json: the loss is a {\"type\": \"lost\"} document with the probe" {
	"$SIDETRACE" -f json -b 4K -e "$(PROG_REQ)" -c "$HTTPD -n 20000 -r 40000" \
		>"$BATS_TEST_TMPDIR/out" 2>/dev/null &
	st=$!
	for i in $(seq 100); do grep -q attached_probes "$BATS_TEST_TMPDIR/out" && break; sleep 0.05; done
	kill -STOP "$st"
	sleep 0.4
	kill -CONT "$st"
	wait "$st"
	run jq -s '[.[] | select(.type == "printf")] | length' "$BATS_TEST_TMPDIR/out"
	delivered=$output
	run jq -s '[.[] | select(.type == "lost") | .data.events] | add' "$BATS_TEST_TMPDIR/out"
	[ "$((delivered + output))" -eq 20000 ]
	jq -e 'select(.type == "lost") | .data.probe | endswith(":http:request")' "$BATS_TEST_TMPDIR/out"
}

@test "the default buffer written to a file loses nothing at full speed" {
	"$SIDETRACE" -e "$(PROG_REQ)" -o "$BATS_TEST_TMPDIR/out" -c "$HTTPD -n 200000" \
		2>"$BATS_TEST_TMPDIR/err"
	[ "$(grep -c '^[A-Z]* /' "$BATS_TEST_TMPDIR/out")" -eq 200000 ]
	! grep -q 'not printed' "$BATS_TEST_TMPDIR/err"
}

@test "a reader that leaves (| head) ends the session cleanly, probes detached" {
	start_app "$BATS_TEST_TMPDIR/pid" "$HTTPD" -d 20 -r 2000 -p
	run bash -c "timeout 10 '$SIDETRACE' -e '$(PROG_REQ)' -p $APP_PID | head -3"
	sleep 0.2
	sema=$(read_semaphore "$APP_PID" "$HTTPD" http request)
	kill "$APP" 2>/dev/null || true
	wait "$APP" 2>/dev/null || true
	[ "$sema" -eq 0 ]
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	[ "${lines[0]}" = "Attaching 1 probe..." ]
	# sidetrace itself exited 0 and printed nothing on stderr.
	run bash -c "set -o pipefail; timeout 10 '$SIDETRACE' -e '$(PROG_REQ)' -c '$HTTPD -n 100000' 2>&1 | head -1"
	[ "$status" -eq 0 ]
	[ "$output" = "Attaching 1 probe..." ]
}

@test "Ctrl-C mid-stream prints what the buffer holds, then the maps" {
	start_app "$BATS_TEST_TMPDIR/pid" "$HTTPD" -d 20 -r 2000 -p
	"$SIDETRACE" -e "$(PROG_REQ) side:$HTTPD:http:request { @n = count(); }" -p "$APP_PID" \
		>"$BATS_TEST_TMPDIR/out" &
	st=$!
	sleep 1
	kill -INT "$st"
	wait "$st"
	kill "$APP"
	wait "$APP" 2>/dev/null || true
	n=$(sed -n 's/^@n: //p' "$BATS_TEST_TMPDIR/out")
	[ "$n" -gt 100 ]
	# Every counted event was printed, and the maps come last.
	[ "$(grep -c '^[A-Z]* /' "$BATS_TEST_TMPDIR/out")" -eq "$n" ]
	[ "$(tail -1 "$BATS_TEST_TMPDIR/out")" = "@n: $n" ]
}

@test "-v says which probe loses events while it happens" {
	"$SIDETRACE" -v -b 4K -e "$(PROG_REQ)" -c "$HTTPD -n 20000 -r 10000" \
		>"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" &
	st=$!
	for i in $(seq 100); do grep -q Attaching "$BATS_TEST_TMPDIR/out" && break; sleep 0.05; done
	kill -STOP "$st"
	sleep 0.4
	kill -CONT "$st"
	wait "$st"
	grep -q 'more events not printed: output buffer full (side:.*:http:request)' "$BATS_TEST_TMPDIR/err"
}

@test "an event's records stay together: time() and two printfs on two CPUs at once" {
	local loop='import os
for i in range(100000): os.getppid()' out="$BATS_TEST_TMPDIR/out"
	# A buffer that holds them all: a line lost would not show a split one.
	run timeout 60 "$SIDETRACE" -b 64M -o "$out" -e 'tracepoint:syscalls:sys_enter_getppid {
		time("%H "); printf("%d ", tid); printf("%d\n", tid); }' \
		-c "bash -c 'taskset -c 0 python3 -c \"$loop\" & taskset -c 1 python3 -c \"$loop\"; wait'"
	[ "$status" -eq 0 ]
	lines=$(grep -Ec '^[0-9]{2} [0-9]+ [0-9]+$' "$out")
	split=$(awk 'NF && !/^Attaching/ && (NF != 3 || $2 != $3)' "$out" | wc -l)
	echo "lines=$lines split=$split" >&2
	[ "$lines" -ge 200000 ]
	[ "$split" -eq 0 ]
}

@test "printf of the probe builtin whose name is longer than a kernel string" {
	# The kernel sends the probe's index; the collector prints its name.
	dir="$BATS_TEST_TMPDIR/a_directory_name_long_enough_for_the_test"
	mkdir -p "$dir"
	cp "$HTTPD" "$dir/"
	run "$SIDETRACE" -e "side:$dir/httpd_sim:http:error { printf(\"%s\\n\", probe); exit(); }" \
		-c "$dir/httpd_sim -n 300 -s 7"
	[ "$status" -eq 0 ]
	[ "${#dir}" -gt 63 ]
	grep -qx "side:$dir/httpd_sim:http:error" <<<"$output"
}

# A string whose bytes are a tab, a newline, a carriage return, a terminal
# escape sequence, an invalid UTF-8 byte and the four characters \x0a.
build_controls() {
	cc -O2 -Wall -I"$ROOT/include" "$BATS_TEST_DIRNAME/../fixtures/side_edge.c" \
		-o "$BATS_TEST_TMPDIR/side_edge" "$OUT/libside.a" -lpthread -ldl
	EDGE=$BATS_TEST_TMPDIR/side_edge
	# bpftrace's program and ours: %s and %c per event, %s of a map in END.
	PROG_CTL="usdt:$EDGE:edge:ev { printf(\"<%s>%c%c|%24s|\\n\", str(arg1), 9, 27, str(arg1));
		@s = str(arg1); } END { printf(\"end <%s>\\n--end--\", @s); clear(@s); }"
}

# The bytes of a file up to its first --end-- (the maps printed after it
# are sidetrace's own text, escaped: not printf's).
upto_end() { # file
	head -c "$(grep -abo -- '--end--' "$1" | head -1 | cut -d: -f1)" "$1"
}

@test "printf prints a traced string's bytes and %c's as bpftrace 0.17 does, byte for byte" {
	build_controls
	T=$BATS_TEST_TMPDIR
	timeout -s INT 60 bpftrace -q -o "$T/bt" -e "$PROG_CTL" -c "$EDGE controls 3" >/dev/null 2>&1
	"$SIDETRACE" -q -o "$T/st" -e "$PROG_CTL" -c "$EDGE controls 3" >/dev/null
	upto_end "$T/bt" >"$T/bt.cut"
	upto_end "$T/st" >"$T/st.cut"
	od -c "$T/st.cut" | head -8
	one=$'<\tcol\nrow\r\e[7m\xff\\x0a>\t\e|      \tcol\nrow\r\e[7m\xff\\x0a|\n'
	printf '%s%s%send <\tcol\nrow\r\e[7m\xff\\x0a>\n' "$one" "$one" "$one" >"$T/want"
	cmp "$T/want" "$T/bt.cut"
	cmp "$T/bt.cut" "$T/st.cut"
	# The same field read by its SIDE name prints the same bytes.
	side=${PROG_CTL//str(arg1)/args.s}
	"$SIDETRACE" -q -o "$T/side" -e "${side/usdt:/side:}" -c "$EDGE controls 3" >/dev/null
	upto_end "$T/side" | cmp "$T/bt.cut" -
}

@test "printf to a terminal: what of its values could drive it as \\xNN, newline and tab as they are" {
	build_controls
	# A pseudo-terminal turns each newline into \r\n.
	script -qefc "timeout 60 '$SIDETRACE' -q -c '$EDGE controls 1' -e '$PROG_CTL'" \
		/dev/null </dev/null | tr -d '\r' >"$BATS_TEST_TMPDIR/tty"
	cat -A "$BATS_TEST_TMPDIR/tty"
	grep -v '^edge controls' "$BATS_TEST_TMPDIR/tty" | head -5 >"$BATS_TEST_TMPDIR/got"
	printf '%s\n' $'<\tcol' \
		$'row\\x0d\\x1b[7m\\xff\\x0a>\t\\x1b|      \tcol' \
		'row\x0d\x1b[7m\xff\x0a|' $'end <\tcol' 'row\x0d\x1b[7m\xff\x0a>' |
		diff - "$BATS_TEST_TMPDIR/got"
	# Not one ESC byte reached the terminal.
	! grep -q $'\e' "$BATS_TEST_TMPDIR/tty"
}
