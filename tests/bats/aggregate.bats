#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# sidetrace one-liners end to end: the example apps run with a fixed seed
# and print every event's values (-v), and the kernel's aggregates must
# match those values exactly. Also -p, -c, system-wide tracing, JSON,
# error messages, decode errors, and the traced program left unchanged.

load helpers
bats_require_minimum_version 1.5.0

FIX="$BATS_TEST_DIRNAME/../fixtures"

setup_file() {
	local d="$BATS_FILE_TMPDIR"

	cc -O2 -Wall -I"$ROOT/include" "$FIX/side_edge.c" -o "$d/side_edge" \
		"$OUT/libside.a" -lpthread -ldl
	# Ground truth: the values of every event of a fixed run.
	"$HTTPD" -n 300 -s 7 -v > "$d/truth.txt"
}

setup() {
	D="$BATS_FILE_TMPDIR"
	EDGE="$D/side_edge"
	TRUTH="$D/truth.txt"
}

# Runs sidetrace on httpd_sim -n 300 -s 7 (the ground-truth run).
st_httpd() { # program [sidetrace options...]
	local prog=$1
	shift
	"$SIDETRACE" "$@" -e "$prog" -c "$HTTPD -n 300 -s 7"
}

# The value of NAME=value in each line of event EV of the ground truth.
truth_values() { # event field
	awk -v ev="$1" -v f="$2" '$1 == ev { for (i = 2; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == f) print kv[2] } }' "$TRUTH"
}

@test "count() of one event" {
	run -0 st_httpd "side:$HTTPD:http:request { @ = count(); }"
	[ "${lines[0]}" = "Attaching 1 probe..." ]
	[[ "$output" == *"@: 300"* ]]
}

@test "count() keyed by a string field" {
	run -0 st_httpd "side:$HTTPD:http:request { @[args.method] = count(); }"
	for m in GET POST PUT DELETE; do
		n=$(truth_values http:request method | grep -cx "$m")
		[[ "$output" == *"@[$m]: $n"* ]]
	done
}

@test "sum, min, max, avg and stats of integer fields" {
	run -0 st_httpd "side:$HTTPD:http:request { @s = sum(args.bytes); @mn = min(args.latency_ns);
		@mx = max(args.latency_ns); @a = avg(args.bytes); @st = stats(args.bytes); }"
	sum=$(truth_values http:request bytes | awk '{ s += $1 } END { print s }')
	min=$(truth_values http:request latency_ns | sort -n | head -1)
	max=$(truth_values http:request latency_ns | sort -n | tail -1)
	[[ "$output" == *"@s: $sum"* ]]
	[[ "$output" == *"@mn: $min"* ]]
	[[ "$output" == *"@mx: $max"* ]]
	[[ "$output" == *"@a: $((sum / 300))"* ]]
	[[ "$output" == *"@st: count 300, average $((sum / 300)), total $sum"* ]]
}

@test "signed values: sum and min of a negative s32" {
	run -0 st_httpd "side:$HTTPD:http:error { @s = sum(args.code); @m = min(args.code); @n = count(); }"
	sum=$(truth_values http:error code | awk '{ s += $1 } END { print s }')
	min=$(truth_values http:error code | sort -n | head -1)
	n=$(truth_count http:error < "$TRUTH")
	[[ "$output" == *"@s: $sum"* ]]
	[[ "$output" == *"@m: $min"* ]]
	[[ "$output" == *"@n: $n"* ]]
}

@test "hist() buckets match log2 of every value" {
	run -0 st_httpd "side:$HTTPD:http:request { @ = hist(args.bytes); }"
	# Expected count per bucket [2^k, 2^(k+1)), as "k count" lines.
	truth_values http:request bytes | awk '$1 > 0 { k = int(log($1) / log(2));
		if (2 ^ (k + 1) <= $1) k++; if (2 ^ k > $1) k--; n[k]++ }
		END { for (k in n) print k, n[k] }' > "$D/hist.txt"
	while read -r k n; do
		lo=$((1 << k))
		row=$(grep -E "^\[$lo(, |\])|^\[$((lo / 1024))K, " <<< "$output" | head -1)
		[ -n "$row" ] || { echo "no row for $lo"; false; }
		[ "$(awk -F'[])] +' '{ print $2 }' <<< "$row" | awk '{ print $1 }')" = "$n" ] ||
			{ echo "bucket $lo: want $n, row: $row"; false; }
	done < "$D/hist.txt"
}

