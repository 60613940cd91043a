#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Functions by name, their parameters by name from DWARF,
# read where DWARF says they are at the probe's address (an integer after
# a double, a negative short, a string, an enum by label, a bool), return
# values, exact against the fixture's known values, gcc and clang from -O0
# (parameters in the frame: the probe goes past the prologue) to -O3.
# Item 3: a function's inlined copies, each probed where it starts, its
# parameters read where the copy's own DWARF locations put them.

bats_require_minimum_version 1.5.0
load helpers

N=100

setup_file() {
	build_matrix "$ROOT/tests/fixtures/dwarf_app.c" dwarf
	cc -O2 -Wall "$ROOT/tests/fixtures/dwarf_app.c" -o "$BATS_FILE_TMPDIR/dwarf_none"
	local cc o
	for cc in gcc clang; do
		for o in O2 O3; do
			$cc -$o -g -Wall "$ROOT/tests/fixtures/inline_app.c" \
				-o "$BATS_FILE_TMPDIR/inline_${cc}_$o" || return 1
		done
	done
}

# The fixture's values for i = 0 .. N-1 (tests/fixtures/dwarf_app.c).
expected() {
	awk -v n=$N 'BEGIN {
		for (i = 0; i < n; i++) {
			d += -(i % 7); c += i; s += (i * 37) % 256; g += -(i % 5); f += i % 2
			k[i % 3]++
		}
		printf "@b: %.0f\n@c: %d\n@d: %d\n@f: %d\n@g: %d\n", (n - 1) * 1000000007, c, d, f, g
		printf "@m[M_IDLE]: %d\n@m[M_READ]: %d\n@m[M_WRITE]: %d\n", k[0], k[1], k[2]
		printf "@n[alpha]: %d\n@n[beta]: %d\n@n[gamma]: %d\n", k[0], k[1], k[2]
		printf "@r: %d\n@s: %d\n", d + c, s
	}'
}

prog() { # binary
	cat <<P
uprobe:$1:scaled { @d = sum(args.delta); @c = sum(args.count); @s = sum(args.small); @b = max(args.big); }
uretprobe:$1:scaled { @r = sum(retval); }
uprobe:$1:named { @n[str(args.name)] = count(); @m[args.m] = count(); @f = sum(args.flag); }
uretprobe:$1:negated { @g = sum(retval); }
P
}

check_build() { # cc level
	check_exact "$BATS_FILE_TMPDIR/dwarf_$1_$2" $N
}

@test "gcc -O0: parameters in the frame, read past the prologue, exact" { check_build gcc O0; }
@test "gcc -O2: parameters from location lists, exact (an int after a double)" { check_build gcc O2; }
@test "gcc -O3" { check_build gcc O3; }
@test "clang -O0: the frame base in %rbp" { check_build clang O0; }
@test "clang -O2: a bool narrowed from a register, no .debug_aranges" { check_build clang O2; }
@test "clang -O3" { check_build clang O3; }

@test "members through pointers: ints, strings by pointer and in place, nested structs, a pointer's pointer" {
	local b
	for b in dwarf_gcc_O0 dwarf_gcc_O2 dwarf_clang_O2; do
		b="$BATS_FILE_TMPDIR/$b"
		run -0 timeout 60 "$SIDETRACE" -c "$b $N" -e "uprobe:$b:handle {
			@id = sum(args.r->id); @path[args.r->path] = count(); @code = sum(args.r->in.code);
			@label[args.r->in.label] = count(); @urgent = sum(args.r->urgent);
			@parent = sum(args.r->parent->id); }"
		echo "$output"
		diff <(printf '%s\n' '@code: 14850' '@id: 4950' '@label[blue]: 33' '@label[green]: 33' \
			'@label[red]: 34' '@parent: 104950' '@path[/api/v1]: 33' '@path[/index]: 34' \
			'@path[/static/app.js]: 33' '@urgent: 50') <(grep '^@' <<<"$output" | sort)
	done
}

