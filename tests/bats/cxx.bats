#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# C++ and calls from any file: the headers as C++11 to C++23 under g++ and
# clang++, the C++ example service (events defined in events.cpp, emitted
# from order_book.cpp and main.cpp) seen by sidetrace, readelf and stock
# bpftrace, and notes of call sites in other files.

load helpers
bats_require_minimum_version 1.5.0

OS="$OUT/examples/order_service"

# "provider:name count" for every probe, from readelf's notes.
readelf_sites() {
	readelf -n "$1" | awk '/Provider:/ { p = $2 } /Name:/ { print p ":" $2 }' |
		sort | uniq -c | awk '{ print $2, $1 }'
}

@test "every public header compiles on its own, as C and as C++ under g++ and clang++" {
	cd "$ROOT/include"
	for h in side/*.h side/abi/*.h; do
		for c in "gcc -x c -std=gnu11" "clang -x c" "g++ -x c++ -std=c++11" \
			"clang++ -x c++ -std=c++2b"; do
			echo "#include <$h>" |
				$c -Wall -Wextra -Werror -I. -fsyntax-only - ||
				{ echo "$h: $c"; false; }
		done
	done
}

@test "side/trace.h with events and calls: C++11, 14, 17, 20 and 23, g++ and clang++" {
	cat >"$BATS_TEST_TMPDIR/all.cpp" <<-'EOF'
	#include <side/trace.h>
	side_static_event(ev, "p", "e", SIDE_LOGLEVEL_INFO,
		side_field_list(side_field_u32("a"), side_field_string("s")));
	side_declare_event(ev_h);
	side_hidden_event(ev_h, "p", "h", SIDE_LOGLEVEL_INFO, side_field_list(side_field_s8("b")));
	int main(int argc, char **argv)
	{
		side_event(ev, side_arg_list(side_arg_u32(argc), side_arg_string(argv[0])));
		side_event(ev_h, side_arg_list(side_arg_s8(-1)));
		return 0;
	}
	EOF
	for c in g++ clang++; do
		for std in c++11 c++14 c++17 c++20 c++2b; do
			$c -std=$std -O0 -Wall -Wextra -Werror -I"$ROOT/include" \
				-c "$BATS_TEST_TMPDIR/all.cpp" -o "$BATS_TEST_TMPDIR/all.o" ||
				{ echo "$c -std=$std"; false; }
		done
	done
}

@test "the C++ example lists its events with their fields" {
	run "$SIDETRACE" list "$OS"
	[ "$status" -eq 0 ]
	grep -qx '  orders:placed  \[INFO\]  1 site' <<<"$output"
	grep -qx '    symbol: string' <<<"$output"
	grep -qx '    side: enum<u8>' <<<"$output"
	grep -qx '    price_cents: s64' <<<"$output"
	grep -qx '  orders:filled  \[INFO\]  1 site' <<<"$output"
	grep -qx '    fill: struct { price_cents: s64, qty: u32 }' <<<"$output"
	grep -qx '  orders:rejected  \[WARNING\]  1 site' <<<"$output"
	grep -qx '    best: vla<s64>' <<<"$output"
	grep -qx '  service:log  \[NOTICE\]  2 sites  variadic' <<<"$output"
	# Every site belongs to a described event: none is a plain USDT probe.
	! grep -q 'no SIDE description' <<<"$output"
}

@test "C++ descriptions are constant-initialized: no constructor writes them" {
	# A dynamic initializer would leave the description in .bss until main.
	! nm "$OS" | grep -q '_GLOBAL__sub_I_events'
	[ "$(readelf_sites "$OS" | wc -l)" -eq 5 ]
}

@test "stock bpftrace lists the C++ events and counts calls made in other files" {
	run bpftrace_q -l "usdt:$OS:*"
	for ev in orders:placed orders:filled orders:rejected book:depth service:log; do
		grep -qx "usdt:$OS:$ev" <<<"$output"
	done
	[ "$(wc -l <<<"$output")" -eq 5 ]
	truth=$("$OS" -n 400 -s 9 -v)
	run bpftrace_q -c "$OS -n 400 -s 9" -e "
		usdt:$OS:orders:placed { @n = count(); @qty = sum(arg4); @sym[str(arg1)] = count(); }
		usdt:$OS:orders:rejected { @r = count(); }"
	[ "$status" -eq 0 ]
	placed=$(grep -c '^orders:placed ' <<<"$truth")
	grep -q "^@n: $placed\$" <<<"$output"
	grep -q "^@qty: $(truth_sum orders:placed qty <<<"$truth")\$" <<<"$output"
	grep -q "^@sym\[ACME\]: $placed\$" <<<"$output"
	grep -q "^@r: $(grep -c '^orders:rejected ' <<<"$truth")\$" <<<"$output"
}

@test "sidetrace reads fields by name at sites in other files, nested ones too" {
	truth=$("$OS" -n 400 -s 9 -v)
	run timeout 60 "$SIDETRACE" -c "$OS -n 400 -s 9" -e "
		side:$OS:orders:placed { @qty = sum(args.qty); @by[args.side] = count(); }
		side:$OS:orders:filled { @n = count(); @fq = sum(args.fill.qty); }"
	[ "$status" -eq 0 ]
	grep -q "^@qty: $(truth_sum orders:placed qty <<<"$truth")\$" <<<"$output"
	# An enum key prints its label.
	grep -q "^@by\[buy\]: $(grep -c '^orders:placed .* side=0 ' <<<"$truth")\$" <<<"$output"
	# Every fill is counted once, and the total filled is what the service reports.
	filled=$("$OS" -n 400 -s 9 | sed -n 's/.*, \([0-9]*\) filled$/\1/p')
	grep -q "^@fq: $filled\$" <<<"$output"
}

# A hidden event defined in a.c, called in a.c and in b.c through a header.
build_two_files() { # extra-args-for-b
	local d=$BATS_TEST_TMPDIR
	cat >"$d/ev.h" <<-'EOF'
	#include <side/trace.h>
	side_declare_event(ev_two);
	EOF
	cat >"$d/a.c" <<-'EOF'
	#include "ev.h"
	side_hidden_event(ev_two, "two files", "call-site", SIDE_LOGLEVEL_INFO,
		side_field_list(side_field_u32("n"), side_field_string("from")));
	void b(unsigned int n);
	/* Not a constant: clang would unroll the loop, and copy its site five times. */
	volatile unsigned int rounds = 5;
	int main(void)
	{
		for (unsigned int i = 0; i < rounds; i++) {
			side_event(ev_two, side_arg_list(side_arg_u32(i), side_arg_string("a")));
			b(i);
		}
		return 0;
	}
	EOF
	cat >"$d/b.c" <<-EOF
	#include "ev.h"
	void b(unsigned int n)
	{
		side_event(ev_two, side_arg_list(side_arg_u32(n * 10), side_arg_string("b")$1));
	}
	EOF
}