@test "lhist() of the status code" {
	run -0 st_httpd "side:$HTTPD:http:request { @ = lhist(args.status, 200, 600, 100); }"
	n2=$(truth_values http:request status | awk '$1 >= 200 && $1 < 300' | wc -l)
	n4=$(truth_values http:request status | awk '$1 >= 400 && $1 < 500' | wc -l)
	n5=$(truth_values http:request status | awk '$1 >= 500 && $1 < 600' | wc -l)
	[[ "$output" =~ \[200,\ 300\)\ +$n2\  ]]
	[[ "$output" =~ \[400,\ 500\)\ +$n4\  ]]
	[[ "$output" =~ \[500,\ 600\)\ +$n5\  ]]
}

@test "struct member, array element and vla element" {
	run -0 st_httpd "side:$HTTPD:http:request { @port = sum(args.peer.port); }
		side:$HTTPD:db:query { @shard = sum(args.shards[2]); @id = sum(args.ids[0]); }"
	port=$(truth_values http:request peer.port | awk '{ s += $1 } END { print s }')
	shard=$(truth_values db:query shards | awk -F, '{ s += $3 } END { print s }')
	id=$(truth_values db:query ids | awk -F, '{ s += $1 } END { print s }')
	[[ "$output" == *"@port: $port"* ]]
	[[ "$output" == *"@shard: $shard"* ]]
	[[ "$output" == *"@id: $id"* ]]
}

@test "an element beyond a vla's length is a counted decode error" {
	run -0 --separate-stderr st_httpd "side:$HTTPD:db:query { @ = sum(args.ids[7]); @n = count(); }
		side:$HTTPD:db:query { @all = count(); }"
	short=$(truth_values db:query ids | awk -F, 'NF < 8' | wc -l)
	all=$(truth_count db:query < "$TRUTH")
	[[ "$stderr" == *"$short events could not be decoded: field index beyond"* ]]
	# The failing clause is skipped whole; the other clause sees every event.
	[[ "$output" == *"@n: $((all - short))"* ]]
	[[ "$output" == *"@all: $all"* ]]
}

@test "enum and bool fields as keys" {
	run -0 st_httpd "side:$HTTPD:app:conn_state { @[args.state, args.keepalive] = count(); }"
	for s in 0 1 2 3 4; do
		for k in 0 1; do
			n=$(grep -c "^app:conn_state state=$s keepalive=$k\$" "$TRUTH" || true)
			[ "$n" = 0 ] || [[ "$output" == *"@[$s, $k]: $n"* ]]
		done
	done
}

@test "numeric and string filters" {
	run -0 st_httpd "side:$HTTPD:http:request /args.status >= 500/ { @e = count(); }
		side:$HTTPD:http:request /args.method == \"GET\" && args.bytes > 1000/ { @g = count(); }
		side:$HTTPD:http:request /args.path != \"/\"/ { @p[args.path] = count(); }"
	e=$(truth_values http:request status | awk '$1 >= 500' | wc -l)
	g=$(grep '^http:request' "$TRUTH" | grep ' method=GET ' |
		sed 's/.*bytes=\([0-9]*\).*/\1/' | awk '$1 > 1000' | wc -l)
	root=$(truth_values http:request path | grep -cx /)
	[[ "$output" == *"@e: $e"* ]]
	[[ "$output" == *"@g: $g"* ]]
	[[ "$output" != *"@p[/]:"* ]]
	[ "$root" -gt 0 ]
	n=$(truth_values http:request path | grep -cx /api/users)
	[[ "$output" == *"@p[/api/users]: $n"* ]]
}

@test "wildcards and the probe builtin" {
	run -0 st_httpd "side:$HTTPD:http:* { @[probe] = count(); }"
	req=$(truth_count http:request < "$TRUTH")
	err=$(truth_count http:error < "$TRUTH")
	[ "${lines[0]}" = "Attaching 2 probes..." ]
	[[ "$output" == *"@[side:$HTTPD:http:request]: $req"* ]]
	[[ "$output" == *"@[side:$HTTPD:http:error]: $err"* ]]
}

