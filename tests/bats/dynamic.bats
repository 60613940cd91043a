#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Dynamic fields of variadic events by name, end to end: httpd_sim's
# app:log passes user (a dynamic string) and attempt (a dynamic s64) after
# every http:error, and prints them with -v: the kernel's aggregates must
# match exactly. A missing name and a value of the wrong type are decode
# errors reported at exit, never values.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	"$HTTPD" -n 2000 -s 5 -v > "$BATS_FILE_TMPDIR/truth.txt"
}

setup() {
	D="$BATS_FILE_TMPDIR"
	TRUTH="$D/truth.txt"
	LOGS=$(truth_count app:log < "$TRUTH")
}

# Runs sidetrace on httpd_sim -n 2000 -s 5 (the ground-truth run).
st_httpd() { # program [sidetrace options...]
	local prog=$1
	shift
	"$SIDETRACE" "$@" -e "$prog" -c "$HTTPD -n 2000 -s 5"
}

# The value of NAME=value in each app:log line of the ground truth.
log_values() { # field
	awk -v f="$1" '$1 == "app:log" { for (i = 2; i <= NF; i++) {
		split($i, kv, "="); if (kv[1] == f) print kv[2] } }' "$TRUTH"
}

@test "list marks the variadic event" {
	run -0 "$SIDETRACE" list "$HTTPD"
	[[ "$output" == *"app:log  [WARNING]  1 site  variadic"* ]]
}

@test "a dynamic string as a map key" {
	[ "$LOGS" -gt 100 ]
	run -0 --separate-stderr st_httpd "side:$HTTPD:app:log { @[args.user] = count(); }"
	for m in GET POST PUT DELETE; do
		n=$(log_values user | grep -cx "$m")
		[[ "$output" == *"@[$m]: $n"* ]]
	done
	[ "$(grep -c '^@\[' <<< "$output")" = 4 ]
	[ -z "$stderr" ]
}

@test "sum() and hist() of a dynamic integer" {
	run -0 --separate-stderr st_httpd "side:$HTTPD:app:log { @ = sum(args.attempt); @h = hist(args.attempt); }"
	sum=$(log_values attempt | awk '{ s += $1 } END { print s }')
	n1=$(log_values attempt | grep -cx 1)
	n23=$(log_values attempt | grep -cx '[23]')
	n4=$(log_values attempt | grep -cx 4)
	[[ "$output" == *"@: $sum"* ]]
	[[ "$output" =~ \[1\]\ +$n1\  ]]
	[[ "$output" =~ \[2,\ 4\)\ +$n23\  ]]
	[[ "$output" =~ \[4,\ 8\)\ +$n4\  ]]
	[ -z "$stderr" ]
}

@test "a filter on a dynamic string, min and max of a dynamic integer" {
	run -0 st_httpd "side:$HTTPD:app:log /args.user == \"GET\"/ { @g = count(); @s = sum(args.attempt); }
		side:$HTTPD:app:log /args.attempt >= 3/ { @mn = min(args.attempt); @mx = max(args.attempt); }"
	g=$(grep '^app:log' "$TRUTH" | grep -c ' user=GET ')
	s=$(grep '^app:log' "$TRUTH" | grep ' user=GET ' | sed 's/.*attempt=//' |
		awk '{ s += $1 } END { print s }')
	[[ "$output" == *"@g: $g"* ]]
	[[ "$output" == *"@s: $s"* ]]
	[[ "$output" == *"@mn: 3"* ]]
	[[ "$output" == *"@mx: 4"* ]]
}

@test "an integer key: typed by another use in the clause, or by + 0" {
	run -0 st_httpd "side:$HTTPD:app:log { @[args.attempt] = count(); @s = sum(args.attempt); }
		side:$HTTPD:app:log { @k[args.attempt + 0, args.user, args.msg] = count(); }"
	for a in 1 2 3 4; do
		n=$(log_values attempt | grep -cx $a)
		[[ "$output" == *"@[$a]: $n"* ]]
	done
	n=$(grep -c '^app:log msg=backend_unavailable user=PUT attempt=3$' "$TRUTH")
	[ "$n" -gt 0 ]
	[[ "$output" == *"@k[3, PUT, backend_unavailable]: $n"* ]]
}

@test "a dynamic field not passed is a decode error reported at exit" {
	run -0 --separate-stderr st_httpd "side:$HTTPD:app:log { @[args.nope] = count(); }
		side:$HTTPD:app:log { @n = count(); }"
	[[ "$stderr" == *"$LOGS events could not be decoded: dynamic field not passed (side:$HTTPD:app:log)"* ]]
	[[ "$output" != *"@["* ]]
	[[ "$output" == *"@n: $LOGS"* ]]
}

@test "a dynamic value of the wrong type is a decode error, never a value" {
	run -0 --separate-stderr st_httpd "side:$HTTPD:app:log { @ = sum(args.user); }"
	[[ "$stderr" == *"$LOGS events could not be decoded: dynamic field of a type that cannot be used there"* ]]
	[[ "$output" != *"@:"* ]]
	run -0 --separate-stderr st_httpd "side:$HTTPD:app:log /args.attempt == \"1\"/ { @ = count(); }"
	[[ "$stderr" == *"$LOGS events could not be decoded: dynamic field of a type"* ]]
	[[ "$output" != *"@:"* ]]
}

@test "checker errors: one type per clause, long names, members, non-variadic events" {
	run -1 "$SIDETRACE" -e "side:$HTTPD:app:log /args.user == \"GET\"/ { @ = sum(args.user); }"
	[[ "$output" == *"args.user is read as an integer here (used as a number) but as a string"* ]]
	[[ "$output" == *"program:1:"* ]]
	run -1 "$SIDETRACE" -e "side:$HTTPD:app:log { @[args.a_dynamic_field_name_of_32_bytes] = count(); }"
	[[ "$output" == *"longer than 31 bytes"* ]]
	run -1 "$SIDETRACE" -e "side:$HTTPD:app:log { @ = sum(args.user.len); }"
	[[ "$output" == *"args.user is a dynamic field of variadic event app:log"* ]]
	run -1 "$SIDETRACE" -e "side:$HTTPD:http:error { @[args.user] = count(); }"
	[[ "$output" == *"event http:error has no field 'user'; its fields: code, reason"* ]]
}
