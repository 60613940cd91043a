#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# `sidetrace list`: SIDE events and USDT probes of real binaries (PIE,
# non-PIE, shared object, USDT only, a live process), checked against
# readelf and bpftrace, and damaged binaries that must not crash it.

load helpers
bats_require_minimum_version 1.5.0

FIX="$BATS_TEST_DIRNAME/../fixtures"

setup_file() {
	local d="$BATS_FILE_TMPDIR"

	# Build the fixtures the way an application would, with the public API.
	cc -O2 -Wall -fPIC -shared -I"$ROOT/include" "$FIX/liblistfix.c" \
		-o "$d/liblistfix.so" -L"$OUT" -lside -Wl,-rpath,"$OUT"
	cc -O2 -Wall -I"$ROOT/include" "$FIX/list_app.c" -o "$d/app_pie" \
		-L"$d" -llistfix -Wl,-rpath,"$d" "$OUT/libside.a" -lpthread -ldl
	cc -O2 -Wall -no-pie -fno-pie -I"$ROOT/include" "$FIX/list_app.c" \
		-o "$d/app_nopie" -L"$d" -llistfix -Wl,-rpath,"$d" \
		"$OUT/libside.a" -lpthread -ldl
	cc -O2 -Wall "$FIX/plain_usdt.c" -o "$d/plain_usdt"
}

setup() {
	D="$BATS_FILE_TMPDIR"
}

# "provider:name count" for every probe, from readelf's notes.
readelf_sites() {
	readelf -n "$1" | awk '/Provider:/ { p = $2 } /Name:/ { print p ":" $2 }' |
		sort | uniq -c | awk '{ print $2, $1 }'
}

# The same from sidetrace's JSON, by the names in the notes.
list_sites() {
	"$SIDETRACE" list -f json "$1" | jq -r '"\(.usdt_provider):\(.usdt_name) \(.nr_sites)"' |
		awk '$2 > 0' | sort
}

@test "PIE executable: events, log levels, nested field types, site counts" {
	run "$SIDETRACE" list "$D/app_pie"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$D/app_pie" ]
	grep -qx '  shop.cart:item-added  \[NOTICE\]  4 sites' <<<"$output"
	grep -qx '    sku: string' <<<"$output"
	grep -qx '    qty: u16' <<<"$output"
	grep -qx '    entry: struct { line: u32, price: struct { cents: u64, currency: string } }' <<<"$output"
	grep -qx '    tags: array<string, 3>' <<<"$output"
	grep -qx '    ids: vla<s64>' <<<"$output"
	grep -qx '    kind: enum<u8>' <<<"$output"
	grep -qx '    flags: enum_bitmap<u32>' <<<"$output"
	grep -qx '  shop.cart:note  \[DEBUG\]  1 site  variadic' <<<"$output"
	grep -qx '    code: s32' <<<"$output"
	grep -qx '  plain:tick  (USDT, no SIDE description)  1 site' <<<"$output"
}

@test "non-PIE executable lists exactly what the PIE build lists" {
	pie=$("$SIDETRACE" list "$D/app_pie" | tail -n +2)
	nopie=$("$SIDETRACE" list "$D/app_nopie" | tail -n +2)
	[ -n "$pie" ]
	[ "$pie" = "$nopie" ]
	file "$D/app_nopie" | grep -q 'LSB executable'
	file "$D/app_pie" | grep -q 'pie executable'
}

@test "shared object, by path and by library name" {
	run "$SIDETRACE" list "$D/liblistfix.so"
	[ "$status" -eq 0 ]
	grep -qx '  listfix:op  \[INFO\]  1 site' <<<"$output"
	grep -qx '    n: s32' <<<"$output"
	grep -qx '    what: string' <<<"$output"
	LD_LIBRARY_PATH="$D" run "$SIDETRACE" list liblistfix
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "$D/liblistfix.so" ]
	grep -qx '  listfix:op  \[INFO\]  1 site' <<<"$output"
}

