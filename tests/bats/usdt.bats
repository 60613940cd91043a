#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# usdt: probes on any USDT probe, arguments typed by their
# SDT operands, exact against the fixture's known values, whatever form
# the compiler gave the operands (gcc and clang, -O0 to -O3: registers of
# every size, constants, frame offsets, index registers).

bats_require_minimum_version 1.5.0
load helpers

N=100

setup_file() {
	build_matrix "$ROOT/tests/fixtures/usdt_app.c" usdt
}

# The fixture's values for i = 0 .. N-1 (tests/fixtures/usdt_app.c).
expected() {
	awk -v n=$N 'BEGIN {
		for (i = 0; i < n; i++) {
			s0 += i; s1 += -(i % 7); s2 += (i * 37) % 256; e += (i % 8) * 3 + 1
			k += i % 3; c[i % 3]++
		}
		printf "@c4: %d\n@e: %d\n@g: %d\n@k: %d\n@m3: %.0f\n", 42 * n, e, n, k, (n - 1) * 1000000007
		printf "@name[alpha]: %d\n@name[beta]: %d\n@name[gamma]: %d\n", c[0], c[1], c[2]
		printf "@s0: %d\n@s1: %d\n@s2: %d\n", s0, s1, s2
	}'
}

prog() { # binary
	cat <<P
usdt:$1:fx:ints { @s0 = sum(arg0); @s1 = sum(arg1); @s2 = sum(arg2); @m3 = max(arg3); @c4 = sum(arg4); }
usdt:$1:fx:name { @name[str(arg0)] = count(); @k = sum(arg1); }
usdt:$1:elem { @e = sum(arg0); }
usdt:$1:fx:gated { @g = count(); }
P
}

check_build() { # cc level
	check_exact "$BATS_FILE_TMPDIR/usdt_$1_$2" $N
}

@test "gcc -O0: frame-offset and register operands, exact" { check_build gcc O0; }
@test "gcc -O2: index-register operands (8@(%rdx,%rax,8)), exact" { check_build gcc O2; }
@test "gcc -O3" { check_build gcc O3; }
@test "clang -O0" { check_build clang O0; }
@test "clang -O2: %rsp-relative operands, exact" { check_build clang O2; }
@test "clang -O3" { check_build clang O3; }

@test "a semaphore-gated probe fires only while traced, system-wide and in a process started later" {
	local b="$BATS_FILE_TMPDIR/usdt_gcc_O2" st
	"$SIDETRACE" -e "usdt:$b:fx:gated { @g = count(); @s = sum(arg0); }" > "$BATS_TEST_TMPDIR/sw.txt" 2>&1 &
	st=$!
	wait_attached "$BATS_TEST_TMPDIR/sw.txt"
	"$b" $N
	kill -INT $st
	wait $st
	cat "$BATS_TEST_TMPDIR/sw.txt"
	grep -qx "@g: $N" "$BATS_TEST_TMPDIR/sw.txt"
	grep -qx "@s: $((N * (N - 1) / 2))" "$BATS_TEST_TMPDIR/sw.txt"
}

@test "-p with an empty target: every object the process maps" {
	printf '%s\n' '#include <sys/sdt.h>' '#include <stdio.h>' '#include <unistd.h>' \
		'int main(void) { printf("%d\n", getpid()); fflush(stdout); sleep(1);' \
		'for (int i = 0; i < 50; i++) DTRACE_PROBE1(sl, tick, i); return 0; }' \
		> "$BATS_TEST_TMPDIR/late.c"
	cc -O2 "$BATS_TEST_TMPDIR/late.c" -o "$BATS_TEST_TMPDIR/late"
	start_app "$BATS_TEST_TMPDIR/late.out" "$BATS_TEST_TMPDIR/late"
	run -0 timeout 30 "$SIDETRACE" -p "$APP_PID" -e 'usdt::sl:tick { @n = count(); @s = sum(arg0); }'
	echo "$output"
	grep -qx '@n: 50' <<<"$output"
	grep -qx '@s: 1225' <<<"$output"
}