@test "builtins: comm and pid as keys" {
	run -0 "$SIDETRACE" -e "side:$HTTPD:http:request /comm == \"httpd_sim\"/ { @[comm] = count(); @p[pid] = count(); }" \
		-c "$HTTPD -n 50 -s 1"
	[[ "$output" == *"@[httpd_sim]: 50"* ]]
	[ "$(grep -c '^@p\[[0-9]*\]: 50$' <<< "$output")" = 1 ]
}

@test "-c: the traced program's output and exit status are unchanged" {
	"$HTTPD" -n 100 -s 3 -v > "$D/plain.txt"
	run -0 --separate-stderr "$SIDETRACE" -e "side:$HTTPD:http:request { @ = count(); }" \
		-c "$HTTPD -n 100 -s 3 -v"
	# The program's lines come first, then the maps.
	diff <(sed -n '2,101p' <<< "$output" | grep -v '^$') <(head -100 "$D/plain.txt")
	[[ "$output" == *"@: 100"* ]]
}

@test "system-wide: two processes, the tracer leaves their results alone" {
	"$SIDETRACE" -e "side:$HTTPD:http:request { @[pid] = count(); @all = count(); }" \
		> "$D/sw.txt" 2>&1 &
	local st=$! i
	# "Attaching N probes..." is printed once they are attached.
	for i in $(seq 100); do
		grep -q '^Attaching' "$D/sw.txt" && break
		sleep 0.1
	done
	"$HTTPD" -n 30 -s 1 -v > "$D/a.txt"
	local a=$?
	"$HTTPD" -n 40 -s 2 > /dev/null
	kill -INT $st
	wait $st
	[ "$a" = 0 ]
	diff "$D/a.txt" <("$HTTPD" -n 30 -s 1 -v)
	grep -q '^@all: 70$' "$D/sw.txt"
	grep -q '^@\[[0-9]*\]: 30$' "$D/sw.txt"
	grep -q '^@\[[0-9]*\]: 40$' "$D/sw.txt"
}

@test "-p: a running process, its shared library, stop when it exits" {
	"$KV" -n 20 -w 1 -p > "$D/kv.txt" &
	local kv=$!
	sleep 0.3
	run -0 timeout 20 "$SIDETRACE" -p "$kv" \
		-e 'side:libkv:kv:get { @[args.hit] = count(); } side:libkv:kv:put { @p = count(); @d = sum(args.delta); }'
	wait $kv
	[[ "$output" == *"@[0]: 20"* ]]
	[[ "$output" == *"@[1]: 20"* ]]
	[[ "$output" == *"@p: 20"* ]]
}

@test "-f json: every line is a JSON document" {
	run -0 st_httpd "side:$HTTPD:http:request { @[args.method] = count(); @h = hist(args.bytes); @n = count(); }" -f json
	python3 -c '
import json, sys
docs = [json.loads(l) for l in sys.stdin if l.strip()]
types = [d["type"] for d in docs]
assert types[0] == "attached_probes", types
maps = {k: v for d in docs if d["type"] in ("map", "hist") for k, v in d["data"].items()}
assert maps["@n"] == 300, maps
assert sum(maps["@"].values()) == 300
assert sum(b["count"] for b in maps["@h"]) == 300
' <<< "$output"
}

@test "-o FILE writes the output there" {
	run -0 "$SIDETRACE" -o "$D/out.txt" -e "side:$HTTPD:http:request { @ = count(); }" -c "$HTTPD -n 10"
	grep -q '^@: 10$' "$D/out.txt"
	[[ "$output" != *"@: 10"* ]]
}

@test "exit() in a probe ends tracing; interval and END run in user space" {
	"$HTTPD" -d 20 -r 100 > /dev/null &
	local app=$!
	sleep 0.3
	# No request has more than 65535 bytes: only the interval's exit() stops.
	run -0 timeout 10 "$SIDETRACE" -e "side:$HTTPD:http:request { @ = count(); }
		side:$HTTPD:http:request /args.bytes > 70000/ { exit(); }
		interval:ms:700 { print(@); clear(@); }
		interval:s:2 { exit(); } END { zero(@); }"
	[ "${lines[0]}" = "Attaching 4 probes..." ]
	# Two interval prints of about 70 requests each, then zeroed at END.
	[ "$(grep -c '^@: [1-9][0-9]*$' <<< "$output")" -ge 2 ]
	[[ "$output" == *"@: 0"* ]]
	"$HTTPD" -d 20 -r 100 > /dev/null &
	sleep 0.3
	run -0 timeout 10 "$SIDETRACE" -e "side:$HTTPD:http:request /args.status >= 500/ { @ = count(); exit(); }"
	kill $app $!
	[[ "$output" =~ @:\ [1-9] ]]
}