@test "site counts agree with readelf -n on every kind of object" {
	for bin in "$D/app_pie" "$D/app_nopie" "$D/liblistfix.so" "$D/plain_usdt" \
		"$HTTPD" "$LIBKV"; do
		expect=$(readelf_sites "$bin")
		got=$(list_sites "$bin")
		[ -n "$expect" ]
		if [ "$expect" != "$got" ]; then
			echo "$bin: readelf says"$'\n'"$expect"$'\n'"sidetrace says"$'\n'"$got"
			false
		fi
	done
}

@test "bpftrace -l shows the same probes" {
	for bin in "$D/app_pie" "$HTTPD"; do
		expect=$(bpftrace_q -l "usdt:$bin:*" | sed "s|^usdt:$bin:||" | sort)
		got=$("$SIDETRACE" list -f json "$bin" |
			jq -r 'select(.nr_sites > 0) | "\(.usdt_provider):\(.usdt_name)"' | sort)
		[ -n "$expect" ]
		[ "$expect" = "$got" ]
	done
}

@test "packed relative relocations (DT_RELR) read like RELA ones" {
	cc -O2 -Wall -I"$ROOT/include" "$FIX/list_app.c" -o "$D/app_relr" \
		-Wl,-z,pack-relative-relocs -L"$D" -llistfix -Wl,-rpath,"$D" \
		"$OUT/libside.a" -lpthread -ldl
	readelf -SW "$D/app_relr" | grep -q '\.relr\.dyn'
	[ "$("$SIDETRACE" list "$D/app_relr" | tail -n +2)" = \
	  "$("$SIDETRACE" list "$D/app_pie" | tail -n +2)" ]
}

@test "exported event in a shared object: pointers relocated against its symbol" {
	cat >"$D/exp.c" <<-'EOF'
	#include <side/trace.h>
	side_export_event(ev_exp, "exp", "ported", SIDE_LOGLEVEL_INFO,
		side_field_list(side_field_s32("n")));
	void exp_fn(int n) { side_event(ev_exp, side_arg_list(side_arg_s32(n))); }
	EOF
	cc -O2 -fPIC -shared -I"$ROOT/include" "$D/exp.c" -o "$D/libexp.so"
	# The description pointer is an R_X86_64_64 on the ev_exp symbol.
	readelf -rW "$D/libexp.so" | grep -q 'R_X86_64_64 .* ev_exp'
	run "$SIDETRACE" list "$D/libexp.so"
	[ "$status" -eq 0 ]
	grep -qx '  exp:ported  \[INFO\]  1 site' <<<"$output"
	grep -qx '    n: s32' <<<"$output"
}

@test "plain USDT binary: probes listed without SIDE description" {
	run "$SIDETRACE" list "$D/plain_usdt"
	[ "$status" -eq 0 ]
	grep -qx '  legacy:start  (USDT, no SIDE description)  2 sites' <<<"$output"
	grep -qx '  legacy:stop  (USDT, no SIDE description)  1 site' <<<"$output"
}

@test "-v: attributes, enum mappings, sites whose file offsets hold the probe nop" {
	run "$SIDETRACE" list -v "$D/app_pie"
	[ "$status" -eq 0 ]
	grep -qx '    attributes: team="checkout", version=2' <<<"$output"
	grep -qx '    kind: enum<u8> { 0=book, 1..3=music }' <<<"$output"
	grep -qx '    flags: enum_bitmap<u32> { 0=gift, 1..2=rush }' <<<"$output"
	[ "$(grep -c '^    site ' <<<"$output")" -eq 6 ]
	# SIDE sites are 5-byte nops, sys/sdt.h ones 1-byte nops.
	while read -r off; do
		byte=$(od -An -tx1 -j "$((off))" -N1 "$D/app_pie" | tr -d ' ')
		[ "$byte" = 0f ] || [ "$byte" = 90 ]
	done < <(sed -n 's/.*site 0x[0-9a-f]* (file offset \(0x[0-9a-f]*\)).*/\1/p' <<<"$output")
	# The semaphore of item-added (item_added in the note) is what readelf reports.
	sema=$(readelf -n "$D/app_pie" | grep -A2 'Name: item_added' |
		sed -n 's/.*Semaphore: \(0x[0-9a-f]*\).*/\1/p' | head -1)
	grep -q "semaphore 0x$(printf '%x' "$sema") " <<<"$output"
}

