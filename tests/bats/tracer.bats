#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The in-process tracer API end to end: libside's console tracer format,
# loaded by LD_PRELOAD or linked, and an in-process callback with a kernel
# tracer (sidetrace) on the same event.

load helpers
bats_require_minimum_version 1.5.0

FIX="$BATS_TEST_DIRNAME/../fixtures"

setup_file() {
	local d=$BATS_FILE_TMPDIR
	cc -O2 -Wall -I"$ROOT/include" "$FIX/console_app.c" -o "$d/console_app" \
		-L"$OUT" -Wl,-rpath,"$OUT" -lside
	cc -O2 -Wall -I"$ROOT/include" "$FIX/console_app.c" -o "$d/console_linked" \
		-L"$OUT" -Wl,-rpath,"$OUT" -Wl,--no-as-needed -lside-console-tracer -lside
	cc -O2 -Wall -I"$ROOT/include" "$FIX/both_app.c" -o "$d/both_app" \
		-L"$OUT" -Wl,-rpath,"$OUT" -lside
	local p
	for p in demo statedump types; do
		cc -O2 -Wall -I"$ROOT/include" "$FIX/libside/$p.c" -o "$d/ls_$p" \
			-L"$OUT" -Wl,-rpath,"$OUT" -Wl,--no-as-needed -lside-console-tracer -lside
		cc -O2 -Wall -I"$ROOT/include" "$FIX/libside/$p.c" -o "$d/ls_${p}_plain" \
			-L"$OUT" -Wl,-rpath,"$OUT" -lside
	done
	# The runtime copied into the program, as our examples link it.
	cc -O2 -Wall -I"$ROOT/include" "$FIX/libside/demo.c" "$OUT/libside.a" \
		-o "$d/ls_demo_static" -lpthread -ldl
}

setup() {
	D="$BATS_FILE_TMPDIR"
}