@test "BEGIN { exit(); } runs without any probe" {
	run -0 "$SIDETRACE" -e 'BEGIN { exit(); }'
	[ "${lines[0]}" = "Attaching 1 probe..." ]
}

@test "errors: no such target, no events, unknown event, no field" {
	run -1 "$SIDETRACE" -e 'side:/nonexistent:a:b { @ = count(); }'
	[[ "$output" == *"no such program or library"* ]]
	run -1 "$SIDETRACE" -e 'side:/bin/true:a:b { @ = count(); }'
	[[ "$output" == *"has no SIDE events"* ]]
	run -1 "$SIDETRACE" -e "side:$HTTPD:http:requets { @ = count(); }"
	[[ "$output" == *"did you mean http:request?"* ]]
	run -1 "$SIDETRACE" -e "side:$HTTPD:http:request { @ = sum(args.nope); }"
	[[ "$output" == *"no field 'nope'"* ]]
	run -2 "$SIDETRACE"
	[[ "$output" == *"Usage: sidetrace"* ]]
}

@test "errors: not root, no such process, no such command" {
	run -1 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SIDETRACE" -e "side:$HTTPD:http:request { @ = count(); }"
	[[ "$output" == *"needs root"* ]]
	run -1 "$SIDETRACE" -p 999999 -e "side:$HTTPD:http:request { @ = count(); }"
	[[ "$output" == *"no such process"* ]]
	run -1 "$SIDETRACE" -c /nonexistent/cmd -e "side:$HTTPD:http:request { @ = count(); }"
	[[ "$output" == *"command not found"* ]]
}

@test "decode errors are counted, never silent: bad string, label, vector" {
	run -0 --separate-stderr "$SIDETRACE" -e "side:$EDGE:edge:ev { @[args.s] = count(); }" -c "$EDGE badstr 7"
	[[ "$stderr" == *"7 events could not be decoded: string unreadable"* ]]
	[[ "$output" != *"@[]"* ]]
	# Top-level values come from the SDT arguments, which the fixture's
	# hand-made vectors contradict: read them through the vector instead.
	export SIDETRACE_VECTOR_ONLY=1
	run -0 --separate-stderr "$SIDETRACE" -e "side:$EDGE:edge:ev { @n = sum(args.n); } side:$EDGE:edge:ev { @c = count(); }" -c "$EDGE label 5"
	[[ "$stderr" == *"5 events could not be decoded: argument type differs"* ]]
	[[ "$output" == *"@c: 5"* ]]
	[[ "$output" != *"@n:"* ]]
	run -0 --separate-stderr "$SIDETRACE" -e "side:$EDGE:edge:ev { @ = sum(args.n); }" -c "$EDGE badvec 4"
	[[ "$stderr" == *"4 events could not be decoded: bad pointer"* ]]
	run -0 --separate-stderr "$SIDETRACE" -e "side:$EDGE:edge:ev { @[args.s] = count(); }" -c "$EDGE shortvec 3"
	[[ "$stderr" == *"3 events could not be decoded: field index beyond"* ]]
	run -0 --separate-stderr "$SIDETRACE" -e "side:$EDGE:edge:ev { @ = sum(args.n); }" -c "$EDGE hugelen 6"
	[[ "$output" == *"@: 21"* ]]
}

@test "top-level fields read from the SDT arguments agree with the argument vector" {
	local prog="side:$HTTPD:http:request { @s = stats(args.bytes); @h = hist(args.latency_ns);
		@p[args.path, args.status] = count(); @mn = min(args.latency_ns); @mx = max(args.bytes);
		@b[args.method] = lhist(args.status, 100, 600, 100); }"
	run -0 st_httpd "$prog"
	local sdt=$output
	SIDETRACE_VECTOR_ONLY=1 run -0 st_httpd "$prog"
	[ "$output" = "$sdt" ]
	[[ "$sdt" == *"@s: count 300, "* ]]
}