@test "-f json: one valid document per event, with nested types" {
	run "$SIDETRACE" list -f json "$D/app_pie"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq 3 ]
	for l in "${lines[@]}"; do
		jq -e . >/dev/null <<<"$l"
	done
	ev=$(grep '"event":"item-added"' <<<"$output")
	[ "$(jq -r .loglevel <<<"$ev")" = NOTICE ]
	[ "$(jq -r .nr_sites <<<"$ev")" -eq 4 ]
	[ "$(jq -r '.fields[2].type.fields[1].type.fields[0].name' <<<"$ev")" = cents ]
	[ "$(jq -r '.fields[2].type.fields[1].type.fields[0].type.kind' <<<"$ev")" = u64 ]
	[ "$(jq -r '.fields[3].type.length' <<<"$ev")" -eq 3 ]
	[ "$(jq -r '.fields[3].type.elem.kind' <<<"$ev")" = string ]
	[ "$(jq -r '.fields[5].type.mappings[1].label' <<<"$ev")" = music ]
	[ "$(jq -r '.sites | length' <<<"$ev")" -eq 4 ]
	plain=$(grep '"event":"tick"' <<<"$output")
	[ "$(jq -r .side <<<"$plain")" = false ]
}

@test "several binaries in one call" {
	run "$SIDETRACE" list "$D/app_pie" "$D/liblistfix.so"
	[ "$status" -eq 0 ]
	grep -qx "$D/app_pie" <<<"$output"
	grep -qx "$D/liblistfix.so" <<<"$output"
}

@test "-p PID: the executable and the shared libraries it loaded" {
	coproc APP { exec "$D/app_pie" wait; }
	pid=$APP_PID
	read -r ready <&"${APP[0]}"
	[ "$ready" = ready ]
	run "$SIDETRACE" list -p "$pid"
	kill "$pid"
	wait "$pid" || true
	[ "$status" -eq 0 ]
	grep -qx "$D/app_pie" <<<"$output"
	grep -qx "$D/liblistfix.so" <<<"$output"
	grep -qx '  shop.cart:item-added  \[NOTICE\]  4 sites' <<<"$output"
	grep -qx '  listfix:op  \[INFO\]  1 site' <<<"$output"
}

@test "errors: missing file, not ELF, no events, bad PID, bad usage" {
	run --separate-stderr "$SIDETRACE" list "$D/does-not-exist"
	[ "$status" -eq 1 ]
	grep -qx "sidetrace: $D/does-not-exist: no such file" <<<"$stderr"
	echo 'just text' >"$D/text.txt"
	run --separate-stderr "$SIDETRACE" list "$D/text.txt"
	[ "$status" -eq 1 ]
	grep -q 'not an ELF file' <<<"$stderr"
	cat >"$D/none.c" <<<'int main(void) { return 0; }'
	cc "$D/none.c" -o "$D/none"
	run --separate-stderr "$SIDETRACE" list "$D/none"
	[ "$status" -eq 1 ]
	grep -q 'no SIDE or USDT events' <<<"$stderr"
	run --separate-stderr "$SIDETRACE" list libno-such-library-anywhere
	[ "$status" -eq 1 ]
	grep -qx 'sidetrace: libno-such-library-anywhere: no such program or library' <<<"$stderr"
	run --separate-stderr "$SIDETRACE" list -p 2147483647
	[ "$status" -eq 1 ]
	grep -q 'no such process' <<<"$stderr"
	run --separate-stderr "$SIDETRACE" list
	[ "$status" -eq 2 ]
	run --separate-stderr "$SIDETRACE" list -f yaml "$D/app_pie"
	[ "$status" -eq 2 ]
	# One bad target among good ones: the good ones are listed, status 1.
	run --separate-stderr "$SIDETRACE" list "$D/app_pie" "$D/text.txt"
	[ "$status" -eq 1 ]
	grep -q 'shop.cart:item-added' <<<"$output"
}

@test "truncated binaries: an error or a partial list, never a crash" {
	size=$(stat -c %s "$D/app_pie")
	for i in $(seq 0 40); do
		head -c $((size * i / 40)) "$D/app_pie" >"$D/trunc"
		run timeout 10 "$SIDETRACE" list -v "$D/trunc"
		if [ "$status" -gt 1 ]; then
			echo "truncated to $((size * i / 40)) bytes: status $status"
			false
		fi
	done
}

