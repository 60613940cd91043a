#!/bin/bash
# SPDX-License-Identifier: MIT
# Runs the libFuzzer targets (tests/fuzz/fuzz_*.c, built by `make
# fuzz-build` into .output/fuzz) from their seed corpora here
# (tests/fuzz/NAME/corpus): one TAP line per fuzzer with its executions
# and corpus size, then "N passed, N failed".
#
#   tests/fuzz/run.sh [SECONDS]          each fuzzer SECONDS (default 20),
#                                        what it learns thrown away (make test)
#   tests/fuzz/run.sh --long SECONDS     each SECONDS, what it learns kept in
#                                        .output/fuzz/corpus/NAME (make fuzz)
#
# A crash leaves its input in .output/fuzz/crashes/: once fixed, add it to
# tests/fuzz/NAME/corpus so every run replays it.
set -u
cd "$(dirname "$0")/../.."
OUT=.output/fuzz
long=0
[ "${1:-}" = --long ] && { long=1; shift; }
secs=${1:-20}

# Longest input per fuzzer: object files and a process's memory (its part
# before the ring, raw) need room, the others little.
declare -A MAX_LEN=([fuzz_elf]=65536 [fuzz_inproc]=4096 [fuzz_records]=4200 [fuzz_inproc_read]=20000 [fuzz_lang]=4096 [fuzz_preproc]=4096 [fuzz_sdt_args]=256 [fuzz_http]=20000 [fuzz_tracefs]=512 [fuzz_ld_cache]=8192 [fuzz_dwarf_types]=65536)

WORK=$(mktemp -d /tmp/fuzz.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
mkdir -p "$OUT/crashes"
n=0 pass=0 fail=0
for src in tests/fuzz/fuzz_*.c; do
	name=$(basename "$src" .c)
	bin=$OUT/$name
	n=$((n + 1))
	if [ ! -x "$bin" ]; then
		echo "not ok $n $name: not built (make fuzz-build)"
		fail=$((fail + 1))
		continue
	fi
	learned=$WORK/$name
	[ $long = 0 ] || learned=$OUT/corpus/$name
	mkdir -p "$learned"
	"$bin" -max_total_time="$secs" -max_len="${MAX_LEN[$name]:-4096}" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$OUT/crashes/$name-" \
		"$learned" "tests/fuzz/$name/corpus" > "$WORK/$name.log" 2>&1
	rc=$?
	runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$WORK/$name.log")
	size=$(find "$learned" "tests/fuzz/$name/corpus" -type f | wc -l)
	if [ $rc = 0 ]; then
		echo "ok $n $name: ${runs:-?} executions in ${secs}s, corpus $size inputs"
		pass=$((pass + 1))
	else
		echo "not ok $n $name: exit $rc after ${runs:-?} executions"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' \
			"$WORK/$name.log" | head -10 | sed 's/^/# /'
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
