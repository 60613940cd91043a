#!/bin/bash
# SPDX-License-Identifier: MIT
# `make vm-test`: runs tests/vm/run-kernel.sh for each kernel series given
# (default: Debian's 6.1 and 6.12) and closes with the total
# "N passed, N failed". Exits non-zero when any check failed.
set -u
DIR=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- 6.1 6.12
pass=0
fail=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for k in "$@"; do
	echo "=== kernel $k"
	"$DIR/run-kernel.sh" "$k" 2>&1 | tee "$log"
	out=$(tail -1 "$log")
	if [[ "$out" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
		pass=$((pass + BASH_REMATCH[1]))
		fail=$((fail + BASH_REMATCH[2]))
	else
		fail=$((fail + 1))
	fi
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