@test "func: the probed function's name, one clause on several functions; refused where there is none" {
	local b="$BATS_FILE_TMPDIR/dwarf_gcc_O2"
	run -0 timeout 60 "$SIDETRACE" -c "$b $N" -e "uprobe:$b:scaled, uprobe:$b:named, uretprobe:$b:negated {
		@[func, probe] = count(); }"
	echo "$output"
	diff <(printf '%s\n' "@[named, uprobe:$b:named]: $N" "@[negated, uretprobe:$b:negated]: $N" \
		"@[scaled, uprobe:$b:scaled]: $N") <(grep '^@' <<<"$output" | sort)
	run -1 "$SIDETRACE" -e "uprobe:$b:scaled, side:$HTTPD:http:request { @[func] = count(); }"
	[[ "$output" == *"func is the probed function's name"*"side does not"* ]]
	run -1 "$SIDETRACE" -e 'BEGIN { printf("%s", func); }'
	[[ "$output" == *"func is the probed function's name"*"BEGIN does not"* ]]
}

@test "-lv: a function's parameters as bpftrace -lv prints them, their C declarations, then the raw registers" {
	run -0 "$SIDETRACE" -lv "uprobe:$BATS_FILE_TMPDIR/dwarf_gcc_O2:named"
	[ "${lines[0]}" = "uprobe:$BATS_FILE_TMPDIR/dwarf_gcc_O2:named" ]
	[ "${lines[1]}" = "    const char* name" ]
	[ "${lines[2]}" = "    enum mode m" ]
	[ "${lines[3]}" = "    _Bool flag" ]
	[ "${lines[4]}" = "    arg0: u64" ]
	# bpftrace's own lines for the same function.
	if command -v bpftrace >/dev/null; then
		[ "$(bpftrace -lv "uprobe:$BATS_FILE_TMPDIR/dwarf_gcc_O2:named" 2>/dev/null |
			grep '^    ')" = "$(printf '%s\n' "${lines[@]:1:3}")" ]
	fi
}

@test "what cannot be read says why: a double, no DWARF, an offset inside an instruction, a return probe at an offset" {
	local b="$BATS_FILE_TMPDIR/dwarf_gcc_O2" nd="$BATS_FILE_TMPDIR/dwarf_none"
	run -1 --separate-stderr "$SIDETRACE" -d -e "uprobe:$b:scaled { @ = sum(args.scale); }"
	grep -q "args.scale of scaled cannot be read at its uprobe: it is in a vector register (a floating-point value)" <<<"$stderr"
	run -1 --separate-stderr "$SIDETRACE" -d -e "uprobe:$nd:scaled { @ = sum(args.delta); }"
	grep -q "function scaled has no parameter 'delta': it has no debug info (DWARF): build it with -g, or install its debug symbols" <<<"$stderr"
	run -0 "$SIDETRACE" -c "$nd 10" -e "uprobe:$nd:scaled { @ = sum(arg1); }"
	grep -qx '@: 45' <<<"$output"
	run -1 --separate-stderr "$SIDETRACE" -d -e "uprobe:$b:scaled+1 { @ = count(); }"
	grep -q "scaled: +1 is not the start of an instruction" <<<"$stderr"
	run -1 --separate-stderr "$SIDETRACE" -d -e "uretprobe:$b:scaled+4 { @ = count(); }"
	grep -q "a return probe takes no +OFFSET: it is placed at the function's entry" <<<"$stderr"
	run -1 --separate-stderr "$SIDETRACE" -d -e "uprobe:$b:nosuch { @ = count(); }"
	grep -q "no function of $b matches nosuch" <<<"$stderr"
}

@test "C++: every overload by name, one by its signature (quoted when it has blanks)" {
	printf '%s\n' '#include <cstdlib>' 'namespace geo { struct Calc { long base;' \
		'__attribute__((noinline)) long add(int x) { return base + x; }' \
		'__attribute__((noinline)) long add(long x, long y) { return base + x + y; } }; }' \
		'int main(int c, char **v) { geo::Calc k{100}; long s = 0; int n = atoi(v[1]);' \
		'for (int i = 0; i < n; i++) s += k.add(i) + k.add((long)i, 2L); return s == 0; }' \
		> "$BATS_TEST_TMPDIR/calc.cpp"
	g++ -O1 -g "$BATS_TEST_TMPDIR/calc.cpp" -o "$BATS_TEST_TMPDIR/calc"
	local b="$BATS_TEST_TMPDIR/calc"
	run -0 timeout 60 "$SIDETRACE" -c "$b 10" -e "uprobe:$b:geo::Calc::add { @all = count(); }
		uprobe:$b:geo::Calc::add(int) { @x = sum(args.x); }
		uprobe:$b:\"geo::Calc::add(long, long)\" { @y = sum(args.y); }"
	echo "$output"
	grep -qx '@all: 20' <<<"$output"
	grep -qx '@x: 45' <<<"$output"
	grep -qx '@y: 20' <<<"$output"
}

