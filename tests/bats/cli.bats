#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# The command line's conventions, bpftrace's where they overlap: -l/-lv
# against readelf -n, library names through the linker's cache, '*' as
# TARGET with -p, -V, -q, -d (nothing attached), stdin and #! scripts,
# each refused form with its message and exit status, the man page: the
# probe kinds, options, builtins and functions the tool knows, each named
# there, and the documented limits against the constants that define them.

load helpers
bats_require_minimum_version 1.5.0

FIX="$BATS_TEST_DIRNAME/../fixtures"
LDCONF=/etc/ld.so.conf.d/zz-sidetrace-cli-test.conf

setup() {
	D="$BATS_TEST_TMPDIR"
	chmod 755 "$D"
}

teardown() {
	if [ -e "$LDCONF" ]; then
		rm -f "$LDCONF"
		ldconfig
	fi
	[ -z "${APP:-}" ] || kill "$APP" 2>/dev/null || true
	[ -z "${PUB:-}" ] || rm -rf "$PUB"
}

# "provider:name" of every probe in the notes, sorted, once each.
readelf_probes() { # binary
	readelf -n "$1" | awk '/Provider:/ { p = $2 } /Name:/ { print p ":" $2 }' | sort -u
}

# The same from -l: the names after "side:PATH:", sanitized as the notes are.
l_probes() { # binary
	"$SIDETRACE" -l "side:$1" | sed "s|^side:$1:||" |
		awk -F: '{ gsub(/[^A-Za-z0-9_]/, "_", $1); gsub(/[^A-Za-z0-9_]/, "_", $2)
			print $1 ":" $2 }' | sort
}

@test "-l: one side:TARGET:PROVIDER:EVENT line per probe of readelf -n, for each example" {
	local b
	for b in "$HTTPD" "$LIBKV" "$OUT/examples/order_service"; do
		[ -n "$(readelf_probes "$b")" ]
		diff <(readelf_probes "$b") <(l_probes "$b")
		# Ready to paste into a program: each line is a valid attach point.
		run -0 "$SIDETRACE" -l "side:$b"
		[ "${#lines[@]}" -eq "$(readelf_probes "$b" | wc -l)" ]
		"$SIDETRACE" -d -e "$("$SIDETRACE" -l "side:$b" | paste -sd, -) { @[probe] = count(); }" >/dev/null
	done
}