@test "one perf-event uprobe per site where uprobe_multi is not used: same results" {
	local prog="side:$HTTPD:http:request { @c = count(); @h = hist(args.latency_ns);
		@p[args.path] = count(); }"
	run -0 st_httpd "$prog"
	local multi=$output
	SIDETRACE_NO_UPROBE_MULTI=1 run -0 st_httpd "$prog"
	[ "$output" = "$multi" ]
	[[ "$multi" == *"@c: 300"* ]]
	SIDETRACE_NO_UPROBE_MULTI=1 run -0 st_httpd "side:$HTTPD:http:request { @ = count(); }"
	[[ "$output" == *"@: 300"* ]]
	SIDETRACE_NO_UPROBE_MULTI=1 run -0 --separate-stderr "$SIDETRACE" \
		-e "side:$EDGE:edge:ev { @[args.s] = count(); }" -c "$EDGE far 9 200"
	[[ "$output" == *"@[far away]: 8"* ]]
}

@test "clear() and zero() of maps without keys, as bpftrace prints them" {
	run -0 st_httpd "side:$HTTPD:http:request { @c = count(); @h = hist(args.bytes); @k = count(); }
		END { clear(@c); zero(@h); print(@c); print(@h); zero(@k); }"
	[[ "$output" != *"@c:"* ]]
	[[ "$output" == *"@h:"* ]]
	[[ "$output" == *"@k: 0"* ]]
}

@test "strings: never-touched pages are counted, then paged in; long strings cut" {
	# The first read fails and arms the fault-in program, which the
	# collector attaches within 50 ms; the fixture waits 0.2 s after event 1.
	run -0 --separate-stderr "$SIDETRACE" -e "side:$EDGE:edge:ev { @[args.s] = count(); }" -c "$EDGE far 9 200"
	[[ "$output" == *"@[far away]: 8"* ]]
	[[ "$stderr" == *"1 events could not be decoded: string unreadable"* ]]
	run -0 --separate-stderr "$SIDETRACE" -e "side:$EDGE:edge:ev { @[args.s] = count(); }" -c "$EDGE long 8"
	[[ "$output" == *"@[012345678901234567890123456789012345678901234567890123456789012]: 8"* ]]
	[[ "$stderr" == *"8 strings were cut"* ]]
}

@test "start-up to attached takes milliseconds" {
	# The command runs as soon as the probes are attached: it says when.
	start=$(date +%s%N)
	run -0 "$SIDETRACE" -e "side:$HTTPD:http:request { @[args.method] = hist(args.bytes); }" \
		-c "date +%s%N"
	attached=${lines[1]}
	echo "start-up to attached: $(((attached - start) / 1000000)) ms"
	[ $(((attached - start) / 1000000)) -lt 250 ]
}

@test "each program agrees with the generic one: flat, plain and filtered one-liners" {
	# Served by sidetrace_flat (no keys), sidetrace_plain (keys), and,
	# with an always-true filter, by the generic sidetrace_event.
	local body='@h = hist(args.latency_ns); @s = sum(args.bytes); @m = max(args.status);
		@l = lhist(args.status, 100, 600, 100); @c = count();'
	local keyed='@k[args.method, args.status] = count(); @p[args.path] = hist(args.latency_ns);
		@b[tid, args.method] = sum(args.bytes);'
	run -0 st_httpd "side:$HTTPD:http:request { $body }"
	flat=$output
	run -0 st_httpd "side:$HTTPD:http:request /args.status >= 0/ { $body }"
	[ "$output" = "$flat" ]
	run -0 st_httpd "side:$HTTPD:http:request { $keyed }"
	plain=$(sed 's/@b\[[0-9]*,/@b[TID,/' <<<"$output" | sort)
	run -0 st_httpd "side:$HTTPD:http:request /args.status >= 0/ { $keyed }"
	[ "$(sed 's/@b\[[0-9]*,/@b[TID,/' <<<"$output" | sort)" = "$plain" ]
	[[ "$flat" == *"@c: 300"* ]]
	[[ "$plain" == *"@k[GET, 200]: "* ]]
}