# What libside's console tracer prints for console_app (its format, read
# from src/lib/libside-console-tracer/tracer.c): the runtime's own events,
# the tracer's (none), the program's; one line per call; removals at exit.
expected_console() {
	cat <<'OUT'
----------------------------------------------------------
Tracer notified of events inserted
provider: side, event: statedump_end
event description: provider: side, event: statedump_end, fields: { name: { type: string { unit_size: 1 } } }
provider: side, event: statedump_begin
event description: provider: side, event: statedump_begin, fields: { name: { type: string { unit_size: 1 } } }
----------------------------------------------------------
----------------------------------------------------------
Tracer notified of events inserted
----------------------------------------------------------
----------------------------------------------------------
Tracer notified of events inserted
provider: console, event: variadic
event description: provider: console, event: variadic, fields: { msg: { type: string { unit_size: 1 } } }, <variadic fields>
provider: console, event: nested
event description: provider: console, event: nested, fields: { peer: { type: struct { fields: { addr: { type: integer { size: 4, signedness: false, byte_order: "le" } }, port: { type: integer { size: 2, signedness: false, byte_order: "le" } } } } }, shards: { type: array { length: 3, element: { type: integer { size: 1, signedness: false, byte_order: "le" } } } }, ids: { type: vla { length: { type: integer { size: 4, signedness: false, byte_order: "le" } }, element: { type: integer { size: 4, signedness: true, byte_order: "le" } } } }, mode: { type: enum { labels: { [ 0 ]: "idle", [ 1 - 9 ]: "busy" }, element: { , { type: integer { size: 1, signedness: false, byte_order: "le" } } } }, hex: { attr: [ { key: "std.integer.base", value: 16 } ], type: integer { size: 2, signedness: false, byte_order: "le" } } }
provider: console, event: basic
event description: provider: console, event: basic, attr: [ { key: "owner", value: "team" } ], fields: { count: { type: integer { size: 4, signedness: false, byte_order: "le" } }, delta: { type: integer { size: 2, signedness: true, byte_order: "le" } }, ok: { type: bool { size: 1 } }, name: { type: string { unit_size: 1 } }, where: { type: pointer { size: 8, signedness: false, byte_order: "le" } }, ratio: { type: float { size: 8, byte_order: "le" } }, flags: { type: byte } }
----------------------------------------------------------
provider: console, event: basic, attr: [ { key: "owner", value: "team" } ], fields: { count: { value: 42 }, delta: { value: -3 }, ok: { value: true }, name: { value: "hello" }, where: { value: 0x1234 }, ratio: { value: 2.5 }, flags: { value: 0xab } }
provider: console, event: nested, fields: { peer: { fields: { addr: { value: 3232235777 }, port: { value: 8080 } } }, shards: { elements: [ { value: 1 }, { value: 2 }, { value: 3 } ] }, ids: { elements: [ { value: -5 }, { value: 7 } ] }, mode: { { value: 3 }, labels: [ "busy" ] }, hex: { attr: [ { key: "std.integer.base", value: 16 } ], value: 0xff } }
provider: console, event: variadic, fields: { msg: { value: "dyn" } }, fields:: { n:: { value:: 9 }, s:: { value:: "x" } }
----------------------------------------------------------
Tracer notified of events removed
provider: console, event: variadic
provider: console, event: nested
provider: console, event: basic
----------------------------------------------------------
----------------------------------------------------------
Tracer notified of events removed
provider: side, event: statedump_end
provider: side, event: statedump_begin
----------------------------------------------------------
----------------------------------------------------------
Tracer notified of events removed
----------------------------------------------------------
OUT
}

@test "console tracer by LD_PRELOAD: libside's format, line by line" {
	LD_PRELOAD="$OUT/libside-console-tracer.so" "$D/console_app" > "$D/preload.txt"
	diff <(expected_console) "$D/preload.txt"
}

@test "console tracer linked: the same lines" {
	"$D/console_linked" > "$D/linked.txt"
	diff <(expected_console) "$D/linked.txt"
}

@test "without the console tracer the program prints nothing" {
	run -0 "$D/console_app"
	[ -z "$output" ]
}

# libside's test programs (demo, statedump, and test-no-sc's types that
# need walks of their own) as fixtures; the expected files are what
# libside 4df4e80's console tracer printed for the same sources built
# against libside's headers and libside.so.
@test "libside's demo, statedump and types: libside's console text, line by line" {
	local p
	for p in demo statedump types; do
		"$D/ls_$p" > "$D/ls_$p.txt"
		diff "$ROOT/tests/expected/console/$p.txt" "$D/ls_$p.txt"
	done
}

@test "the same text with the tracer preloaded" {
	local p
	for p in demo statedump types; do
		LD_PRELOAD="$OUT/libside-console-tracer.so" "$D/ls_${p}_plain" > "$D/pre_$p.txt"
		diff "$ROOT/tests/expected/console/$p.txt" "$D/pre_$p.txt"
	done
}

@test "preloaded into a program with its own copy of the runtime: one line on stderr" {
	LD_PRELOAD="$OUT/libside-console-tracer.so" "$D/ls_demo_static" \
		> "$D/static.out" 2> "$D/static.err"
	! grep -q myprovider "$D/static.out"
	[ "$(wc -l < "$D/static.err")" = 1 ]
	grep -q "^libside-console-tracer: this program's events do not go through the shared libside.so .*-lside" \
		"$D/static.err"
	# Programs on the shared runtime, linked or preloaded: nothing on stderr.
	run -0 --separate-stderr env LD_PRELOAD="$OUT/libside-console-tracer.so" "$D/ls_demo_plain"
	[ -z "$stderr" ]
	run -0 --separate-stderr "$D/ls_demo"
	[ -z "$stderr" ]
}

@test "in-process callback and sidetrace on one event: both see every event" {
	"$SIDETRACE" -e "side:$D/both_app:both:tick { @ = count(); }" > "$D/both.txt" 2>&1 &
	local st=$! i
	for i in $(seq 100); do
		grep -q '^Attaching' "$D/both.txt" && break
		sleep 0.1
	done
	run -0 "$D/both_app"
	kill -INT $st
	wait $st
	# 1000 with the callback, 1000 after it left: the kernel bits kept counting.
	[[ "$output" =~ ^callback=1000\ user=0\ kernel=[1-9][0-9]*$ ]]
	grep -q '^@: 2000$' "$D/both.txt"
}