@test "-l patterns: wildcards, bpftrace's side:TARGET:EVENT and usdt:TARGET:NAME, no match, refused forms" {
	run -0 --separate-stderr "$SIDETRACE" -l "side:$HTTPD:http:*"
	[ "$output" = "side:$HTTPD:http:error
side:$HTTPD:http:request" ]
	run -0 "$SIDETRACE" -l "side:$HTTPD:request"
	[ "$output" = "side:$HTTPD:http:request" ]
	run -0 "$SIDETRACE" -l "side:$HTTPD:*:*_state"
	[ "$output" = "side:$HTTPD:app:conn_state" ]
	run -1 --separate-stderr "$SIDETRACE" -l "side:$HTTPD:nope:*"
	[ "$stderr" = "sidetrace: no probe matches side:$HTTPD:nope:*" ]
	run -0 "$SIDETRACE" -l "usdt:$HTTPD:request"
	[ "$output" = "usdt:$HTTPD:http:request" ]
	run -2 --separate-stderr "$SIDETRACE" -l "kfoo:vfs_read"
	[ "${stderr%%$'\n'*}" = "pattern:1:1: error: unknown probe type 'kfoo': expected side:TARGET:PROVIDER:EVENT, usdt:TARGET:[PROVIDER:]NAME, uprobe:TARGET:FUNCTION[+OFFSET], uretprobe:TARGET:FUNCTION, tracepoint:CATEGORY:NAME, kprobe:FUNCTION[+OFFSET], kretprobe:FUNCTION, profile:UNIT:N, fentry:[MODULE:]FUNCTION, fexit:[MODULE:]FUNCTION, BEGIN, END, interval:UNIT:N, software:EVENT[:COUNT], hardware:EVENT[:COUNT], watchpoint:ADDR|FUNCTION+argN:LEN:MODE, asyncwatchpoint:FUNCTION+argN:LEN:MODE, iter:TARGET" ]
	run -2 --separate-stderr "$SIDETRACE" -l BEGIN
	[ "$stderr" = "sidetrace: -l 'BEGIN': a pattern is KIND:... as a probe is written (side:TARGET[:PROVIDER]:EVENT, tracepoint:CATEGORY[:NAME], ...) or a glob over them ('*sched_switch*'), '*' wildcards" ]
	run -2 --separate-stderr "$SIDETRACE" -l -e 'BEGIN { exit(); }'
	[ "$stderr" = "sidetrace: -l lists probes: it takes a PATTERN and -p PID, not -e, -c or -d" ]
	run -1 --separate-stderr "$SIDETRACE" -l 'side:/nonexistent:*'
	[ "$stderr" = "sidetrace: /nonexistent: no such file" ]
}

@test "-l as bpftrace's: no pattern lists the kernel's probes, a glob without a kind matches every line, short names, -p a process's side: and usdt: probes" {
	local tp
	tp=$(grep -c . /sys/kernel/tracing/available_events)
	run -0 --separate-stderr "$SIDETRACE" -l
	[ "$(grep -c '^tracepoint:' <<<"$output")" -eq "$tp" ]
	[ "$(grep -c '^software:' <<<"$output")" -eq 11 ]
	[ "$(grep -c '^hardware:' <<<"$output")" -eq 10 ]
	[ "$(grep -c '^iter:' <<<"$output")" -eq "$("$SIDETRACE" -l 'iter:*' | wc -l)" ]
	# Kernel functions where the kernel probes them (--info says which), as bpftrace's.
	local kinds='tracepoint\|software\|hardware\|iter' info
	info=$("$SIDETRACE" --info 2>&1)
	if grep -qx '  kprobe: yes' <<<"$info"; then
		kinds+='\|kprobe'
		[ "$(grep -c '^kprobe:' <<<"$output")" -eq "$("$SIDETRACE" -l 'kprobe:*' | wc -l)" ]
	fi
	if grep -qx '  kfunc: yes' <<<"$info"; then
		kinds+='\|kfunc'
		[ "$(grep -c '^kfunc:' <<<"$output")" -eq "$("$SIDETRACE" -l 'kfunc:*' | wc -l)" ]
	fi
	[ "$(grep -vc "^\($kinds\):" <<<"$output")" -eq 0 ]
	# Sorted as bpftrace sorts it.
	[ "$output" = "$(LC_ALL=C sort <<<"$output")" ]
	# The lines a glob matches are those of the whole listing it matches.
	run -0 "$SIDETRACE" -l '*sched_switch*'
	[ "$output" = "$("$SIDETRACE" -l | grep sched_switch)" ]
	[[ "$output" == *"tracepoint:sched:sched_switch"* ]]
	run -0 "$SIDETRACE" -l 's:*fault*'
	[ "$output" = "$(printf 'software:%s\n' alignment-faults emulation-faults major-faults minor-faults page-faults)" ]
	run -0 "$SIDETRACE" -l 't:sched:sched_switch'
	[ "$output" = "tracepoint:sched:sched_switch" ]
	run -0 "$SIDETRACE" -l "U:$HTTPD:request"
	[ "$output" = "usdt:$HTTPD:http:request" ]
	run -1 --separate-stderr "$SIDETRACE" -l '*no_such_probe*'
	[ "$stderr" = "sidetrace: no probe matches *no_such_probe*" ]
	start_app "$BATS_TEST_TMPDIR/pid" "$HTTPD" -p -d 10 -r 100
	local app=$APP_PID
	run -0 "$SIDETRACE" -l -p "$app"
	[ "$(grep -c "^side:$HTTPD:" <<<"$output")" -eq "$(readelf_probes "$HTTPD" | wc -l)" ]
	[ "$(grep -c "^usdt:$HTTPD:" <<<"$output")" -eq "$(readelf_probes "$HTTPD" | wc -l)" ]
	run -0 "$SIDETRACE" -l -p "$app" '*:db:query'
	[ "$output" = "side:$HTTPD:db:query
usdt:$HTTPD:db:query" ]
}

@test "-lv: each probe's fields with their types; as many as the notes' SDT arguments say" {
	run -0 "$SIDETRACE" -lv "side:$HTTPD:http:*"
	[ "$output" = "side:$HTTPD:http:error
    code: s32
    reason: string
side:$HTTPD:http:request
    method: string
    path: string
    status: u16
    latency_ns: u64
    bytes: u32
    peer: struct { addr: u32, port: u16 }" ]
	# A SIDE site passes min(fields, 10) values, the description, the
	# vector, and for a variadic event its dynamic fields (include/side/probe.h).
	local b p n args variadic
	for b in "$HTTPD" "$LIBKV"; do
		while read -r p args; do
			n=$("$SIDETRACE" -lv "side:$b:$p" | grep -c '^    ')
			variadic=$("$SIDETRACE" list "$b" | grep -c "^  $p .*variadic" || true)
			[ $((n < 10 ? n : 10)) -eq $((args - 2 - variadic)) ] ||
				{ echo "$b $p: $n fields, $args SDT arguments"; false; }
		done < <(readelf -n "$b" | awk '/Provider:/ { p = $2 } /Name:/ { n = $2 }
			/Arguments:/ { print p ":" n, NF - 1 }' | sort -u)
	done
}

@test "a library name as TARGET resolves through the linker's cache, without -p or -c" {
	mkdir "$D/ldlib"
	cc -O2 -Wall -fPIC -shared -I"$ROOT/include" "$FIX/liblistfix.c" \
		-Wl,-soname,libsidetrace_ldtest.so.1 -o "$D/ldlib/libsidetrace_ldtest.so.1" \
		-L"$OUT" -lside -Wl,-rpath,"$OUT"
	run -1 --separate-stderr env -u LD_LIBRARY_PATH "$SIDETRACE" -l 'side:libsidetrace_ldtest:*'
	echo "$D/ldlib" > "$LDCONF"
	ldconfig
	run -0 env -u LD_LIBRARY_PATH "$SIDETRACE" -lv 'side:libsidetrace_ldtest:*'
	[ "$output" = "side:$D/ldlib/libsidetrace_ldtest.so.1:listfix:op
    n: s32
    what: string" ]
	run -0 env -u LD_LIBRARY_PATH "$SIDETRACE" -d -e 'side:libsidetrace_ldtest:listfix:op { @[args.what] = sum(args.n); }'
	[ "${lines[1]}" = "side:libsidetrace_ldtest:listfix:op  1 site, 2 of 16 loads, 5 of 256 instructions, program keyed1" ]
}

@test "a system library by name: libstdc++'s probes, listed as readelf shows them and traced system-wide" {
	local lib
	lib=$(ldconfig -p | awk '$1 == "libstdc++.so.6" && /x86-64|AArch64/ { print $NF; exit }')
	[ -n "$lib" ] && [ -n "$(readelf_probes "$lib")" ] || skip "no libstdc++ with SDT notes"
	diff <(readelf_probes "$lib" | sed "s|^|side:$lib:|") <("$SIDETRACE" -l 'side:libstdc++:*')
	printf 'int main(){for(int i=0;i<5;i++) try { throw i; } catch(int) {} return 0;}\n' > "$D/t.cpp"
	g++ -O0 "$D/t.cpp" -o "$D/thrower"
	"$SIDETRACE" -e 'side:libstdc++:libstdcxx:throw { @[comm] = count(); }' > "$D/out" &
	local st=$! i
	for i in $(seq 100); do grep -q Attaching "$D/out" && break; sleep 0.1; done
	"$D/thrower"
	kill -INT "$st"
	wait "$st"
	grep -qx '@\[thrower\]: 5' "$D/out"
}

@test "'*' as TARGET with -p: every object the process maps, listed and traced exactly" {
	start_app "$D/kv.out" "$KV" -p -w 2 -n 30
	run -0 "$SIDETRACE" -l -p "$APP_PID"
	# The executable's functions, as bpftrace -l -p lists them.
	[ "$(grep '^uprobe:' <<<"$output")" = "$("$SIDETRACE" -l "uprobe:$(readlink -f "$KV"):*")" ]
	# libkv.so's events and their USDT probes; not the statedump events of
	# the libside.so it loads, which no call site emits.
	[ "$(grep -v '^uprobe:' <<<"$output")" = "side:$(readlink -f "$LIBKV"):kv:get
side:$(readlink -f "$LIBKV"):kv:put
usdt:$(readlink -f "$LIBKV"):kv:get
usdt:$(readlink -f "$LIBKV"):kv:put" ]
	run -0 "$SIDETRACE" -l -p "$APP_PID" 'side:*kv.so:*:put'
	[ "$output" = "side:$(readlink -f "$LIBKV"):kv:put" ]
	run -1 --separate-stderr "$SIDETRACE" -l -p "$APP_PID" 'side:*nothing*:*:*'
	[ "$stderr" = "sidetrace: *nothing*: process $APP_PID maps no object with events that matches" ]
	run -0 --separate-stderr "$SIDETRACE" -q -p "$APP_PID" -e 'side:*:kv:* { @[probe] = count(); }'
	grep -qx "@\[side:$(readlink -f "$LIBKV"):kv:put\]: 30" <<<"$output"
	grep -qx "@\[side:$(readlink -f "$LIBKV"):kv:get\]: 60" <<<"$output"
	wait "$APP"
	APP=
}

@test "'*' as TARGET without -p: refused, with the reason" {
	run -1 --separate-stderr "$SIDETRACE" -e 'side:*:kv:get { @ = count(); }'
	[ "${stderr%%$'\n'*}" = "program:1:6: error: cannot read the events of *: '*' in a target means every object of a process: give -p PID" ]
	run -1 --separate-stderr "$SIDETRACE" -l 'side:*:kv:get'
	[ "$stderr" = "sidetrace: *: '*' in a target means every object of a process: give -p PID" ]
}

@test "-V and --version print the Makefile's version; -h the usage, exit 0" {
	local v
	v=$(sed -n 's/^VERSION := //p' "$ROOT/Makefile")
	run -0 "$SIDETRACE" -V
	[ "$output" = "sidetrace v$v" ]
	run -0 "$SIDETRACE" --version
	[ "$output" = "sidetrace v$v" ]
	run -0 "$SIDETRACE" -h
	[[ "${lines[0]}" == "USAGE: sidetrace "* ]]
	# A bad flag shows the usage too, as bpftrace's does.
	run -2 --separate-stderr "$SIDETRACE" -idonotexist
	[[ "$stderr" == *"invalid option -- 'i'"$'\n'"USAGE: sidetrace "* ]]
}

@test "--info: the kernel's helpers, maps and probe types, each probed now" {
	run -0 --separate-stderr "$SIDETRACE" --info
	[ "$stderr" = "" ]
	[ "${lines[0]}" = "System" ]
	grep -qx "  version: sidetrace v$(sed -n 's/^VERSION := //p' "$ROOT/Makefile")" <<<"$output"
	# Every map type the BPF program creates is asked for, ringbuf included.
	for m in hash 'percpu hash' array 'percpu array' stack_trace ringbuf; do
		grep -qx "  $m: yes" <<<"$output"
	done
	grep -qx '  loop: yes' <<<"$output"
	grep -qx "  btf: $([ -r /sys/kernel/btf/vmlinux ] && echo yes || echo no)" <<<"$output"
	grep -qx "  kprobe: $([ -r /sys/bus/event_source/devices/kprobe/type ] && echo yes || echo no)" <<<"$output"
	# Not permitted to load BPF, it says so rather than answer wrong.
	run -0 setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all "$SIDETRACE" --info
	[ "${lines[-1]}" = "Kernel: not asked: creating a BPF map failed (Operation not permitted): the probes load BPF programs, run as root" ]
}

# Each kind of probe of kinds/probe_kinds.c's table, one a line: its
# syntax, a tab, bpftrace's other names for it, blank-separated (or nothing).
table_kinds() {
	python3 - "$ROOT/userspace/sidetrace/kinds/probe_kinds.c" <<'PY'
import re, sys
src = open(sys.argv[1]).read()
table = src[src.index("kinds[] = {"):]
table = table[:table.index("\n};")]
for row in table.split("\n\t{\n")[1:]:
    syntax = re.search(r'\.syntax = "([^"]*)"', row).group(1)
    aliases = re.search(r'\.aliases = \{([^}]*)\}', row)
    print(syntax + "\t" + (" ".join(a.strip().strip('"') for a in aliases.group(1).split(",")) if aliases else ""))
PY
}

# The man page as text, blanks squeezed, for whole phrases to be found.
man_text() {
	groff -man -Tascii -P-cbou "$ROOT/docs/sidetrace.1" 2>/dev/null | tr -s ' \n' '  '
}

@test "--help and the man page name every probe kind of the table; the README links the man page" {
	# The table as read here is the one the tool says: an unknown kind's
	# error lists every syntax, in the table's order.
	run -1 --separate-stderr "$SIDETRACE" -d -e 'nosuchkind:x { }'
	local said=${stderr#*: expected } kinds syntax alias s
	said=${said%%$'\n'*}
	kinds=$(table_kinds)
	echo "$kinds"
	[ "$(wc -l <<<"$kinds")" -ge 13 ]
	[ "$(cut -f1 <<<"$kinds" | paste -sd, | sed 's/,/, /g')" = "$said" ]

	run -0 "$SIDETRACE" --help
	local help man readme
	help=$(tr -s ' \n' '  ' <<<"$output")
	man=$(man_text)
	readme=$(tr -s ' \n' '  ' <"$ROOT/README.md")
	while IFS=$'\t' read -r syntax alias; do
		[[ "$help" == *"$syntax"* ]] || { echo "--help lacks $syntax"; false; }
		[[ -z "$alias" || "$help" == *"(or ${alias%% *}:)"* ]] || { echo "--help lacks $alias:"; false; }
		# The man page lists intervals as two.
		for s in ${syntax// or / }; do
			[[ "$man" == *"$s"* ]] || { echo "the man page lacks $s"; false; }
		done
		for a in $alias; do
			[[ "$man" == *"$a:"* ]] || { echo "the man page lacks $a:"; false; }
		done
	done <<<"$kinds"
	[[ "$help" == *" -c CMD run CMD (split into words like a shell does), trace it and its descendants (every process it and they start),"* ]]
	[[ "$help" != *"only it"* ]]
	[[ "$man" == *"trace its process and every process that it and its descendants start"* ]]
	[[ "$man" == *" ustack and kstack are the event's user and kernel stacks"* ]]
	[[ "$readme" != *"kstack\`/\`ustack\` and other"* ]]
	grep -q '](docs/sidetrace.1)' "$ROOT/README.md"
}

@test "the man page names every option that --help, list --help and serve --help print" {
	local man cmd opt n=0
	man=$(man_text)
	for cmd in "" list serve; do
		run -0 "$SIDETRACE" $cmd --help
		# The option column: lines that start with blanks and a dash.
		for opt in $(grep -oE '^ +-[-a-zA-Z, ]*[a-zA-Z]' <<<"$output" | grep -oE -- '--?[a-zA-Z][-a-zA-Z]*'); do
			n=$((n + 1))
			[[ "$man" =~ (^|[^-a-zA-Z])$opt([^-a-zA-Z]|$) ]] || { echo "the man page lacks ${cmd:+$cmd }$opt"; false; }
		done
	done
	echo "$n options"
	[ "$n" -ge 20 ]
}

# The names of one of parse/ast.c's tables: [ST_FN_...] = "name" for
# functions, [ST_BUILTIN_...] = "name" for builtins; one a line, sorted.
# The functions refused with a reason (ST_FA_REFUSED) are not valid names.
ast_names() { # FN or BUILTIN
	local table=functions
	[ "$1" = FN ] || table=builtins
	grep -A1 -E "\[ST_$1_[A-Z0-9_]+\] = \{\"[a-z_0-9]+\"" "$ROOT/userspace/sidetrace/parse/$table.c" |
		tr '\n' ' ' | sed 's/\[ST_/\n[ST_/g' | grep -v ST_FA_REFUSED |
		grep -oE "\[ST_$1_[A-Z0-9_]+\] = \{\"[a-z_0-9]+\"" | sed 's/.*{"\(.*\)"/\1/' | sort
}

@test "the man page names every builtin and function the language accepts" {
	local fns builtins name man
	# What the tool says is valid is the tables of parse/functions.c and builtins.c.
	run -1 --separate-stderr "$SIDETRACE" -d -e 'BEGIN { @ = nosuchfunc(); }'
	fns=$(ast_names FN)
	[ "$(wc -l <<<"$fns")" -ge 19 ]
	[ "$(sed 's/.*valid are //; s/ and /, /; s/, /\n/g' <<<"${stderr%%$'\n'*}" | sort)" = "$fns" ]
	run -1 --separate-stderr "$SIDETRACE" -d -e 'BEGIN { @ = nosuchbuiltin; }'
	builtins=$(ast_names BUILTIN)
	[ "$(wc -l <<<"$builtins")" -ge 14 ]
	[ "$(sed 's/.*a builtin (//; s/).*//; s/, /\n/g' <<<"${stderr%%$'\n'*}" | sort)" = "$builtins" ]
	man=$(man_text)
	for name in $fns; do
		[[ "$man" == *"$name("* ]] || { echo "the man page lacks $name()"; false; }
	done
	for name in $builtins; do
		[[ "$man" =~ (^|[^a-z_])$name([^a-z_]|$) ]] || { echo "the man page lacks $name"; false; }
	done
}

@test "-q: no Attaching line (text or JSON) and no note of the command's exit status" {
	run -0 --separate-stderr "$SIDETRACE" -e 'BEGIN { printf("hi\n"); exit(); }'
	[ "$output" = $'Attaching 1 probe...\nhi' ]
	run -0 --separate-stderr "$SIDETRACE" -q -e 'BEGIN { printf("hi\n"); exit(); }'
	[ "$output" = "hi" ]
	run -0 --separate-stderr "$SIDETRACE" -q -f json -e 'BEGIN { printf("hi\n"); exit(); }'
	[ "$output" = '{"type": "printf", "data": "hi\n"}' ]
	run -3 --separate-stderr "$SIDETRACE" -c "sh -c 'exit 3'" -e "side:$HTTPD:http:request { @ = count(); }"
	[ "$stderr" = "sidetrace: the command exited with status 3" ]
	run -3 --separate-stderr "$SIDETRACE" -q -c "sh -c 'exit 3'" -e "side:$HTTPD:http:request { @ = count(); }"
	[ "$stderr" = "" ]
}

# Bytes as -b and -d write them: 1M, 16M.
size_unit() { # bytes
	if [ "$1" -ge $((1 << 20)) ]; then echo "$(($1 >> 20))M"; else echo "$(($1 >> 10))K"; fi
}

@test "-b's default: bpftrace's perf buffers' bytes (64 pages a CPU), 1M at least; BPFTRACE_PERF_RB_PAGES; 16M for whole events" {
	local cpus want=$((1 << 20)) pages1=4096 prog="side:$HTTPD:http:request { printf(\"%d\\n\", args.status); }"
	cpus=$(getconf _NPROCESSORS_CONF)
	while [ "$want" -lt $((64 * 4096 * cpus)) ]; do want=$((want * 2)); done
	while [ "$pages1" -lt $((4096 * cpus)) ]; do pages1=$((pages1 * 2)); done
	run -0 --separate-stderr "$SIDETRACE" -d -e "$prog"
	[ "${lines[-1]}" = "Event buffer: $(size_unit "$want") (printf, print(args))" ]
	BPFTRACE_PERF_RB_PAGES=1 run -0 --separate-stderr "$SIDETRACE" -d -e "$prog"
	[ "${lines[-1]}" = "Event buffer: $(size_unit "$pages1") (printf, print(args))" ]
	# The option wins over the variable.
	BPFTRACE_PERF_RB_PAGES=1 run -0 --separate-stderr "$SIDETRACE" -d -b 64M -e "$prog"
	[ "${lines[-1]}" = "Event buffer: 64M (printf, print(args))" ]
	run -0 --separate-stderr "$SIDETRACE" -d -e "side:$HTTPD:http:request { print(args); }"
	[ "${lines[-1]}" = "Event buffer: 16M (printf, print(args))" ]
}

@test "-d: the plan, exit 0, no bpf() call, as a user without BPF privileges, the semaphore left at 0" {
	local prog="side:$HTTPD:http:request /args.status >= 500/ { @e[args.path, args.status] = count(); @h = hist(args.latency_ns); printf(\"%s\\n\", args.path); } interval:ms:1500 { exit(); } END { print(@h); }"
	run -0 --separate-stderr "$SIDETRACE" --dry-run -b 64K -e "$prog"
	[ "$output" = "Dry run: nothing attached. Probes:
side:$HTTPD:http:request  1 site, 3 of 16 loads, 15 of 256 instructions, program interpreter
interval:ms:1500  in sidetrace
END  in sidetrace
Maps (2 of 64, 4096 keys each: keyed ones share 4096 entries, and 0 more for keys kept compact):
@e  count, keys: string, uint64
@h  hist
Event buffer: 64K (printf, print(args))" ]
	# Where a user reaches it: bats' own directories are root's.
	PUB=$(mktemp -d /tmp/sidetrace-cli.XXXXXX)
	chmod 755 "$PUB"
	cp "$HTTPD" "$PUB/app"
	run -0 --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SIDETRACE" -d -e "side:$PUB/app:http:request { @ = count(); }"
	[ "${lines[1]}" = "side:$PUB/app:http:request  1 site, 0 of 16 loads, 3 of 256 instructions, program count" ]
	# Its own copy: no other suite's cleanup can end it.
	start_app "$D/app.out" "$PUB/app" -p -d 20 -r 200
	# LeakSanitizer (tests/asan.sh) cannot run under ptrace.
	ASAN_OPTIONS=detect_leaks=0 strace -f -qq -e trace=bpf,perf_event_open -o "$D/strace" \
		"$SIDETRACE" -d -p "$APP_PID" -e "side:$PUB/app:http:request { @ = count(); }" >/dev/null
	! grep -E 'bpf\(|perf_event_open\(' "$D/strace"
	[ "$(read_semaphore "$APP_PID" "$PUB/app" http request)" = 0 ]
	# What -d says fits is what loads: the same program runs.
	run -0 "$SIDETRACE" -q -p "$APP_PID" -e "side:$PUB/app:http:request { @ = count(); } interval:ms:300 { exit(); }"
	kill "$APP"
	APP=
}

@test "-d refuses what the compile step refuses, with the limit named" {
	local keys="args.path, args.method, pid, tid, cpu, uid, comm, args.status, nsecs"
	run -1 --separate-stderr "$SIDETRACE" -d -e "side:$HTTPD:http:request { @[$keys] = count(); }"
	[[ "$stderr" == *"error: too many keys: a map has at most 8"* ]]
}

@test "a program from stdin (-): run, and its errors named stdin" {
	run -0 --separate-stderr "$SIDETRACE" -q - <<<'BEGIN { printf("from stdin\n"); exit(); }'
	[ "$output" = "from stdin" ]
	run -1 --separate-stderr "$SIDETRACE" - <<<'BEGIN { @x = nope(); }'
	[ "${stderr%%$'\n'*}" = "stdin:1:14: error: unknown function 'nope': valid are count, sum, avg, min, max, stats, hist, lhist, print, clear, zero, exit, printf, delete, str, time, strftime, ksym, usym, kaddr, join, ntop, pton, strerror, kptr, uptr, cgroupid, system, cat, signal, sizeof, strncmp, bswap, buf, macaddr, unwatch, reg, uaddr, cgroup_path, strcontains, debugf and path" ]
}

@test "#! scripts run as commands with sidetrace on PATH; errors keep their line" {
	mkdir "$D/bin"
	ln -s "$SIDETRACE" "$D/bin/sidetrace"
	printf '#!/usr/bin/env sidetrace\n// a script\nBEGIN { printf("script ran\\n"); exit(); }\n' > "$D/ok.st"
	chmod +x "$D/ok.st"
	PATH="$D/bin:$PATH" run -0 --separate-stderr "$D/ok.st"
	[ "$output" = $'Attaching 1 probe...\nscript ran' ]
	printf '#!/usr/bin/env sidetrace\nBEGIN { printf("x") exit(); }\n' > "$D/bad.st"
	chmod +x "$D/bad.st"
	PATH="$D/bin:$PATH" run -1 --separate-stderr "$D/bad.st"
	[ "${stderr%%$'\n'*}" = "$D/bad.st:2:21: error: expected ';' or '}' after statement" ]
	# The same text from stdin.
	run -0 --separate-stderr "$SIDETRACE" -q - < "$D/ok.st"
	[ "$output" = "script ran" ]
}

@test "refused command lines: each message, exit status 2" {
	run -2 --separate-stderr "$SIDETRACE" -e 'BEGIN { exit(); }' -e 'END { }'
	[ "$stderr" = "sidetrace: -e given twice: put every clause in one program" ]
	run -2 --separate-stderr "$SIDETRACE" -l 'side:a:*' 'side:b:*'
	[ "$stderr" = "sidetrace: unexpected argument 'side:b:*': -l takes one pattern" ]
	run -2 --separate-stderr "$SIDETRACE" -p 1 -c true -e 'BEGIN { exit(); }'
	[ "$stderr" = "sidetrace: -p and -c exclude each other" ]
	run -2 --separate-stderr "$SIDETRACE" -p abc -e 'BEGIN { exit(); }'
	[ "$stderr" = "sidetrace: -p wants a process id, not 'abc'" ]
	local max
	max=$(cat /proc/sys/kernel/pid_max)
	run -2 --separate-stderr "$SIDETRACE" -p "$max" file.bt
	[ "$stderr" = "sidetrace: -p $max: out of this kernel's pid range [1,$((max - 1))] (/proc/sys/kernel/pid_max)" ]
	run -2 --separate-stderr "$SIDETRACE" -f yaml -e 'BEGIN { exit(); }'
	[ "$stderr" = "sidetrace: unknown output format 'yaml': use text, json or folded" ]
	run -2 --separate-stderr "$SIDETRACE" --bogus
	[[ "${stderr%%$'\n'*}" == *"unrecognized option '--bogus'" ]]
	run -2 --separate-stderr "$SIDETRACE"
	[[ "$stderr" == "sidetrace: no program: give -e PROGRAM, a FILE or - (stdin)"$'\n'"USAGE: sidetrace "* ]]
}

@test "-c that a shell would refuse: says why, exit status 1" {
	run -1 --separate-stderr "$SIDETRACE" -c "$HTTPD -n '5" -e "side:$HTTPD:http:request { @ = count(); }"
	[ "$stderr" = "sidetrace: -c '$HTTPD -n '5': unterminated quote (or other shell syntax error)" ]
	run -1 --separate-stderr "$SIDETRACE" -c "$HTTPD | cat" -e "side:$HTTPD:http:request { @ = count(); }"
	[ "$stderr" = "sidetrace: -c '$HTTPD | cat': | & ; < > ( ) { } and newlines are shell syntax: run it with sh -c '...'" ]
	run -1 --separate-stderr "$SIDETRACE" -c "$HTTPD \$(echo -n 5)" -e "side:$HTTPD:http:request { @ = count(); }"
	[ "$stderr" = "sidetrace: -c '$HTTPD \$(echo -n 5)': command substitution is not run: run it with sh -c '...'" ]
	run -1 --separate-stderr "$SIDETRACE" -c "" -e "side:$HTTPD:http:request { @ = count(); }"
	[ "$stderr" = "sidetrace: -c '': empty command" ]
	run -1 --separate-stderr "$SIDETRACE" /nonexistent.st
	[ "$stderr" = "sidetrace: cannot read /nonexistent.st: No such file or directory" ]
}

@test "make install puts the man page in share/man/man1; it renders without warnings" {
	make -C "$ROOT" --no-print-directory -s install DESTDIR="$D/root" PREFIX=/usr/local
	[ -f "$D/root/usr/local/share/man/man1/sidetrace.1" ]
	[ -x "$D/root/usr/local/bin/sidetrace" ]
	run -0 --separate-stderr groff -man -ww -z "$ROOT/docs/sidetrace.1"
	[ "$stderr" = "" ]
	run -0 groff -man -Tascii -P-cbou "$ROOT/docs/sidetrace.1"
	for s in NAME SYNOPSIS OPTIONS COMMANDS LANGUAGE "EXIT STATUS" LIMITS EXAMPLES; do
		grep -q "^$s" <<<"$output" || { echo "no section $s"; false; }
	done
}

@test "the limits the man page states are the constants' values" {
	python3 - "$ROOT" <<'PY'
import re, sys
root = sys.argv[1]
defs = {}
for h in ("bpf/sidetrace.h", "bpf/sidetrace_arith.h", "userspace/sidetrace/parse/ast.h",
          "userspace/sidetrace/parse/format.h"):
    for m in re.finditer(r"^#define (ST_\w+) (.+?)(?:\s*/\*.*)?$", open(f"{root}/{h}").read(), re.M):
        defs[m.group(1)] = m.group(2)
def value(name):
    v = defs[name]
    for _ in range(4):
        v = re.sub(r"\b(ST_\w+)\b", lambda m: "(" + defs[m.group(1)] + ")", v)
    return eval(v.replace("U", ""))
bad, n = [], 0
# sidetrace.1: "N things (ST_X)" and "N (ST_X)", across a line's end too
for m in re.finditer(r"(\d+)(?:\s[a-z\s]*?)?\s\((ST_\w+)\)", open(f"{root}/docs/sidetrace.1").read()):
    n += 1
    if int(m.group(1)) != value(m.group(2)):
        bad.append(f"sidetrace.1 {m.group(2)}: {m.group(1)} != {value(m.group(2))}")
print(n, "limits checked")
sys.exit("\n".join(bad) if bad or n < 20 else 0)
PY
}

@test "numbers in range or refused: a pid past 32 bits, a buffer size that would wrap; a kernel thread refused; -lv PATTERN -p PID in either order" {
	run -2 --separate-stderr "$SIDETRACE" -p $((4294967296 + $$)) -e 'BEGIN { exit(); }'
	[ "$stderr" = "sidetrace: -p wants a process id, not '$((4294967296 + $$))'" ]
	run -2 --separate-stderr "$SIDETRACE" -b 18014398509481988K -e 'BEGIN { exit(); }'
	[ "$stderr" = "sidetrace: --buffer-size '18014398509481988K': give a power of 2 from 4K to 1G, e.g. 64M" ]
	run -1 --separate-stderr timeout 10 "$SIDETRACE" -p 2 -e "side:$HTTPD:http:request { @ = count(); }"
	[ "$stderr" = "sidetrace: -p 2 is a kernel thread: it runs no user-space code to trace" ]
	run -1 --separate-stderr timeout 10 "$SIDETRACE" -l -p 2
	[ "$stderr" = "sidetrace: -p 2 is a kernel thread: it runs no user-space code to trace" ]
	start_app "$D/h.out" "$HTTPD" -p -d 1 -r 100
	run -0 "$SIDETRACE" -lv 'side:*:http:request' -p "$APP_PID"
	local a=$output
	run -0 "$SIDETRACE" -p "$APP_PID" -lv 'side:*:http:request'
	[ "$output" = "$a" ]
	[ "${lines[0]}" = "side:$(readlink -f "$HTTPD"):http:request" ]
	kill "$APP"
	wait "$APP" || true
	APP=
}

@test "output that cannot be written: one message naming it, exit status 1 (/dev/full, a full disk, a closed stdout, list)" {
	local p="side:$HTTPD:http:request { @[args.path, args.latency_ns] = count(); }"
	run -1 --separate-stderr bash -c "'$SIDETRACE' -c '$HTTPD -n 2000' -e '$p' > /dev/full"
	[ "$stderr" = "sidetrace: cannot write to standard output: No space left on device" ]
	run -1 --separate-stderr bash -c "'$SIDETRACE' list '$HTTPD' > /dev/full"
	[ "$stderr" = "sidetrace: cannot write to standard output: No space left on device" ]
	run -1 --separate-stderr bash -c "'$SIDETRACE' -c '$HTTPD -n 50' -e '$p' >&-"
	[ "$stderr" = "sidetrace: standard output is closed: nowhere to print (give -o FILE)" ]
	mkdir "$D/small"
	mount -t tmpfs -o size=16k tmpfs "$D/small"
	run -1 --separate-stderr "$SIDETRACE" -o "$D/small/out.txt" -c "$HTTPD -n 3000" -e "$p"
	umount "$D/small"
	[ "$stderr" = "sidetrace: cannot write to $D/small/out.txt: No space left on device" ]
	# A reader that leaves early is no failure.
	run -0 bash -c "set -o pipefail; '$SIDETRACE' -c '$HTTPD -n 3000' -e '$p' | head -1"
}

@test "positional parameters: \$1..\$N and \$# after -e's program or a file's, integers or strings, 0 or \"\" when not given" {
	run -0 "$SIDETRACE" -q -e 'BEGIN { printf("%d %s %d %s|%s|%d\n", $1, str($2), $#, str($1), str($3), $3 + 1); exit(); }' 41 hello
	[ "$output" = "41 hello 2 41||1" ]
	printf 'BEGIN { printf("%%s %%d\\n", str($1), $2 * 2); exit(); }\n' > "$D/pa.st"
	run -0 "$SIDETRACE" -q "$D/pa.st" word 21
	[ "$output" = "word 42" ]
	run -0 "$SIDETRACE" -q -c "$HTTPD -n 200 -s 7" -e "side:$HTTPD:http:request /args.status == \$1/ { @[str(\$2)] = count(); }" 404 notfound
	grep -qx "@\[notfound\]: $("$HTTPD" -n 200 -s 7 -v | grep '^http:request' | grep -c 'status=404 ')" <<<"$output"
	run -1 --separate-stderr "$SIDETRACE" -e 'BEGIN { @x = $0; }'
	[ "${stderr%%$'\n'*}" = "program:1:14: error: a positional parameter is \$1, \$2, ... or \$#" ]
	# str($N) where a literal is wanted, as bpftrace takes it.
	run -0 "$SIDETRACE" -q -e 'BEGIN { printf("%d\n", kaddr(str($1)) == kaddr("vfs_read")); exit(); }' vfs_read
	[ "$output" = "1" ]
	# str($1 + 1): the text from its second byte, as bpftrace reads the literal there.
	run -0 "$SIDETRACE" -q -e 'BEGIN { printf("%s|%s\n", str($1 + 1), str($1 + 9)); exit(); }' hello
	[ "$output" = "ello|" ]
}

@test "SIGUSR1 prints every map then, as bpftrace does, and the session goes on" {
	local prog='BEGIN { @scalar = 5; @h[1] = count(); } interval:s:2 { exit(); }' pid i
	"$SIDETRACE" -e "$prog" > "$D/usr1.out" 2>&1 &
	pid=$!
	for i in $(seq 100); do grep -q '^Attaching' "$D/usr1.out" && break; sleep 0.05; done
	kill -USR1 $pid
	wait $pid
	run cat "$D/usr1.out"
	[ "$output" = "Attaching 2 probes...
@h[1]: 1
@scalar: 5


@h[1]: 1
@scalar: 5" ]
	# The same under -f json: each map a document, at the signal and at exit.
	"$SIDETRACE" -f json -e "$prog" > "$D/usr1.json" 2>&1 &
	pid=$!
	for i in $(seq 100); do grep -q 'attached_probes' "$D/usr1.json" && break; sleep 0.05; done
	kill -USR1 $pid
	wait $pid
	run cat "$D/usr1.json"
	[ "$output" = '{"type": "attached_probes", "data": {"probes": 2}}
{"type": "map", "data": {"@h": {"1": 1}}}
{"type": "map", "data": {"@scalar": 5}}
{"type": "map", "data": {"@h": {"1": 1}}}
{"type": "map", "data": {"@scalar": 5}}' ]
}

@test "SIGTERM ends a session whose records never stop coming (system() at every sched_switch), END run" {
	local prog='tracepoint:sched:sched_switch { system("echo foo"); } END { printf("end\n"); }' pid
	"$SIDETRACE" --unsafe -e "$prog" > "$D/flood.out" 2>&1 &
	pid=$!
	wait_attached "$D/flood.out"
	sleep 1
	kill -TERM $pid
	wait_exit $pid sidetrace
	grep -qx foo "$D/flood.out"
	grep -qx end "$D/flood.out"
}
