#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs every suite: C unit tests, compile-fail tests, the format check, the
# layout, the fuzzers (bounded), bats and the one-liner cases end to end,
# then bats and the cases once more with the collector built with ASan and
# UBSan (tests/asan.sh, about two minutes; SIDETRACE_SKIP_ASAN=1 skips it).
# Each suite ends with "N passed, N failed"; so does the whole run.
set -u
cd "$(dirname "$0")/.."
OUT=.output

if [ "$(id -u)" != 0 ]; then
	echo "tests: the end-to-end suites attach BPF programs and need root" >&2
	exit 1
fi
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing
mountpoint -q /sys/kernel/debug || mount -t debugfs debugfs /sys/kernel/debug
mountpoint -q /sys/fs/bpf || mount -t bpf bpf /sys/fs/bpf

total_pass=0
total_fail=0

# Reads a suite's output on stdin, echoes it, adds its closing line to the totals.
tally() {
	local line last=""
	while IFS= read -r line; do
		printf '%s\n' "$line"
		case "$line" in *" passed, "*" failed"*) last=$line ;; esac
	done
	if [ -z "$last" ]; then
		echo "suite printed no summary: counted as 1 failure"
		total_fail=$((total_fail + 1))
		return
	fi
	set -- $last
	total_pass=$((total_pass + $1))
	total_fail=$((total_fail + $3))
}

echo "== unit tests"
for t in "$OUT"/tests/test_*; do
	[ -x "$t" ] || continue
	echo "-- $(basename "$t")"
	tally < <("$t" 2>&1; [ $? -le 1 ] || echo "0 passed, 1 failed (crashed)")
done

if [ -x tests/compile-fail/run.sh ]; then
	echo "== compile-fail tests"
	tally < <(tests/compile-fail/run.sh 2>&1)
fi

format_check() {
	if make --no-print-directory -s format-check >/dev/null 2>&1; then
		echo "ok 1 every C file is formatted with .clang-format"
		echo "1 passed, 0 failed"
	else
		echo "not ok 1 run 'make format' (make format-check lists the files)"
		echo "0 passed, 1 failed"
	fi
}

echo "== format (make format-check)"
tally < <(format_check)

echo "== layout (tests/layout: include direction, file and function sizes)"
tally < <(tests/layout/run.sh 2>&1)

# libFuzzer with ASan+UBSan on what reads outside input (make fuzz-build;
# `make fuzz` for long runs).
echo "== fuzzers (tests/fuzz, ${SIDETRACE_FUZZ_SECONDS:-20} s each)"
tally < <(tests/fuzz/run.sh "${SIDETRACE_FUZZ_SECONDS:-20}" 2>&1)

echo "== end-to-end tests (bats)"
tally < <(tests/run-bats.sh)

echo "== one-liner cases (tests/oneliners)"
tally < <(tests/oneliners/run.sh 2>&1)
echo "== the same cases, their side: probes run in the process (--in-process)"
tally < <(ONELINERS_ENGINE=inproc tests/oneliners/run.sh 2>&1)

if [ "${SIDETRACE_SKIP_ASAN:-0}" != 1 ]; then
	echo "== end-to-end again, ASan+UBSan collector (tests/asan.sh; SIDETRACE_SKIP_ASAN=1 skips)"
	# Its last line sums its two suites: the one tally() counts.
	tally < <(tests/asan.sh 2>&1)
fi

# The BPF programs must load on the oldest kernel we support too: boot
# Debian's 6.1 and 6.12 kernels under qemu and trace from there.
if [ "${SIDETRACE_SKIP_VM:-0}" != 1 ]; then
	echo "== kernel matrix (qemu: 6.1, 6.12; SIDETRACE_SKIP_VM=1 skips)"
	tally < <(tests/vm/run.sh 6.1 6.12 2>&1)
fi

echo "== all suites"
echo "$total_pass passed, $total_fail failed"
[ "$total_fail" -eq 0 ]
