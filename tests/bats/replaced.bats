#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# A traced file replaced on disk as a deploy does it (cp new app.tmp && mv
# app.tmp app): system-wide sessions and serve attach the new file, a new
# build whose sites moved included, and count exactly across both; a file
# whose events differ is refused with the reason and counted; -p sessions
# do not watch.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	local d=$BATS_FILE_TMPDIR
	# Another build of httpd_sim: the same events, its sites elsewhere.
	cc -O0 -g -I"$ROOT/include" -I"$ROOT/examples" "$ROOT/examples/httpd_sim.c" \
		"$OUT/libside.a" -lpthread -o "$d/httpd_O0"
}

setup() {
	D=$BATS_TEST_TMPDIR
	cp "$HTTPD" "$D/app"
}

deploy() { # new-file
	cp "$1" "$D/app.tmp"
	mv "$D/app.tmp" "$D/app"
}

# Waits until file has a line matching regex (at most 10 s).
wait_line() { # file regex
	local i
	for i in $(seq 100); do
		grep -q "$2" "$1" 2> /dev/null && return 0
		sleep 0.1
	done
	echo "no line matching '$2' in $1:" >&2
	cat "$1" >&2
	return 1
}

@test "system-wide: a new build deployed over the traced file is traced too, counts exact" {
	local prog="side:$D/app:http:request { @n = count(); @bytes = sum(args.bytes); }"
	"$SIDETRACE" -e "$prog" > "$D/out" 2> "$D/err" &
	local st=$!
	wait_line "$D/out" '^Attaching'
	"$D/app" -n 40 -s 1 -v > "$D/truth1"
	# The old file's process keeps running while the new one is deployed.
	deploy "$BATS_FILE_TMPDIR/httpd_O0"
	wait_line "$D/err" 'replaced on disk; the new file is traced too'
	"$D/app" -n 25 -s 2 -v > "$D/truth2"
	# Another program at the same path: refused, with its reason.
	deploy "$KV"
	wait_line "$D/err" 'the new file is not traced: '
	kill -INT $st
	wait $st
	cat "$D/out" "$D/err"
	[ "$(grep -c 'replaced on disk' "$D/err")" = 2 ]
	grep -q "^@n: $(cat "$D/truth1" "$D/truth2" | truth_count http:request)\$" "$D/out"
	grep -q "^@bytes: $(cat "$D/truth1" "$D/truth2" | truth_sum http:request bytes)\$" "$D/out"
}

@test "serve counts across a deploy, and says how often in sidetrace_replaced_files_total" {
	local addr i
	"$SIDETRACE" serve --listen 127.0.0.1:0 -e "side:$D/app:http:request { @requests = count(); }" \
		> "$D/log" 2>&1 &
	local sv=$!
	wait_line "$D/log" '^Serving'
	addr=$(sed -n 's|^Serving .* at http://\(.*\)/metrics$|\1|p' "$D/log")
	"$D/app" -n 30 -s 3 > /dev/null
	deploy "$BATS_FILE_TMPDIR/httpd_O0"
	wait_line "$D/log" 'the new file is traced too'
	"$D/app" -n 12 -s 4 > /dev/null
	deploy "$KV"
	wait_line "$D/log" 'the new file is not traced'
	curl -sf "http://$addr/metrics" > "$D/metrics"
	kill -TERM $sv
	wait $sv
	grep -q '^sidetrace_requests_total 42$' "$D/metrics"
	grep -q "^sidetrace_replaced_files_total{program=\"program\",target=\"$D/app\",result=\"attached\"} 1\$" "$D/metrics"
	grep -q "^sidetrace_replaced_files_total{program=\"program\",target=\"$D/app\",result=\"refused\"} 1\$" "$D/metrics"
}

@test "-p: the session follows one process, a deploy changes nothing and says nothing" {
	start_app "$D/pid" "$D/app" -p -d 10 -r 10
	"$SIDETRACE" -p "$APP_PID" -e "side:$D/app:http:request { @n = count(); }" \
		> "$D/out" 2> "$D/err" &
	local st=$!
	wait_line "$D/out" '^Attaching'
	deploy "$BATS_FILE_TMPDIR/httpd_O0"
	sleep 2.5
	kill -INT $st
	wait $st || true
	kill $APP 2> /dev/null || true
	! grep -q 'replaced' "$D/err"
}
