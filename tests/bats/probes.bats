#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Issue 2: every side_event call site is a USDT probe that stock tools read.

load helpers

@test "readelf shows one stapsdt note per call site with provider, name, semaphore" {
	run readelf -n "$HTTPD"
	[ "$status" -eq 0 ]
	[ "$(grep -c 'Provider: http' <<<"$output")" -eq 2 ]
	[ "$(grep -c 'Provider: db' <<<"$output")" -eq 1 ]
	[ "$(grep -c 'Provider: app' <<<"$output")" -eq 2 ]
	grep -A1 'Provider: http' <<<"$output" | grep -q 'Name: request'
	grep -A1 'Provider: http' <<<"$output" | grep -q 'Name: error'
	# Every note has a semaphore: the enable word in the event state.
	! grep 'Semaphore: 0x0000000000000000' <<<"$output"
	sema=$(grep -A2 'Name: request' <<<"$output" | sed -n 's/.*Semaphore: \(0x[0-9a-f]*\).*/\1/p')
	state=$(nm "$HTTPD" | awk '/side_event_state__ev_request$/ { print "0x" $1 }')
	[ "$((sema))" -eq "$((state + 8))" ]
}

@test "SDT arguments: field values, then description and argument vector pointers" {
	run readelf -n "$HTTPD"
	args=$(grep -A3 'Name: request' <<<"$output" | sed -n 's/.*Arguments: //p')
	# 6 fields, then 2 pointers.
	[ "$(wc -w <<<"$args")" -eq 8 ]
	# Never the SIB addressing form that libbpf 1.1 cannot parse.
	! grep -q '(%[a-z0-9]*,' <<<"$args"
}

@test "the probe instruction is a 5-byte nop" {
	loc=$(readelf -n "$HTTPD" | grep -A2 'Name: request' | sed -n 's/.*Location: \(0x[0-9a-f]*\),.*/\1/p')
	run objdump -d --start-address=$((loc)) --stop-address=$((loc + 5)) "$HTTPD"
	grep -q '0f 1f 44 00 00' <<<"$output"
}

@test "bpftrace -l lists every event" {
	run bpftrace_q -l "usdt:$HTTPD:*"
	[ "$status" -eq 0 ]
	for ev in http:request http:error db:query app:conn_state app:log; do
		grep -q ":$ev\$" <<<"$output"
	done
	[ "$(wc -l <<<"$output")" -eq 5 ]
}

@test "stock bpftrace counts, reads an integer, a negative integer and a string" {
	truth=$("$HTTPD" -n 300 -s 7 -v)
	run bpftrace_q -c "$HTTPD -n 300 -s 7" -e "
		usdt:$HTTPD:http:request { @n = count(); @st = sum(arg2); @p[str(arg1)] = count(); }
		usdt:$HTTPD:http:error { @code = sum((int64)arg0); }"
	[ "$status" -eq 0 ]
	grep -q "^@n: 300\$" <<<"$output"
	grep -q "^@st: $(truth_sum http:request status <<<"$truth")\$" <<<"$output"
	grep -q "^@code: $(truth_sum http:error code <<<"$truth")\$" <<<"$output"
	[ "$(truth_sum http:error code <<<"$truth")" -lt 0 ]
	n=$(grep -c ' path=/api/users ' <<<"$truth")
	grep -q "^@p\[/api/users\]: $n\$" <<<"$output"
}

@test "semaphore is non-zero while bpftrace is attached and zero after" {
	# Long enough to outlive bpftrace's attach and detach on a loaded
	# machine (seconds each); the test ends it.
	start_app "$BATS_TEST_TMPDIR/pid" "$HTTPD" -d 60 -r 200 -p
	app=$APP pid=$APP_PID
	[ "$(read_semaphore "$pid" "$HTTPD" http request)" -eq 0 ]
	timeout -s INT 60 bpftrace -p "$pid" -e "usdt:$HTTPD:http:request { @ = count(); }" \
		> "$BATS_TEST_TMPDIR/bt" 2>&1 &
	bt=$!
	for _ in $(seq 50); do
		[ "$(read_semaphore "$pid" "$HTTPD" http request)" -ne 0 ] && break
		sleep 0.1
	done
	[ "$(read_semaphore "$pid" "$HTTPD" http request)" -eq 1 ]
	kill -INT "$bt"
	wait "$bt" || true
	[ "$(read_semaphore "$pid" "$HTTPD" http request)" -eq 0 ]
	kill "$app"
	wait "$app" || true
	grep -q '^@: [1-9]' "$BATS_TEST_TMPDIR/bt"
}

@test "events of a linked shared library are traced" {
	# bpftrace -c cannot resolve a library before the command runs: use -p.
	start_app "$BATS_TEST_TMPDIR/pid" "$KV" -n 40 -w 2.5 -p
	app=$APP pid=$APP_PID
	run bpftrace_q -p "$pid" -e "usdt:$LIBKV:kv:put { @puts = count(); @sz = sum(arg1); }
		usdt:$LIBKV:kv:get { @hits[arg1] = count(); }"
	wait "$app"
	grep -q '^@puts: 40$' <<<"$output"
	# sizes i*7%100 for i < 40
	grep -q "^@sz: $(python3 -c 'print(sum(i * 7 % 100 for i in range(40)))')\$" <<<"$output"
	grep -q '^@hits\[1\]: 40$' <<<"$output"
	grep -q '^@hits\[0\]: 40$' <<<"$output"
}

@test "events of a dlopen()ed shared library are traced" {
	start_app "$BATS_TEST_TMPDIR/pid" "$KV" -D -n 30 -w 2.5 -p
	app=$APP pid=$APP_PID
	run bpftrace_q -p "$pid" -e "usdt:$LIBKV:kv:put { @puts = count(); }"
	wait "$app"
	grep -q '^@puts: 30$' <<<"$output"
}

@test "note names: gcc builds turn characters outside [A-Za-z0-9_] into '_'" {
	cat > "$BATS_TEST_TMPDIR/names.c" <<'SRC'
#include <side/trace.h>
side_static_event(e1, "shop.cart", "item-added/v2", SIDE_LOGLEVEL_INFO,
	side_field_list(side_field_u32("x")));
int main(void) { side_event(e1, side_arg_list(side_arg_u32(1))); return 0; }
SRC
	gcc -O2 -I"$ROOT/include" "$BATS_TEST_TMPDIR/names.c" "$OUT/libside.a" -lpthread -o "$BATS_TEST_TMPDIR/names"
	run readelf -n "$BATS_TEST_TMPDIR/names"
	grep -q 'Provider: shop_cart$' <<<"$output"
	grep -q 'Name: item_added_v2$' <<<"$output"
	run bpftrace_q -l "usdt:$BATS_TEST_TMPDIR/names:*"
	grep -q ':shop_cart:item_added_v2$' <<<"$output"
	# sidetrace still shows the SIDE names.
	run "$SIDETRACE" list "$BATS_TEST_TMPDIR/names"
	grep -q 'shop.cart:item-added/v2' <<<"$output"
}
