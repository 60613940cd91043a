#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Every side_event call site is a USDT probe that stock tools read.

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
	start_app "$BATS_TEST_TMPDIR/pid" "$HTTPD" -d 300 -r 200 -p
	app=$APP pid=$APP_PID
	[ "$(read_semaphore "$pid" "$HTTPD" http request)" -eq 0 ]
	bpftrace -p "$pid" -e "usdt:$HTTPD:http:request { @ = count(); }
		BEGIN { printf(\"go\\n\"); }" > "$BATS_TEST_TMPDIR/bt" 2>&1 &
	bt=$!
	# bpftrace runs BEGIN once every probe is attached; a signal sent
	# while it still attaches may be lost (one CI run outlived the app).
	wait_attached "$BATS_TEST_TMPDIR/bt" '^go$'
	[ "$(read_semaphore "$pid" "$HTTPD" http request)" -eq 1 ]
	# SIGTERM: a bpftrace in a script's background may miss a SIGINT.
	kill -TERM "$bt"
	wait_exit "$bt" bpftrace TERM
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

# The lines wide_app prints through printf of every field, for i = 1..3.
wide_expected() {
	local i names=(zero one two three) nine
	for i in 1 2 3; do
		# The nine fields both events share, then each one's tenth value.
		nine="$((i * 1000000007)) $((-3 * i)) $((4000000000 + i)) $((-100000 - i)) $((65000 + i)) $((-300 - i)) $((200 + i)) $((i & 1)) ${names[i & 3]}"
		echo "$nine $((7 * i))"
		echo "$nine $((-i))"
	done
}

@test "every SDT value register of a 10-field and a 9+1-field variadic site, at -O0 and -O2, gcc and clang" {
	local fmt='"%d %d %d %d %d %d %d %d %s %d\n", args.a, args.b, args.c, args.d, args.e, args.f, args.g, args.h, args.s'
	local cc w prog
	for cc in "gcc -O0" "gcc -O2" "clang -O0" "clang -O2"; do
		w="$BATS_TEST_TMPDIR/wide_${cc// /}"
		$cc -Wall -Werror -I"$ROOT/include" "$ROOT/tests/fixtures/wide_app.c" "$OUT/libside.a" \
			-lpthread -o "$w"
		prog="side:$w:wide:ten { printf($fmt, args.j); } side:$w:wide:nine { printf($fmt, args.extra); }"
		# Top-level fields come from the SDT registers, then from the vector alone.
		run "$SIDETRACE" -e "$prog" -c "$w 3"
		[ "$status" -eq 0 ]
		[ "$(tail -n +2 <<<"$output")" = "$(wide_expected)" ]
		run env SIDETRACE_VECTOR_ONLY=1 "$SIDETRACE" -e "$prog" -c "$w 3"
		[ "$(tail -n +2 <<<"$output")" = "$(wide_expected)" ]
	done
}

@test "without uprobe_multi links, 40 sites raise the open-file limit, or name it" {
	mkdir "$BATS_TEST_TMPDIR/gen"
	python3 "$ROOT/bench/gen_scale.py" 4 10 1 "$BATS_TEST_TMPDIR/gen"
	cc -O1 -I"$ROOT/include" "$BATS_TEST_TMPDIR"/gen/*.c "$OUT/libside.a" -lpthread \
		-o "$BATS_TEST_TMPDIR/gen_app"
	local prog="side:$BATS_TEST_TMPDIR/gen_app:gen:* { @ = count(); }"
	# Soft limit 40, ten of them taken already, hard limit higher: raised
	# before the object's maps are opened, every site attached.
	run bash -c "exec 5</dev/null 6</dev/null 7</dev/null 8</dev/null 9</dev/null \
		10</dev/null 11</dev/null 12</dev/null 13</dev/null 14</dev/null; ulimit -Sn 40; \
		SIDETRACE_NO_UPROBE_MULTI=1 '$SIDETRACE' -e '$prog' \
		-c '$BATS_TEST_TMPDIR/gen_app 1000' 2>/dev/null"
	[ "$status" -eq 0 ]
	[ "${lines[-1]}" = "@: 1000" ]
	# Hard limit 60: refused before attaching, naming the limit.
	run bash -c "ulimit -n 60; SIDETRACE_NO_UPROBE_MULTI=1 '$SIDETRACE' -e '$prog' \
		-c '$BATS_TEST_TMPDIR/gen_app 1000'"
	[ "$status" -eq 1 ]
	[ "$output" = "sidetrace: 40 call sites need about 112 open files (a perf event and a link each: this kernel has no uprobe_multi links) but the limit is 60: raise it (ulimit -n)" ]
}
