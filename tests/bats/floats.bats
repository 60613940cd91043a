#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Floating-point values, which neither bpftrace nor perf probe
# reads. BPF has no floating point: the program carries a float's bits and
# the collector prints the value (printf %f %e %g %a, print(args), JSON),
# exact against the fixture's values (tests/fixtures/float_app.c): SIDE
# fields on the kernel path and in the process, and a C function's
# parameters where DWARF puts them in memory (-O0, gcc and clang). Where a
# float is in a vector register, or would be computed with, it is refused
# with the reason.

bats_require_minimum_version 1.5.0
load helpers

N=40

setup_file() {
	local cc
	for cc in gcc clang; do
		$cc -O0 -g -Wall -Werror -I"$ROOT/include" "$ROOT/tests/fixtures/float_app.c" \
			-o "$BATS_FILE_TMPDIR/float_${cc}_O0" "$OUT/libside.a" -lpthread || return 1
	done
	gcc -O2 -g -Wall -Werror -I"$ROOT/include" "$ROOT/tests/fixtures/float_app.c" \
		-o "$BATS_FILE_TMPDIR/float_gcc_O2" "$OUT/libside.a" -lpthread
}

# The fixture's measure events, as printf("%s %.2f %g %u\n") prints them.
measures() {
	awk -v n=$N 'BEGIN { for (i = 0; i < n; i++) printf "m%d %.2f %g %u\n", i % 3, i / 4, i / 2, i }'
}

@test "side: float32 and float64 fields printed exactly, on the kernel path and in the process" {
	local b="$BATS_FILE_TMPDIR/float_gcc_O0" engine
	for engine in "" --in-process; do
		run -0 timeout 60 "$SIDETRACE" $engine -c "$b $N" -e "side:$b:fl:measure {
			printf(\"%s %.2f %g %u\\n\", args.name, args.ratio, args.gain, args.n); }"
		diff <(measures) <(grep '^m[0-9]' <<<"$output")
	done
}

@test "side: print(args) shows the floats, in text and JSON" {
	local b="$BATS_FILE_TMPDIR/float_gcc_O0"
	run -0 timeout 60 "$SIDETRACE" -c "$b 3" -e "side:$b:fl:measure { print(args); }"
	grep -qx '{ .name = "m2", .ratio = 0.5, .gain = 1, .n = 2 }' <<<"$output"
	run -0 timeout 60 "$SIDETRACE" -f json -c "$b 2" -e "side:$b:fl:measure { print(args); }"
	grep -q '"data": {"name": "m1", "ratio": 0.25, "gain": 0.5, "n": 1}}' <<<"$output"
}

@test "uprobe: float parameters in the frame at -O0 (gcc, clang), exact; print(args) and its JSON" {
	local b cc
	for cc in gcc clang; do
		b="$BATS_FILE_TMPDIR/float_${cc}_O0"
		run -0 timeout 60 "$SIDETRACE" -c "$b $N" -e "uprobe:$b:mix {
			printf(\"w=%.3f i=%d bias=%.1f\\n\", args.weight, args.i, args.bias); }"
		diff <(awk -v n=$N 'BEGIN { for (i = 0; i < n; i++) printf "w=%.3f i=%d bias=%.1f\n", i / 8, i, (i ? -i : 0) }') \
			<(grep '^w=' <<<"$output")
		run -0 timeout 60 "$SIDETRACE" -c "$b 4" -e "uprobe:$b:mix { print(args); }"
		grep -qx '{ .weight = 0.375, .i = 3, .bias = -3 }' <<<"$output"
		run -0 timeout 60 "$SIDETRACE" -f json -c "$b 2" -e "uprobe:$b:mix { print(args); }"
		grep -q '"data": {"weight": 0.125, "i": 1, "bias": -1}}' <<<"$output"
	done
	run -0 "$SIDETRACE" -lv "uprobe:$b:mix"
	[ "${lines[1]}" = "    double weight" ] && [ "${lines[3]}" = "    float bias" ]
}

@test "refused with the reason: a float in a vector register, a float returned, a float computed with" {
	local b2="$BATS_FILE_TMPDIR/float_gcc_O2" b0="$BATS_FILE_TMPDIR/float_gcc_O0"
	run -1 --separate-stderr "$SIDETRACE" -d -e "uprobe:$b2:mix { printf(\"%f\\n\", args.weight); }"
	grep -q "args.weight of mix cannot be read at its uprobe: it is in a vector register (a floating-point value), which a BPF program cannot read" <<<"$stderr"
	run -1 --separate-stderr "$SIDETRACE" -d -e "uretprobe:$b0:half { printf(\"%f\\n\", retval); }"
	grep -q "retval of half cannot be read at its uretprobe: it is returned in a vector register (%xmm0)" <<<"$stderr"
	run -1 --separate-stderr "$SIDETRACE" -d -e "side:$b0:fl:measure { @[args.ratio] = count(); }"
	grep -q "args.ratio is a floating-point value (float64): BPF has no floating point, so sidetrace prints it but cannot compute with it, compare it, or keep it in a map or a variable" <<<"$stderr"
	run -1 --separate-stderr "$SIDETRACE" -d -e "side:$b0:fl:measure { printf(\"%d\\n\", args.gain); }"
	grep -q "printf: argument 1 is a floating-point value: print it with %f, %e or %g" <<<"$stderr"
}