@test "binaries with corrupted bytes: an error or a partial list, never a crash" {
	size=$(stat -c %s "$D/app_pie")
	RANDOM=42
	for i in $(seq 1 60); do
		cp "$D/app_pie" "$D/flip"
		# Overwrite a few bytes, mostly within the first 24 KiB where the
		# headers, notes, descriptions and relocations of this small file are.
		for k in 1 2 3 4 5 6; do
			off=$(((RANDOM * 32768 + RANDOM) % (size < 24576 ? size : 24576)))
			printf "\\x$(printf %02x $((RANDOM % 256)))" |
				dd of="$D/flip" bs=1 seek="$off" conv=notrunc status=none
		done
		run timeout 10 "$SIDETRACE" list -v -f json "$D/flip"
		if [ "$status" -gt 1 ]; then
			cp "$D/flip" "$BATS_RUN_TMPDIR/crash-$i"
			echo "corrupted copy $i: status $status"
			false
		fi
	done
}

# A note's provider rewritten to a terminal escape and invalid UTF-8: text
# shows the bytes as \xNN, JSON stays valid UTF-8, nothing reaches the
# terminal raw.
@test "hostile note names: escaped in text, valid UTF-8 in JSON" {
	cp "$D/plain_usdt" "$D/hostile"
	python3 - "$D/hostile" <<'PY'
import sys
p = sys.argv[1]
b = open(p, "rb").read()
i = b.index(b"legacy\0start\0")
open(p, "wb").write(b[:i] + b"\x1b[2J\xff\xfe" + b[i + 6:])
PY
	run "$SIDETRACE" list -v "$D/hostile"
	[ "$status" -eq 0 ]
	grep -qxF '  \x1b[2J\xff\xfe:start  (USDT, no SIDE description)  1 site' <<<"$output"
	! LC_ALL=C grep -q $'[\x01-\x08\x0b-\x1f\x7f-\xff]' <<<"$output"
	run "$SIDETRACE" list -f json "$D/hostile"
	[ "$status" -eq 0 ]
	python3 -c 'import json, sys
for l in sys.stdin.buffer.read().decode("utf-8").splitlines():
	json.loads(l)' <<<"$output"
	grep -qF '"provider":"\u001b[2J\ufffd\ufffd"' <<<"$output"
}

