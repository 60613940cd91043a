#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# A Go program (Debian's golang-go) traced by function
# name, arguments from Go's DWARF location lists (a string: its pointer and
# length in two registers, read by its length; a slice: its length),
# returns probed on each
# RET instruction (a uretprobe crashes Go programs), entries placed past
# the stack-growth check (Go runs the prologue again after growing a
# goroutine's stack): exact against the program's own counts, and the
# program never harmed.

bats_require_minimum_version 1.5.0
load helpers

setup_file() {
	command -v go > /dev/null || return 0
	mkdir -p "$BATS_FILE_TMPDIR/gocache"
	HOME="$BATS_FILE_TMPDIR" GOCACHE="$BATS_FILE_TMPDIR/gocache" GO111MODULE=off \
		go build -o "$BATS_FILE_TMPDIR/go_app" "$ROOT/tests/fixtures/go_app/main.go"
}

setup() {
	command -v go > /dev/null || skip "golang-go is not installed"
	APPBIN="$BATS_FILE_TMPDIR/go_app"
}

@test "entries and returns exact, arguments by name, 5 runs with growing stacks, no crash" {
	local r
	local -a truth
	for r in 1 2 3 4 5; do
		run -0 timeout 60 "$SIDETRACE" -c "$APPBIN 500" -e "
			uprobe:$APPBIN:main.work { @calls = count(); @n = sum(args.n); @d[args.deep] = count();
				@tag[args.tag] = count(); }
			uprobe:$APPBIN:main.measure { @len = sum(args.xs); }
			uretprobe:$APPBIN:main.work { @rets = count(); @r = sum(retval); }"
		echo "$output"
		truth=($(grep '^calls ' <<<"$output"))
		[ "${truth[1]}" = 8000 ]
		grep -qx "@calls: ${truth[1]}" <<<"$output"
		grep -qx "@rets: ${truth[1]}" <<<"$output"
		grep -qx "@n: ${truth[3]}" <<<"$output"
		grep -qx "@r: ${truth[5]}" <<<"$output"
		grep -qx "@len: ${truth[7]}" <<<"$output"
		grep -qx '@d\[3\]: 2000' <<<"$output"
		grep -qx '@tag\[abc\]: 8000' <<<"$output"
	done
}

@test "-lv: Go's parameters by name and Go type" {
	run -0 "$SIDETRACE" -lv "uprobe:$APPBIN:main.work"
	[ "${lines[0]}" = "uprobe:$APPBIN:main.work" ]
	[ "${lines[1]}" = "    int n" ]
	[ "${lines[2]}" = "    string tag" ]
	[ "${lines[3]}" = "    int deep" ]
	run -0 "$SIDETRACE" -lv "uretprobe:$APPBIN:main.work"
	[ "${lines[1]}" = "    int retval" ]
}

@test "a function by its package's import path: internal/poll.(*FD).Write, its slice's length" {
	# The program's one Printf is one write of its line and newline.
	run -0 timeout 60 "$SIDETRACE" -c "$APPBIN 10" -e "
		uprobe:$APPBIN:internal/poll.(*FD).Write { @w = count(); @bytes = sum(args.p); }"
	echo "$output"
	local line
	line=$(grep '^calls ' <<<"$output")
	grep -qx '@w: 1' <<<"$output"
	grep -qx "@bytes: $((${#line} + 1))" <<<"$output"
	run -0 "$SIDETRACE" -lv "uprobe:$APPBIN:internal/poll.(*FD).Write"
	[ "${lines[0]}" = "uprobe:$APPBIN:internal/poll.(*FD).Write" ]
	[ "${lines[1]}" = "    *internal/poll.FD fd" ]
}
