#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs the end-to-end suites (bats, one-liner cases) once with the
# collector built with ASan and UBSan (`make asan`: .output/asan/sidetrace):
# any memory error, leak or undefined behaviour aborts a run, which fails
# its test. Ends with "N passed, N failed". tests/run.sh runs it as a
# suite; `make test-asan` builds and runs it alone.
set -u
cd "$(dirname "$0")/.."
export SIDETRACE=$PWD/.output/asan/sidetrace
# Abort at the first error, with a status no test expects; leaks count.
export ASAN_OPTIONS=abort_on_error=0:exitcode=86:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:exitcode=87:print_stacktrace=1

if [ ! -x "$SIDETRACE" ]; then
	echo "asan: $SIDETRACE is not built (make asan)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
pass=0 fail=0
summarize() {
	local line
	while IFS= read -r line; do
		printf '%s\n' "$line"
		case "$line" in *" passed, "*" failed"*) set -- $line; pass=$((pass + $1)); fail=$((fail + $3)) ;; esac
	done
}
echo "== bats, ASan+UBSan collector"
summarize < <(tests/run-bats.sh)
echo "== one-liner cases, ASan+UBSan collector"
summarize < <(tests/oneliners/run.sh 2>&1)
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