# libside.so's statedump events (side:statedump_begin, _end) reach the
# tracers registered in the process only: no call site, no probe. A
# wildcard skips them, and an event described but never emitted, as
# bpftrace's matches only what it can attach; naming one says why.
@test "a wildcard skips the events with no call sites (libside.so's statedump events); naming one is refused" {
	local L="$OUT/libside.so" fa="$BATS_TEST_TMPDIR/fork_app_so" bin="$BATS_TEST_TMPDIR/never" st
	local why="delivered to in-process tracers only, never to a probe"
	cc -O2 -Wall -I"$ROOT/include" "$FIX/fork_app.c" -o "$fa" \
		-L"$OUT" -Wl,-rpath,"$OUT" -lside -lpthread
	cat > "$BATS_TEST_TMPDIR/never.c" <<'C'
#include <stdlib.h>
#include <side/trace.h>
side_static_event(ev_hit, "wk", "hit", SIDE_LOGLEVEL_INFO, side_field_list(side_field_u32("n")));
/* Described and registered, but no call site emits it. */
side_static_event(ev_never, "wk", "never", SIDE_LOGLEVEL_INFO, side_field_list(side_field_u32("n")));
int main(int argc, char **argv)
{
	for (unsigned int i = 0; i < (unsigned int)atoi(argv[1]); i++)
		side_event(ev_hit, side_arg_list(side_arg_u32(i)));
	return 0;
}
C
	cc -O2 -Wall -I"$ROOT/include" "$BATS_TEST_TMPDIR/never.c" -o "$bin" \
		-L"$OUT" -Wl,-rpath,"$OUT" -lside -lpthread
	# -p: every object of the process, libside.so's events skipped.
	start_app "$BATS_TEST_TMPDIR/app.txt" "$fa" -w "$BATS_TEST_TMPDIR/go" fork 3
	timeout 60 "$SIDETRACE" -p "$APP_PID" -e 'side:*:*:* { @[probe] = count(); }' \
		> "$BATS_TEST_TMPDIR/st.txt" 2>&1 &
	st=$!
	wait_attached "$BATS_TEST_TMPDIR/st.txt"
	touch "$BATS_TEST_TMPDIR/go"
	wait "$APP"
	wait $st
	cat "$BATS_TEST_TMPDIR/st.txt"
	[ "$(grep '^@' "$BATS_TEST_TMPDIR/st.txt")" = "@[side:$fa:fk:tick]: 3" ]
	# -c: the event never emitted skipped, the other counted.
	run -0 timeout 60 "$SIDETRACE" -c "$bin 5" -e "side:$bin:*:* { @[probe] = count(); }"
	[ "$(grep '^@' <<<"$output")" = "@[side:$bin:wk:hit]: 5" ]
	run -0 timeout 60 "$SIDETRACE" -c "$bin 5" -e "usdt:$bin:* { @[probe] = count(); }"
	[ "$(grep '^@' <<<"$output")" = "@[usdt:$bin:wk:hit]: 5" ]
	run -0 "$SIDETRACE" -l "side:$bin:*"
	[ "$output" = "side:$bin:wk:hit" ]
	# Named: refused with the reason, under -c and -p alike.
	run -1 "$SIDETRACE" -c "$bin 5" -e "side:$bin:wk:never { @ = count(); }"
	[[ "$output" == *"error: wk:never has no call sites in $bin: it is $why"* ]]
	run -1 "$SIDETRACE" -c "$fa fork 3" -e "side:$L:side:statedump_begin { @ = count(); }"
	[[ "$output" == *"error: side:statedump_begin has no call sites in $L: it is $why"* ]]
	run -1 "$SIDETRACE" -p $$ -e "side:$L:side:statedump_end { @ = count(); }"
	[[ "$output" == *"error: side:statedump_end has no call sites in $L: it is $why"* ]]
	# A wildcard that matches only such events.
	run -1 "$SIDETRACE" -c "$fa fork 3" -e "side:$L:*:* { @ = count(); }"
	[[ "$output" == *"error: the events of $L that *:* matches have no call sites: they are $why"* ]]
	run -1 "$SIDETRACE" -l "side:$L:*"
	[ "$output" = "sidetrace: no probe matches side:$L:*:*: the 2 events it matches have no call sites ($why)" ]
}