@test "-lv: each argument's type and operand" {
	run -0 "$SIDETRACE" -lv "usdt:$BATS_FILE_TMPDIR/usdt_gcc_O2:ints"
	[ "$output" = "usdt:$BATS_FILE_TMPDIR/usdt_gcc_O2:fx:ints
    arg0: s32 (-4@%edi)
    arg1: s16 (-2@%ax)
    arg2: u8 (1@%dl)
    arg3: s64 (-8@%rsi)
    arg4: s32 (-4@\$42)" ]
}

@test "a SIDE event's sites are usdt: probes too, arguments raw" {
	run -0 "$SIDETRACE" -c "$HTTPD -n 200 -s 7" -e "usdt:$HTTPD:http:error { @n = count(); @c = sum(arg0); }"
	[ "$(grep '^@n:' <<<"$output")" = "@n: $("$HTTPD" -n 200 -s 7 -v | truth_count http:error)" ]
	[ "$(grep '^@c:' <<<"$output")" = "@c: $("$HTTPD" -n 200 -s 7 -v | truth_sum http:error code)" ]
}

@test "usdt: mistakes: unknown probe, print(args) of mixed kinds, argN in side:" {
	local b="$BATS_FILE_TMPDIR/usdt_gcc_O2"
	run -1 --separate-stderr "$SIDETRACE" -d -e "usdt:$b:fx:intz { @ = count(); }"
	grep -q "unknown USDT probe fx:intz in $b" <<<"$stderr"
	grep -q "did you mean fx:ints?" <<<"$stderr"
	run -1 --separate-stderr "$SIDETRACE" -d -e "usdt:$b:fx:ints, side:$HTTPD:http:error { print(args); }"
	grep -q "print(args) in a clause of side: events and usdt: or uprobe: probes: give each kind its own clause" <<<"$stderr"
	run -1 --separate-stderr "$SIDETRACE" -d -e "side:$HTTPD:http:error { @ = sum(arg0); }"
	grep -q "'arg0' is an SDT operand of usdt: probes: SIDE fields have names, use args.FIELD" <<<"$stderr"
}

# Real software from Debian (installed by scripts/deps.sh).

@test "Python 3.11: function__return by function name, exact for a script with known calls" {
	local py=/usr/bin/python3.11 s="$BATS_TEST_TMPDIR/calls.py"
	[ -x "$py" ] || skip "no $py"
	printf 'def leaf(x):\n    return x + 1\ndef mid(n):\n    return sum(leaf(i) for i in range(n))\nfor _ in range(20):\n    mid(5)\n' > "$s"
	run -0 timeout 60 "$SIDETRACE" -c "$py $s" \
		-e "usdt:$py:python:function__return /str(arg0) == \"$s\"/ { @[str(arg1)] = count(); }"
	echo "$output"
	grep -qx '@\[leaf\]: 100' <<<"$output"
	grep -qx '@\[mid\]: 20' <<<"$output"
	grep -qx '@\[<module>\]: 1' <<<"$output"
}

@test "libstdc++ by name under -c: throw, rethrow and catch counted (bpftrace -c cannot attach there)" {
	printf '%s\n' '#include <cstdlib>' \
		'int main(int argc, char **argv) { int n = atoi(argv[1]);' \
		'for (int i = 0; i < n; i++) try { try { throw i; } catch (...) { throw; } } catch (int) {}' \
		'return 0; }' > "$BATS_TEST_TMPDIR/t.cpp"
	g++ -O2 "$BATS_TEST_TMPDIR/t.cpp" -o "$BATS_TEST_TMPDIR/thrower"
	run -0 timeout 60 "$SIDETRACE" -c "$BATS_TEST_TMPDIR/thrower 7" \
		-e 'usdt:libstdc++:libstdcxx:* { @[probe] = count(); }'
	echo "$output"
	grep -qx "@\[usdt:libstdc++:libstdcxx:throw\]: 7" <<<"$output"
	grep -qx "@\[usdt:libstdc++:libstdcxx:rethrow\]: 7" <<<"$output"
	grep -qx "@\[usdt:libstdc++:libstdcxx:catch\]: 14" <<<"$output"
}

# The semaphore of http:request in process PID, polled until it is WANT (5 s).
semaphore_becomes() { # pid want
	local i
	for i in $(seq 50); do
		[ "$(read_semaphore "$1" "$HTTPD" http request)" -eq "$2" ] && return 0
		sleep 0.1
	done
	echo "semaphore of pid $1 is $(read_semaphore "$1" "$HTTPD" http request), not $2" >&2
	return 1
}

@test "--usdt-file-activation: the semaphore raised in every running process that maps the file, as bpftrace's; -p: in that process alone" {
	local T=$BATS_TEST_TMPDIR a b st
	start_app "$T/a" "$HTTPD" -d 120 -r 50 -p
	a=$APP_PID
	start_app "$T/b" "$HTTPD" -d 120 -r 50 -p
	b=$APP_PID
	"$SIDETRACE" --usdt-file-activation -e "usdt:$HTTPD:http:request { @ = count(); }" \
		> "$T/sw" 2>&1 &
	st=$!
	wait_attached "$T/sw"
	semaphore_becomes "$a" 1
	semaphore_becomes "$b" 1
	kill -INT $st
	wait_exit $st sidetrace
	semaphore_becomes "$a" 0
	semaphore_becomes "$b" 0
	grep -q '^@: [1-9]' "$T/sw"
	# bpftrace's option raises the same semaphores.
	if command -v bpftrace > /dev/null; then
		timeout -s INT 60 bpftrace --usdt-file-activation \
			-e "usdt:$HTTPD:http:request { @ = count(); }" > "$T/bt" 2>&1 &
		st=$!
		wait_attached "$T/bt"
		semaphore_becomes "$a" 1
		semaphore_becomes "$b" 1
		kill -TERM $st
		wait_exit $st bpftrace TERM
		semaphore_becomes "$a" 0
	fi
	# -p: the process's semaphore, not the other's.
	"$SIDETRACE" -p "$a" -e "usdt:$HTTPD:http:request { @ = count(); }" > "$T/p" 2>&1 &
	st=$!
	wait_attached "$T/p"
	semaphore_becomes "$a" 1
	[ "$(read_semaphore "$b" "$HTTPD" http request)" -eq 0 ]
	kill -INT $st
	wait_exit $st sidetrace
	semaphore_becomes "$a" 0
	grep -q '^@: [1-9]' "$T/p"
	kill "$a" "$b"
	wait "$a" "$b" || true
}

@test "a target path with '*', without -p: every file it matches; each location of a probe is one of 'Attaching N probes', as bpftrace's" {
	local d="$BATS_TEST_TMPDIR" p
	cat > "$d/twice.c" <<'C'
#include <sys/sdt.h>
int main(int argc, char **argv)
{
	(void)argv;
	DTRACE_PROBE1(tw, hit, 1);
	if (argc > 5)
		DTRACE_PROBE1(tw, hit, 2);
	DTRACE_PROBE1(tw, one, 3);
	return 0;
}
C
	cc -O2 "$d/twice.c" -o "$d/tw_a"
	cp "$d/tw_a" "$d/tw_b"
	echo "no object" > "$d/tw_text"
	p="usdt:$d/tw_*:tw:hit { @h = count(); } usdt:$d/tw_*:tw:one { @o = count(); }"
	run -0 "$SIDETRACE" -c "$d/tw_a" -e "$p"
	# tw:hit: 2 files, 2 locations each; tw:one: 2 files, 1 each.
	[ "${lines[0]}" = "Attaching 6 probes..." ]
	grep -qx '@h: 1' <<<"$output"
	grep -qx '@o: 1' <<<"$output"
	if command -v bpftrace > /dev/null; then
		run -0 --separate-stderr bpftrace -c "$d/tw_a" -e "$p"
		[ "${lines[0]}" = "Attaching 6 probes..." ]
	fi
	run -1 --separate-stderr "$SIDETRACE" -d -e "usdt:$d/none_*:tw:hit { @ = count(); }"
	grep -qF "cannot read the events of $d/none_*: no file matches ('*' without -p matches files)" <<<"$stderr"
}
