#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# Targets that cannot be read, in the ways that need files made for the
# test: each reason has its own message, the path is printed once, and
# `list` says what tracing says. (The others are in oneliners/errors.cases.)

load helpers
bats_require_minimum_version 1.5.0

PROG_TAIL=':a:b { @ = count(); }'

setup() {
	D="$BATS_TEST_TMPDIR"
	chmod 755 "$D"
}

# Tracing and `list` both fail on TARGET with status 1 and MESSAGE, the
# path once in each.
both_say() { # target message [wrapper...]
	local target=$1 msg=$2
	shift 2
	run --separate-stderr "$@" "$SIDETRACE" -e "side:$target$PROG_TAIL"
	[ "$status" -eq 1 ]
	grep -qxF "program:1:6: error: cannot read the events of $target: $msg" <<<"$stderr"
	run --separate-stderr "$@" "$SIDETRACE" list "$target"
	[ "$status" -eq 1 ]
	[ "$stderr" = "sidetrace: $target: $msg" ]
}

@test "not root, with the target in a mode-700 directory: needs root, not 'no such file'" {
	mkdir -m 700 "$D/private"
	cp "$HTTPD" "$D/private/app"
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SIDETRACE" -e "side:$D/private/app:http:request { @ = count(); }"
	[ "$status" -eq 1 ]
	grep -q 'needs root' <<<"$stderr"
	! grep -qi 'no such' <<<"$stderr"
}

@test "unreadable target: permission denied, as root without CAP_DAC_OVERRIDE and for list as a user" {
	cp "$HTTPD" "$D/app"
	chmod 000 "$D/app"
	both_say "$D/app" "permission denied" \
		setpriv --bounding-set=-dac_override,-dac_read_search
	run --separate-stderr setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SIDETRACE" list "$D/app"
	[ "$status" -eq 1 ]
	[ "$stderr" = "sidetrace: $D/app: permission denied" ]
}

@test "a symbolic link loop: said so" {
	ln -s loop2 "$D/loop1"
	ln -s loop1 "$D/loop2"
	both_say "$D/loop1" "too many levels of symbolic links"
}

@test "a FIFO: refused at once, not waited on" {
	mkfifo "$D/fifo"
	both_say "$D/fifo" "not a regular file (a FIFO or a socket)" timeout 10
}

@test "a path through a file: said so" {
	both_say "$HTTPD/x" "a component of the path is not a directory"
}

# A name looked up in PATH that is a script (a pyenv shim): the error names
# the file it found and where, and says it is a script, however the target
# is read (SIDE and usdt: events, functions, `list`).
@test "a program name that PATH resolves to a script: the file found, where, and why" {
	local why="not an ELF file: a script (#!/bin/sh), not the program it runs: name that program's ELF file"
	mkdir "$D/shims"
	printf '#!/bin/sh\nexec /usr/bin/python3 "$@"\n' > "$D/shims/python3"
	chmod 755 "$D/shims/python3"
	both_say python3 "$D/shims/python3 (python3 found in PATH): $why" env PATH="$D/shims:$PATH"
	for p in 'usdt:python3:*' 'uprobe:python3:*' 'side:python3:*'; do
		run -1 --separate-stderr env PATH="$D/shims:$PATH" "$SIDETRACE" -l "$p"
		[ "$stderr" = "sidetrace: python3: $D/shims/python3 (python3 found in PATH): $why" ]
	done
	run -1 --separate-stderr env PATH="$D/shims:$PATH" "$SIDETRACE" -e 'uprobe:python3:main { @ = count(); }'
	grep -qxF "program:1:8: error: cannot read the events of python3: $D/shims/python3 (python3 found in PATH): $why" <<<"$stderr"
	# A path is named once; the script is said so all the same.
	both_say "$D/shims/python3" "$why"
}

# uprobe: finds functions by symbol: a stripped binary names only its
# exported ones. A function it lacks is skipped, as bpftrace skips it,
# with that reason, not only "no function matches" (nothing left to
# attach: refused); with its debug file beside it (.debug/, by its debug
# link), its functions are found there, as bpftrace finds them.
@test "a stripped binary: uprobe: and -l say it has no symbol table; its debug file by debug link restores its functions" {
	local why="it is stripped: no symbol table names its functions but the exported ones (none matches), nor does a debug file of it (install its -dbgsym package, or build it unstripped); its usdt: and side: probes need no symbols"
	cc -O2 -g -Wall -I"$ROOT/include" "$ROOT/tests/fixtures/fork_app.c" -o "$D/app" \
		"$OUT/libside.a" -lpthread
	strip -o "$D/stripped" "$D/app"
	run -1 --separate-stderr "$SIDETRACE" -e "uprobe:$D/stripped:tick { @ = count(); }"
	[ "$stderr" = "sidetrace: warning: no function of $D/stripped matches tick: $why: skipped
sidetrace: nothing to attach: no function of $D/stripped matches tick: $why" ]
	run -1 --separate-stderr "$SIDETRACE" --missing-probes error -e "uretprobe:$D/stripped:tick { @ = count(); }"
	grep -qF "program:1:$((${#D} + 21)): error: no function of $D/stripped matches tick: $why" <<<"$stderr"
	run -1 --separate-stderr "$SIDETRACE" -l "uprobe:$D/stripped:*"
	[ "$stderr" = "sidetrace: $D/stripped: $why" ]
	# What the message offers works: its side: probes.
	run -0 "$SIDETRACE" -c "$D/stripped fork 3" -e "side:$D/stripped:fk:tick { @[args.who] = count(); }"
	[ "$(grep '^@' <<<"$output")" = "@[0]: 3
@[1]: 3" ]
	# Its debug file, found by its debug link: the functions the unstripped build lists.
	mkdir "$D/.debug"
	objcopy --only-keep-debug "$D/app" "$D/.debug/app.debug"
	objcopy --add-gnu-debuglink="$D/.debug/app.debug" "$D/stripped"
	diff <("$SIDETRACE" -l "uprobe:$D/app:*" | sed "s|^uprobe:$D/app:||") \
		<("$SIDETRACE" -l "uprobe:$D/stripped:*" | sed "s|^uprobe:$D/stripped:||")
	run -0 "$SIDETRACE" -l "uprobe:$D/stripped:tic*"
	[ "$output" = "uprobe:$D/stripped:tick" ]
	run -0 "$SIDETRACE" -c "$D/stripped fork 3" \
		-e "uprobe:$D/stripped:tick { @[args.who] = count(); } uretprobe:$D/stripped:tick { @r = count(); }"
	[ "$(grep '^@' <<<"$output")" = "@[0]: 3
@[1]: 3
@r: 6" ]
}