@test "uprobe: beside side: and usdt: in one program, system-wide" {
	local b="$BATS_FILE_TMPDIR/dwarf_gcc_O2" st
	"$SIDETRACE" -e "uprobe:$b:negated { @u = count(); } side:$HTTPD:http:request { @s = count(); }" \
		> "$BATS_TEST_TMPDIR/sw.txt" 2>&1 &
	st=$!
	wait_attached "$BATS_TEST_TMPDIR/sw.txt"
	"$b" 30 > /dev/null
	"$HTTPD" -n 40 > /dev/null
	kill -INT $st
	wait $st
	cat "$BATS_TEST_TMPDIR/sw.txt"
	grep -qx '@u: 30' "$BATS_TEST_TMPDIR/sw.txt"
	grep -qx '@s: 40' "$BATS_TEST_TMPDIR/sw.txt"
}

@test "print(args): every readable parameter by name, retval, in bpftrace's struct form" {
	local b="$BATS_FILE_TMPDIR/dwarf_gcc_O2"
	run -0 timeout 60 "$SIDETRACE" -q -c "$b 3" -e "uprobe:$b:named { print(args); } uretprobe:$b:negated { print(args); }"
	diff <(printf '%s\n' '{ .name = "alpha", .m = M_IDLE, .flag = false }' '{ .retval = 0 }' \
		'{ .name = "beta", .m = M_READ, .flag = true }' '{ .retval = -1 }' \
		'{ .name = "gamma", .m = M_WRITE, .flag = false }' '{ .retval = -2 }') <(grep '^{' <<<"$output")
}

@test "printf %s of an enum parameter prints its label, %d its value" {
	local b="$BATS_FILE_TMPDIR/dwarf_gcc_O2"
	run -0 timeout 60 "$SIDETRACE" -q -c "$b 3" -e "uprobe:$b:named { printf(\"%s=%d\\n\", args.m, args.m); }"
	diff <(printf '%s\n' M_IDLE=0 M_READ=3 M_WRITE=7) <(grep '=' <<<"$output")
}

@test "print(args) with -f json: an event document, its fields typed (strings, enum labels, bools, numbers)" {
	local b="$BATS_FILE_TMPDIR/dwarf_gcc_O2"
	run -0 timeout 60 "$SIDETRACE" -q -f json -c "$b 3" -e "uprobe:$b:named { print(args); } uretprobe:$b:negated { print(args); }"
	grep '^{"type": "event"' <<<"$output" | python3 -c '
import json, sys
docs = [json.loads(l) for l in sys.stdin]
got = [(d["probe"].split(":")[-1], d["data"]) for d in docs]
want = [("named", {"name": "alpha", "m": "M_IDLE", "flag": False}), ("negated", {"retval": 0}),
        ("named", {"name": "beta", "m": "M_READ", "flag": True}), ("negated", {"retval": -1}),
        ("named", {"name": "gamma", "m": "M_WRITE", "flag": False}), ("negated", {"retval": -2})]
assert got == want, got
assert all(d["pid"] > 0 and d["tid"] > 0 and d["time_ns"] > 0 for d in docs)
'
}

# tests/fixtures/inline_app.c: scale() inlined into first, second and
# third, and called out of line through a pointer; mix() only inlined.
@test "inlined copies: exact counts and sums of a parameter at every copy (each its own location), constants folded in, a function with no symbol" {
	local b cc o
	for cc in gcc clang; do
		for o in O2 O3; do
			b="$BATS_FILE_TMPDIR/inline_${cc}_$o"
			# Not a test of nothing: the copies exist, and mix() has no symbol.
			[ "$(nm "$b" | grep -cw 'mix')" -eq 0 ]
			run -0 timeout 60 "$SIDETRACE" -c "$b $N" -e "uprobe:$b:scale {
				@c = count(); @x = sum(args.x); @by = sum(args.by); @f[func, probe] = count(); }
				uprobe:$b:mix { @m = count(); @a = sum(args.a); }"
			echo "$output"
			diff <(printf '%s\n' '@a: 14850' '@by: 2600' '@c: 400' \
				"@f[scale, uprobe:$b:scale]: 400" '@m: 200' '@x: 25450') \
				<(grep '^@' <<<"$output" | sort)
		done
	done
}

