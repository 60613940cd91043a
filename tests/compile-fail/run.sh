#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Each case must fail to compile, with the substring of its "// expect:"
# line in the compiler's messages, under every compiler found (cc, clang).
# Run from anywhere; CC and CLANG override the compilers.

dir=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$dir/../.." && pwd)
compilers="${CC:-cc} ${CLANG:-clang}"
pass=0
fail=0
n=0

for src in "$dir"/*.c; do
	name=$(basename "$src" .c)
	expect=$(sed -n 's|^// expect: ||p' "$src" | head -n 1)
	for comp in $compilers; do
		command -v "$comp" >/dev/null 2>&1 || continue
		n=$((n + 1))
		out=$("$comp" -O2 -I"$top/include" -c "$src" -o /dev/null 2>&1)
		status=$?
		if [ -z "$expect" ]; then
			echo "not ok $n - $name ($comp): no '// expect:' line"
			fail=$((fail + 1))
		elif [ $status -eq 0 ]; then
			echo "not ok $n - $name ($comp): compiled, expected an error"
			fail=$((fail + 1))
		elif ! printf '%s\n' "$out" | grep -qF -- "$expect"; then
			echo "not ok $n - $name ($comp): error without '$expect':"
			printf '%s\n' "$out" | sed 's/^/#   /' | head -n 20
			fail=$((fail + 1))
		else
			echo "ok $n - $name ($comp)"
			pass=$((pass + 1))
		fi
	done
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
