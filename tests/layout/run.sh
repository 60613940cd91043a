#!/bin/bash
# SPDX-License-Identifier: MIT
# The shape of the tree, checked: the collector's components include only
# components below them, no folder of userspace/ and bpf/ (the runtime
# library and its in-process engine included) is in an include cycle with
# another, builtins and functions are compared only in their tables, probe
# kinds only in theirs, and no production source grows past the sizes that
# keep it readable (700 lines a file, 80 lines a function).
set -u
cd "$(dirname "$0")/../.."

# Lowest first: a component may include itself and what stands before it.
ORDER="util objfile kinds events side ctypes dwarf kernel targets preproc parse check compile output bpfload inproc tracer readout session serve cmd"
MAX_FILE=700
MAX_FUNC=80
pass=0
fail=0

check() { # ok? name
	if [ "$1" = 0 ]; then
		echo "ok - $2"
		pass=$((pass + 1))
	else
		echo "not ok - $2"
		fail=$((fail + 1))
	fi
}

rank() { # component -> its place in ORDER, or 99 (main.c, unknown)
	local i=0 c
	for c in $ORDER; do
		[ "$c" = "$1" ] && { echo $i; return; }
		i=$((i + 1))
	done
	echo 99
}

for dir in userspace/sidetrace/*/; do
	comp=$(basename "$dir")
	mine=$(rank "$comp")
	check "$([ "$mine" != 99 ] && echo 0 || echo 1)" "$comp/ has its place in the order"
	bad=""
	for f in "$dir"*.[ch]; do
		for inc in $(sed -n 's|^#include "\([a-z]*\)/.*"|\1|p' "$f"); do
			[ "$inc" = common ] && continue
			[ "$(rank "$inc")" -gt "$mine" ] && bad="$bad $f->$inc"
		done
	done
	[ -z "$bad" ] || echo "# includes that run upwards:$bad"
	check "$([ -z "$bad" ] && echo 0 || echo 1)" "$comp/ includes only lower components"
done

# The runtime library and the shared code never include the collector.
comps=$(echo $ORDER | tr ' ' '|' | sed 's/|/\\|/g')
bad=$(grep -l "#include \"\($comps\)/" \
	userspace/lib/*.[ch] userspace/lib/inproc/*.[ch] userspace/common/*.[ch] bpf/*.h 2>/dev/null)
[ -z "$bad" ] || echo "# $bad"
check "$([ -z "$bad" ] && echo 0 || echo 1)" "the library, common/ and bpf/ do not include the collector"

# The runtime library starts its in-process engine and the engine uses the
# runtime: only the engine includes the other (through internal.h).
bad=$(grep -l '#include "inproc/' userspace/lib/*.[ch])
[ -z "$bad" ] || echo "# $bad"
check "$([ -z "$bad" ] && echo 0 || echo 1)" "the runtime library includes nothing of its engine (lib/inproc/)"

tests/layout/includes.py rooms
check $? "no two folders include each other, through any chain"
tests/layout/includes.py files
check $? "no two headers include each other, through any chain"

# A probe kind is a row of kinds/probe_kinds.c: every pass asks the row's
# columns, none compares kind values (an event source names its own kind,
# and a caller names the kind it asks for, but neither compares).
bad=$(grep -nE '(==|!=) *ST_AP_|ST_AP_[A-Z_]+ *(==|!=)|case ST_AP_' \
	$(git ls-files 'userspace/sidetrace/*.[ch]' | grep -v '^userspace/sidetrace/kinds/'))
[ -z "$bad" ] || echo "# kinds compared outside kinds/: $bad"
check "$([ -z "$bad" ] && echo 0 || echo 1)" "no probe kind is compared outside its table"

# A collector header's guard is its path: SIDETRACE_<COMPONENT>_<NAME>_H.
bad=""
for h in $(git ls-files 'userspace/sidetrace/*.h'); do
	want=SIDETRACE_$(echo "${h#userspace/sidetrace/}" | tr 'a-z/.' 'A-Z__')
	grep -qx "#ifndef $want" "$h" || bad="$bad $h"
done
[ -z "$bad" ] || echo "# guards that are not their path:$bad"
check "$([ -z "$bad" ] && echo 0 || echo 1)" "each collector header's guard names its path"

# A builtin or a function is a row of its table: the passes read its
# columns, and only the tables' own files may tell one from another.
TABLES='userspace/sidetrace/parse/\(builtins\|functions\)\.c'
by_name='case ST_(BUILTIN|FN)_|(==|!=|<=|>=|<|>) *ST_(BUILTIN_|FN_|NR_BUILTINS|NR_FUNCS)'
by_name="$by_name|ST_(BUILTIN|FN)_[A-Z_]* *(==|!=|<=|>=|<|>)|(->|\.)(builtin|func) *(==|!=|<|>)"
by_name="$by_name|switch \([a-z_]+((->|\.)[a-z_]+)*(->|\.)(builtin|func)\)"
bad=$(git ls-files 'userspace/sidetrace/*.[ch]' | grep -v "^$TABLES$" | xargs grep -nE "$by_name")
[ -z "$bad" ] || echo "# $bad"
check "$([ -z "$bad" ] && echo 0 || echo 1)" "builtins and functions are told apart only by their tables"

srcs=$(git ls-files 'userspace/*.c' 'userspace/*.h' 'bpf/*.c' 'bpf/*.h' 'include/*.h')
big=$(wc -l $srcs | awk -v max=$MAX_FILE '$2 != "total" && $1 > max { print $2 " (" $1 ")" }')
[ -z "$big" ] || echo "# over $MAX_FILE lines: $big"
check "$([ -z "$big" ] && echo 0 || echo 1)" "no production source over $MAX_FILE lines"

# Kernel style puts a function's braces in column 0: count the lines between.
long=$(awk -v max=$MAX_FUNC '
	FNR == 1 { start = 0 }
	/^[A-Za-z_].*\(/ && !/;$/ { sig = $0 }
	/^\{/ { start = FNR; name = sig }
	/^\}/ { if (start && FNR - start + 1 > max) printf "%s:%d %s; ", FILENAME, start, name; start = 0 }
' $(git ls-files 'userspace/*.c' 'bpf/*.c' 'bpf/*.h'))
[ -z "$long" ] || echo "# over $MAX_FUNC lines: $long"
check "$([ -z "$long" ] && echo 0 || echo 1)" "no function over $MAX_FUNC lines"

echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
