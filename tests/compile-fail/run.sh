#!/bin/sh
# SPDX-License-Identifier: MIT
#
# Each case must fail to compile, with the substring of its "// expect:"
# line in the compiler's messages, as C (gcc, clang) and as C++ (g++,
# clang++), at -O0 and at -O2: the checks may not depend on the optimizer.
# A case with a "// disable: compiles" line is one of libside's static-check
# classes, which SIDE_STATIC_CHECK_DISABLE turns off: with it defined the
# case must compile, under every compiler.
# Run from anywhere; CC, CLANG, CXX and CLANGXX override the compilers.

dir=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$dir/../.." && pwd)
cc=${CC:-gcc}
clang=${CLANG:-clang}
cxx=${CXX:-g++}
clangxx=${CLANGXX:-clang++}
pass=0
fail=0
n=0

# compile COMPILER LANG LEVEL SRC [FLAGS...]: output in $out, status in $status
compile() {
	comp=$1 lang=$2 level=$3 src=$4
	shift 4
	out=$("$comp" -x "$lang" "$level" -Wall -I"$top/include" "$@" -c "$src" -o /dev/null 2>&1)
	status=$?
}

ok() {
	echo "ok $n - $1"
	pass=$((pass + 1))
}

not_ok() {
	echo "not ok $n - $1"
	fail=$((fail + 1))
}

for src in "$dir"/*.c; do
	name=$(basename "$src" .c)
	expect=$(sed -n 's|^// expect: ||p' "$src" | head -n 1)
	disable=$(sed -n 's|^// disable: ||p' "$src" | head -n 1)
	for pair in "$cc c" "$clang c" "$cxx c++" "$clangxx c++"; do
		set -- $pair
		comp=$1 lang=$2
		command -v "$comp" >/dev/null 2>&1 || continue
		for level in -O0 -O2; do
			n=$((n + 1))
			what="$name ($comp $level)"
			compile "$comp" "$lang" "$level" "$src"
			if [ -z "$expect" ]; then
				not_ok "$what: no '// expect:' line"
			elif [ $status -eq 0 ]; then
				not_ok "$what: compiled, expected an error"
			elif ! printf '%s\n' "$out" | grep -qF -- "$expect"; then
				not_ok "$what: error without '$expect':"
				printf '%s\n' "$out" | sed 's/^/#   /' | head -n 20
			else
				ok "$what"
			fi
		done
		[ "$disable" = compiles ] || continue
		n=$((n + 1))
		what="$name ($comp, SIDE_STATIC_CHECK_DISABLE)"
		compile "$comp" "$lang" -O0 "$src" -DSIDE_STATIC_CHECK_DISABLE
		if [ $status -ne 0 ]; then
			not_ok "$what: still fails:"
			printf '%s\n' "$out" | sed 's/^/#   /' | head -n 20
		else
			ok "$what"
		fi
	done
done

echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