# C++ names hold blanks, commas and brackets ("geo::Calc::add(long, long)
# [clone .isra.0]"): -l prints such a name in double quotes, as bpftrace's
# quoted function, and the name reads back as itself, not as a glob
# ("[clone .isra.0]" would be a bracket expression). Each probe -l prints,
# pasted into a program, is the probe it listed; a path with a blank is
# quoted the same way.
@test "every uprobe: and uretprobe: -l prints reads back as the probe it listed, C++ clones and operators included" {
	local b="$BATS_TEST_TMPDIR/a dir/cxx_clones" pat kind probe n name plan
	mkdir "$BATS_TEST_TMPDIR/a dir"
	cat > "$BATS_TEST_TMPDIR/cxx_clones.cpp" <<'CPP'
#include <cstdlib>
namespace geo {
struct Vec {
	long x, y;
};
__attribute__((noinline)) Vec operator+(Vec a, Vec b) { return Vec{a.x + b.x, a.y + b.y}; }
struct Calc {
	long base;
	__attribute__((noinline)) long add(int x) { return base + x; }
	__attribute__((noinline)) long add(long x, long y) { return base + x + y; }
	__attribute__((noinline)) long operator[](int i) const { return base * i; }
};
template <typename T> __attribute__((noinline)) T scale(T v, int by) { return v * by; }
} // namespace geo
static __attribute__((noinline)) long twice(long v, long unused) { return 2 * v; }
int main(int c, char **v)
{
	geo::Calc k{100};
	long s = 0;
	int n = atoi(v[1]);
	auto sq = [&](long x) __attribute__((noinline)) { return x * x + s; };
	for (int i = 0; i < n; i++) {
		geo::Vec w = geo::Vec{i, 1} + geo::Vec{2, i};
		s += k.add(i) + k.add((long)i, 2L) + k[i] + geo::scale<long>(i, 3) +
		     geo::scale<int>(i, 2) + twice(i, 7) + sq(i) + w.x;
	}
	return s == 0;
}
CPP
	g++ -O2 -g "$BATS_TEST_TMPDIR/cxx_clones.cpp" -o "$b"
	# gcc made the clones this test is about.
	nm "$b" | grep -q '_ZN3geo4Calc3addEll\.isra\.0$'
	nm "$b" | grep -q '_ZL5twicell\.constprop\.0$'
	run -0 "$SIDETRACE" -l "uprobe:\"$b\":*(*"
	grep -qxF "uprobe:\"$b\":\"geo::Calc::add(long, long) [clone .isra.0]\"" <<<"$output"
	grep -qxF "uprobe:\"$b\":\"geo::Calc::operator[](int) const [clone .isra.0]\"" <<<"$output"
	grep -qxF "uprobe:\"$b\":\"main::{lambda(long)#1}::operator()(long) const [clone .isra.0]\"" <<<"$output"
	for kind in uprobe uretprobe; do
		for pat in '*' '*(*' 'geo::*'; do
			# An inlined copy's line says where it is after two blanks.
			"$SIDETRACE" -l "$kind:\"$b\":$pat" | sed 's/  (inlined into .*//' | sort | uniq -c \
				> "$BATS_TEST_TMPDIR/listed"
			[ -s "$BATS_TEST_TMPDIR/listed" ]
			while read -r n probe; do
				run -0 "$SIDETRACE" -d -e "$probe { @ = count(); }"
				# The plan names the probe unquoted: as many as were listed so.
				name=$(sed -e 's/"\(.*\)":"\(.*\)"$/\1:\2/' -e 's/"\(.*\)":/\1:/' <<<"$probe")
				plan=$(grep -c "^$kind:" <<<"$output")
				[ "$plan" -eq "$n" ] || { echo "$probe: $plan probes, $n listed"; false; }
				[ "$(grep "^$kind:" <<<"$output" | sed 's/  [0-9]* sites*, .*//' | sort -u)" = "$name" ]
			done < "$BATS_TEST_TMPDIR/listed"
		done
	done
	# Pasted, they count exactly.
	run -0 timeout 60 "$SIDETRACE" -c "'$b' 5" -e "
uprobe:\"$b\":\"geo::Calc::add(int) [clone .isra.0]\" { @a = count(); }
uprobe:\"$b\":\"geo::operator+(geo::Vec, geo::Vec)\" { @p = count(); }
uprobe:\"$b\":\"main::{lambda(long)#1}::operator()(long) const [clone .isra.0]\" { @l = sum(args.x); }
uretprobe:\"$b\":\"long geo::scale<long>(long, int)\" { @r = sum(retval); }
uprobe:\"$b\":\"geo::Calc::operator[](int) const [clone .isra.0]\" { @i = sum(args.i); }"
	[ "$(grep '^@' <<<"$output")" = "@a: 5
@i: 10
@l: 10
@p: 5
@r: 30" ]
}

@test "-l: a target path with wildcards lists every file it matches, as bpftrace -l; -l -p: the usdt: probes of every object the process maps, as bpftrace -l -p" {
	run -0 "$SIDETRACE" -l "usdt:$D/app_*:*"
	[ "$(grep -c "^usdt:$D/app_pie:" <<<"$output")" -gt 0 ]
	[ "$(sed "s|^usdt:$D/app_pie:|usdt:X:|" <<<"$output" | grep '^usdt:X:' | sort)" = \
		"$(sed "s|^usdt:$D/app_nopie:|usdt:X:|" <<<"$output" | grep '^usdt:X:' | sort)" ]
	if command -v bpftrace > /dev/null; then
		diff <(sort <<<"$output") <(bpftrace -l "usdt:$D/app_*:*" 2>/dev/null | sort)
		diff <("$SIDETRACE" -l "usdt:$D/*:legacy:*" | sort) \
			<(bpftrace -l "usdt:$D/*:legacy:*" 2>/dev/null | sort)
	fi
	run -1 --separate-stderr "$SIDETRACE" -l "usdt:$D/nothing*:*"
	[ "$stderr" = "sidetrace: $D/nothing*: no file matches" ]
	# -p: the executable's and its library's, without /proc/PID/root.
	coproc APP { exec "$D/app_pie" wait; }
	local pid=$APP_PID ready
	read -r ready <&"${APP[0]}"
	run -0 "$SIDETRACE" -l -p "$pid"
	local bt=""
	command -v bpftrace > /dev/null && bt=$(bpftrace -l -p "$pid" 2>/dev/null |
		grep '^usdt:' | sed "s|^usdt:/proc/$pid/root/|usdt:/|" | sort)
	kill "$pid"
	wait "$pid" || true
	grep -q "^usdt:$D/app_pie:" <<<"$output"
	grep -q "^usdt:$D/liblistfix.so:listfix:op$" <<<"$output"
	[ -z "$bt" ] || [ "$(grep '^usdt:' <<<"$output" | sort)" = "$bt" ]
}

@test "-l '*:FILE:*' lists every user-space kind of the file; -l -p and -l 'uprobe:*' -p: the executable's functions, as bpftrace's" {
	run -0 "$SIDETRACE" -l "*:$D/plain_usdt:*"
	grep -qx "uprobe:$D/plain_usdt:main" <<<"$output"
	grep -q "^usdt:$D/plain_usdt:" <<<"$output"
	# Each kind's lines in the kinds' name order, as bpftrace's.
	[ "$(cut -d: -f1 <<<"$output" | uniq | tr '\n' ' ')" = "side uprobe usdt " ]
	if command -v bpftrace > /dev/null; then
		diff <(grep -v '^side:' <<<"$output" | sort) \
			<(bpftrace -l "*:$D/plain_usdt:*" 2>/dev/null | sort)
	fi
	run -1 --separate-stderr "$SIDETRACE" -l "*:$D/nothing:*"
	[ "$stderr" = "sidetrace: $D/nothing: No such file or directory" ]
	coproc APP { exec "$D/app_pie" wait; }
	local pid=$APP_PID ready bt="" only
	read -r ready <&"${APP[0]}"
	run -0 "$SIDETRACE" -l -p "$pid"
	only=$("$SIDETRACE" -l 'uprobe:*' -p "$pid")
	command -v bpftrace > /dev/null && bt=$(bpftrace -l -p "$pid" 2>/dev/null |
		grep '^uprobe:' | sed "s|^uprobe:/proc/$pid/root/|uprobe:/|")
	kill "$pid"
	wait "$pid" || true
	# The executable's functions, as -l lists its file's; not its libraries'.
	[ "$(grep '^uprobe:' <<<"$output")" = "$only" ]
	[ "$only" = "$("$SIDETRACE" -l "uprobe:$D/app_pie:*")" ]
	! grep -q "^uprobe:$D/liblistfix.so:" <<<"$output"
	[ -z "$bt" ] || grep -qx "uprobe:$D/app_pie:main" <<<"$bt"
}

# A process in another mount namespace (a container) names its files by
# paths only its root reaches: -p reads them through /proc/PID/root, as
# bpftrace does, to list and to attach.
@test "-p PID in another mount namespace: a target path is the process's" {
	command -v unshare > /dev/null || skip "no unshare"
	local m="$BATS_TEST_TMPDIR/ns" pid ready
	mkdir "$m"
	coproc APP { exec unshare -m --propagation private sh -c \
		"mount --bind '$D' '$m' && exec '$m/app_pie' wait"; }
	pid=$APP_PID
	read -r ready <&"${APP[0]}"
	[ ! -e "$m/app_pie" ]
	run -0 "$SIDETRACE" -l 'uprobe:main' -p "$pid"
	[ "$output" = "uprobe:/proc/$pid/root$m/app_pie:main" ]
	run -0 "$SIDETRACE" -l "uprobe:$m/app_pie:main" -p "$pid"
	[ "$output" = "uprobe:/proc/$pid/root$m/app_pie:main" ]
	run -0 "$SIDETRACE" -d -e "usdt:$m/app_pie:plain:tick { @ = count(); }" -p "$pid"
	kill "$pid"
	wait "$pid" || true
}