@test "-lv: each inlined copy after the out-of-line function, saying where it is" {
	local b="$BATS_FILE_TMPDIR/inline_gcc_O2"
	run -0 "$SIDETRACE" -lv "uprobe:$b:scale"
	echo "$output"
	[ "$(grep -cx "uprobe:$b:scale" <<<"$output")" -eq 1 ]
	[ "$(grep -cx "uprobe:$b:scale  (inlined into \(first\|second\|third\) at 0x[0-9a-f]*)" <<<"$output")" -eq 3 ]
	[ "${lines[1]}" = "    long int x" ]
	[ "${lines[4]}" = "    arg0: u64" ]
	local f
	for f in first second third; do
		grep -q "arg0: u64 (not readable here: its copy inlined into $f at 0x[0-9a-f]* is not called" <<<"$output"
	done
	run -0 "$SIDETRACE" -l "uprobe:$b:mix"
	[ "${#lines[@]}" -eq 2 ]
}

@test "inlined copies: a parameter a copy does not keep, or arg0 in a copy, is refused naming the copy" {
	local b
	for b in inline_gcc_O2 inline_clang_O2; do
		b="$BATS_FILE_TMPDIR/$b"
		run -1 --separate-stderr "$SIDETRACE" -d -e "uprobe:$b:scale { @ = sum(args.spare); }"
		echo "$stderr"
		grep -q "args.spare of scale cannot be read at its uprobe: .*, in its copy inlined into [a-z]* at 0x" <<<"$stderr"
		run -1 --separate-stderr "$SIDETRACE" -d -e "uprobe:$b:mix { @ = sum(arg0); }"
		grep -q "arg0 of mix cannot be read at its uprobe: its copy inlined into [a-z]* at 0x[0-9a-f]* is not called: the ABI's registers do not hold its arguments there" <<<"$stderr"
	done
}

@test "uretprobe: on an inlined function, only its out-of-line copy, said; refused when it has none" {
	local b="$BATS_FILE_TMPDIR/inline_gcc_O2"
	run -0 --separate-stderr timeout 60 "$SIDETRACE" -c "$b $N" -e "uretprobe:$b:scale { @r = count(); }"
	echo "$output $stderr"
	grep -qx "@r: $N" <<<"$output"
	grep -q "warning: uretprobe:$b:scale: scale returns only from its out-of-line copy here: its copies inlined into third, second, first have no return to probe" <<<"$stderr"
	run -1 --separate-stderr "$SIDETRACE" -d -e "uretprobe:$b:mix { @r = count(); }"
	echo "$stderr"
	grep -q "mix is only inlined (into second, first): an inlined copy has no return to probe; uprobe: probes where each copy starts" <<<"$stderr"
}

@test "FUNCTION+OFFSET stays in the out-of-line copy" {
	local b="$BATS_FILE_TMPDIR/inline_gcc_O2"
	run -0 timeout 60 "$SIDETRACE" -c "$b $N" -e "uprobe:$b:scale+0x3 { @ = count(); }"
	echo "$output"
	grep -qx "@: $N" <<<"$output"
}

@test "gcc's clones of a whole function by its name (.constprop, .isra, .lto_priv), never a piece of one (.part)" {
	local b="$BATS_FILE_TMPDIR/clone_app"
	gcc -O2 -g -Wall "$ROOT/tests/fixtures/clone_app.c" -o "$b"
	# The compiler made the clones this test is about.
	nm "$b" | grep -q ' scale\.constprop\.[0-9]*$'
	nm "$b" | grep -q ' work\.constprop\.[0-9]*\.isra\.[0-9]*$'
	run -0 timeout 60 "$SIDETRACE" -c "$b $N" -e "uprobe:$b:scale { @ = count(); @x = sum(args.x); @by = sum(args.by); }
		uprobe:$b:work { @k = sum(args.k); } uprobe:$b:zed { @z = count(); @zv = sum(args.v); }"
	echo "$output"
	diff <(printf "%s\n" "@: $N" "@by: $((3 * N))" "@k: $((N * (N - 1) / 2))" "@x: $((N * (N - 1) / 2))" "@z: $N" "@zv: $((N * (N - 1) / 2))") \
		<(grep '^@' <<<"$output" | sort)
	run -0 "$SIDETRACE" -l "uprobe:$b:scale"
	[ "$output" = "uprobe:$b:scale" ]
}