@test "a call in another file: one probe, the definition's names, its semaphore" {
	build_two_files ""
	d=$BATS_TEST_TMPDIR
	for cc in gcc clang; do
		$cc -O2 -I"$ROOT/include" -I"$d" "$d/a.c" "$d/b.c" "$OUT/libside.a" -lpthread \
			-o "$d/two_$cc"
		# Both sites carry the definition's sanitized names and one semaphore.
		[ "$(readelf_sites "$d/two_$cc")" = "two_files:call_site 2" ]
		[ "$(readelf -n "$d/two_$cc" | grep -o 'Semaphore: 0x[0-9a-f]*' | sort -u |
			wc -l)" -eq 1 ]
		run "$SIDETRACE" list "$d/two_$cc"
		grep -qx '  two files:call-site  \[INFO\]  2 sites' <<<"$output"
	done
	run bpftrace_q -c "$d/two_gcc" -e \
		"usdt:$d/two_gcc:two_files:call_site { @[str(arg1)] = sum(arg0); }"
	grep -q '^@\[a\]: 10$' <<<"$output"
	grep -q '^@\[b\]: 100$' <<<"$output"
}

@test "a call in another file with the wrong number of arguments fails to link" {
	build_two_files ', side_arg_u32(1)'
	d=$BATS_TEST_TMPDIR
	cc -O2 -I"$ROOT/include" -I"$d" -c "$d/b.c" -o "$d/b.o"
	run cc -O2 -I"$ROOT/include" -I"$d" "$d/a.c" "$d/b.o" "$OUT/libside.a" -lpthread \
		-o "$d/two_bad"
	[ "$status" -ne 0 ]
	grep -q "undefined reference to \`side_event_ev_two_takes_3_arguments_0'" <<<"$output"
}

@test "note names: spaces and punctuation become '_' with gcc, clang, g++ and clang++" {
	cat >"$BATS_TEST_TMPDIR/names.c" <<-'EOF'
	#include <side/trace.h>
	side_static_event(e1, "unsigned int", "item-added/v2 (x)", SIDE_LOGLEVEL_INFO,
		side_field_list(side_field_u32("x")));
	int main(void) { side_event(e1, side_arg_list(side_arg_u32(1))); return 0; }
	EOF
	for c in "gcc -x c" "clang -x c" "g++ -x c++" "clang++ -x c++"; do
		$c -O0 -I"$ROOT/include" "$BATS_TEST_TMPDIR/names.c" -x none "$OUT/libside.a" \
			-lpthread -o "$BATS_TEST_TMPDIR/names"
		run readelf -n "$BATS_TEST_TMPDIR/names"
		grep -q 'Provider: unsigned_int$' <<<"$output"
		grep -q 'Name: item_added_v2__x_$' <<<"$output"
		run "$SIDETRACE" list "$BATS_TEST_TMPDIR/names"
		grep -qx '  unsigned int:item-added/v2 (x)  \[INFO\]  1 site' <<<"$output"
	done
}