# A stripped build's functions and parameters, from the debug file found in
# DIR by the search path (SIDETRACE_DEBUGINFO_PATH, elfutils' syntax):
# -lv lists what the unstripped build lists, args.NAME reads exactly, and
# a stack names its frames from the debug file's symbol table (a build
# with a build id: a frame of one without is named from its process's
# mappings, which a short run may end before sidetrace reads them).
check_debug_file() { # stripped-binary search-path
	local want
	want=$(sed 1d <<<"$("$SIDETRACE" -lv "uprobe:$BATS_FILE_TMPDIR/dwarf_gcc_O2:named")")
	run -0 env SIDETRACE_DEBUGINFO_PATH="$2" "$SIDETRACE" -lv "uprobe:$1:named"
	[ "$(sed 1d <<<"$output")" = "$want" ]
	run -0 env SIDETRACE_DEBUGINFO_PATH="$2" "$SIDETRACE" -c "$1 $N" -e "uprobe:$1:named {
		@n[str(args.name)] = count(); @u[ustack(1)] = count(); }"
	echo "$output"
	diff <(expected | grep "^@n") <(grep "^@n" <<<"$output" | sort)
	grep -q '^@u\[$' <<<"$output"
	[ -z "$(readelf -n "$1" | grep 'Build ID')" ] || grep -qx '    named+0' <<<"$output"
}

@test "separate debug info: by build id under a debug root, by debug link beside the binary, in .debug/ and under the root; another build's is refused" {
	local D=$BATS_TEST_TMPDIR id src="$ROOT/tests/fixtures/dwarf_app.c" root
	# Debian's layout: ROOT/.build-id/xx/yyyy.debug, from the build id note.
	id=$(readelf -n "$BATS_FILE_TMPDIR/dwarf_gcc_O2" | awk '/Build ID:/ { print $3 }')
	[ -n "$id" ]
	mkdir -p "$D/root/.build-id/${id:0:2}" "$D/bid"
	objcopy --only-keep-debug "$BATS_FILE_TMPDIR/dwarf_gcc_O2" \
		"$D/root/.build-id/${id:0:2}/${id:2}.debug"
	strip -o "$D/bid/app" "$BATS_FILE_TMPDIR/dwarf_gcc_O2"
	check_debug_file "$D/bid/app" "$D/root"
	# No build id: the debug link, its CRC32 checked, beside the binary, ...
	gcc -O2 -g -Wall -Wl,--build-id=none "$src" -o "$D/nobid"
	mkdir "$D/link"
	objcopy --only-keep-debug "$D/nobid" "$D/link/app.debug"
	strip -o "$D/link/app" "$D/nobid"
	objcopy --add-gnu-debuglink="$D/link/app.debug" "$D/link/app"
	check_debug_file "$D/link/app" ""
	# ... in its .debug/ subdirectory, ...
	mkdir "$D/link/.debug"
	mv "$D/link/app.debug" "$D/link/.debug/"
	check_debug_file "$D/link/app" ""
	# ... and under a debug root, by the binary's directory.
	root="$D/root/$D/link"
	mkdir -p "$root"
	mv "$D/link/.debug/app.debug" "$root/"
	check_debug_file "$D/link/app" ":.debug:$D/root"
	# Another build's debug file by the same name: its CRC differs, not read.
	gcc -O0 -g -Wall -Wl,--build-id=none "$src" -o "$D/other"
	objcopy --only-keep-debug "$D/other" "$D/link/app.debug"
	run -1 --separate-stderr "$SIDETRACE" -lv "uprobe:$D/link/app:named"
	[[ "$stderr" == *"it is stripped"*"nor does a debug file of it"* ]]
}
