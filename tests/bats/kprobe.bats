#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# kprobe:/kretprobe: and fentry:/fexit: with arguments by name from the
# kernel's BTF. Listing and compiling work on any kernel with BTF;
# attaching needs kprobes, or BPF trampolines: on a kernel without them
# (this project's CI host: CONFIG_KPROBES is off, fentry programs are
# refused) the error says so and what works instead, on one with them (the
# VM matrix, tests/vm) the counts are exact.

load helpers
bats_require_minimum_version 1.5.0

setup_file() {
	build_req_writes "$BATS_FILE_TMPDIR/req_writes"
}

setup() {
	RW=$BATS_FILE_TMPDIR/req_writes
}

kprobes() {
	[ -e /sys/bus/event_source/devices/kprobe/type ]
}

@test "-lv kprobe: lists a kernel function's parameters as BTF declares them, as bpftrace's kfunc lines, then arg0..arg5; kretprobe: retval" {
	run -0 "$SIDETRACE" -lv 'kprobe:vfs_write'
	[ "${lines[0]}" = "kprobe:vfs_write" ]
	[ "${lines[1]}" = "    struct file * file" ]
	[ "${lines[2]}" = "    const char * buf" ]
	[ "${lines[3]}" = "    size_t count" ]
	[[ "$output" == *"    arg5: u64"* ]]
	run -0 "$SIDETRACE" -lv 'kretprobe:vfs_write'
	[ "$output" = "$(printf 'kretprobe:vfs_write\n    ssize_t retval')" ]
	run -0 "$SIDETRACE" -l 'kprobe:vfs_w*'
	[[ "$output" == *"kprobe:vfs_write"* ]]
	[[ "$output" == *"kprobe:vfs_writev"* ]]
}

@test "members through pointers compile, unknown ones are refused with the members there are" {
	run -0 "$SIDETRACE" -d -e 'kprobe:vfs_write { @[str(args.file->f_path.dentry->d_name.name)] = sum(args.count); }'
	run -1 "$SIDETRACE" -d -e 'kprobe:vfs_write { @[args.file->f_nope] = count(); }'
	[[ "$output" == *"has no member 'f_nope'; its members: "*"f_path"* ]]
	# Skipped, as bpftrace skips it; with nothing else to attach, refused.
	run -1 "$SIDETRACE" -d -e 'kprobe:no_such_function_here { @ = count(); }'
	[[ "$output" == *"nothing to attach: no kernel function matches no_such_function_here"* ]]
}

@test "kretprobe of a spin lock's function is refused in bpftrace's words, by name and by wildcard; kprobe and -l take it" {
	local f
	for f in _raw_spin_lock _raw_spin_lock_irqsave _raw_spin_unlock_irqrestore queued_spin_lock_slowpath; do
		grep -qw "$f" /proc/kallsyms || continue
		run -1 "$SIDETRACE" -d -e "kretprobe:$f { exit(); }"
		[[ "$output" == *"error: kretprobe:$f can't be used as it might lock up your system"* ]]
	done
	run -1 "$SIDETRACE" -d -e 'kretprobe:_raw_spin_lock* { exit(); }'
	[[ "$output" == *"can't be used as it might lock up your system"* ]]
	run -0 "$SIDETRACE" -d -e 'kprobe:_raw_spin_lock { exit(); }'
	run -0 "$SIDETRACE" -l 'kretprobe:_raw_spin_lock'
	[ "$output" = "kretprobe:_raw_spin_lock" ]
}

@test "vfs_write by kprobe and kretprobe: exact bytes and calls, or the kernel's lack said" {
	local prog='kprobe:vfs_write /tid != pid/ { @b = sum(args.count); @n[str(args.file->f_path.dentry->d_name.name)] = count(); }
kretprobe:vfs_write /tid != pid/ { @r = sum(retval); }'
	if ! kprobes; then
		run -1 "$SIDETRACE" -e "$prog" -c "$RW 10"
		[[ "$output" == *"this kernel has no kprobes"*"CONFIG_KPROBES is off); tracepoints work here"* ]]
		return
	fi
	run -0 "$SIDETRACE" -e "$prog" -c "$RW 50"
	calls=$(truth_total <(echo "$output") calls)
	bytes=$(truth_total <(echo "$output") bytes)
	[[ "$output" == *"@b: $bytes"* ]]
	[[ "$output" == *"@r: $bytes"* ]]
	[[ "$output" == *"@n[null]: $calls"* ]]
}

@test "-lv fentry: lists the parameters, fexit: them and retval; named kfunc: and kretfunc: as bpftrace 0.17 names them" {
	run -0 "$SIDETRACE" -lv 'fentry:vfs_write'
	local params='    struct file * file\n    const char * buf\n    size_t count\n    loff_t * pos'
	[ "$output" = "$(printf "kfunc:vfs_write\n$params")" ]
	run -0 "$SIDETRACE" -lv 'kretfunc:vfs_write'
	[ "$output" = "$(printf "kretfunc:vfs_write\n$params\n    ssize_t retval")" ]
	run -0 "$SIDETRACE" -d -e 'kfunc:vfs_write { @[str(args.file->f_path.dentry->d_name.name)] = sum(args.count); }'
	[[ "$output" == *"fentry interpreter"* ]]
	run -1 "$SIDETRACE" -d -e 'fexit:vfs_write+4 { @ = count(); }'
	[[ "$output" == *"fentry: and fexit: take no +OFFSET"*"(kprobe:FUNCTION+OFFSET probes inside it)"* ]]
	run -1 "$SIDETRACE" -d -e 'fentry:vfs_write { @ = args.nope; }'
	[[ "$output" == *"nope"* ]]
	# bpftrace's kfunc:MODULE:FUNCTION: the function of the modules the glob names.
	run -0 "$SIDETRACE" -lv 'kretfunc:vmlinux:vfs_write'
	[ "$output" = "$(printf "kretfunc:vfs_write\n$params\n    ssize_t retval")" ]
	run -0 "$SIDETRACE" -l 'kfunc:vmlinu*:vfs_write'
	[ "$output" = "kfunc:vfs_write" ]
	run -1 --separate-stderr "$SIDETRACE" -l 'kfunc:no_such_module:vfs_write'
	[ "$stderr" = "sidetrace: no probe matches kfunc:no_such_module:vfs_write" ]
	run -0 "$SIDETRACE" -d -e 'kfunc:vmlinux:vfs_write { @ = sum(args.count); }'
	[[ "$output" == *"kfunc:vfs_write "*"fentry interpreter"* ]]
}

@test "vfs_write by fentry and fexit: exact bytes, calls and retval, or the kernel's refusal said" {
	local prog='fentry:vfs_write /tid != pid/ { @b = sum(args.count); @n[str(args.file->f_path.dentry->d_name.name)] = count(); }
fexit:vfs_write /tid != pid/ { @r = sum(retval); @c = sum(args.count); }'
	run "$SIDETRACE" -e "$prog" -c "$RW 50"
	if [ "$status" = 1 ]; then
		local instead="kprobe:/kretprobe: read the same arguments here"
		kprobes || instead="this kernel has no kprobes either: tracepoints work here"
		[[ "$output" == *"this kernel refuses fentry programs (loading one for vfs_write: "*"); $instead"* ]]
		return
	fi
	[ "$status" = 0 ]
	calls=$(truth_total <(echo "$output") calls)
	bytes=$(truth_total <(echo "$output") bytes)
	[[ "$output" == *"@b: $bytes"* ]]
	[[ "$output" == *"@c: $bytes"* ]]
	[[ "$output" == *"@r: $bytes"* ]]
	[[ "$output" == *"@n[null]: $calls"* ]]
}

@test "-l and -lv 'kprobe:*' list every kernel function BTF has and the kernel probes, past the cap a probe has" {
	# Into a file: bats would split 55,000 lines into an array, slowly under ASan.
	"$SIDETRACE" -l 'kprobe:*' > "$BATS_TEST_TMPDIR/all"
	[ "$(wc -l < "$BATS_TEST_TMPDIR/all")" -gt 4096 ]
	grep -qx 'kprobe:vfs_read' "$BATS_TEST_TMPDIR/all"
	[ "$(sort -u "$BATS_TEST_TMPDIR/all" | wc -l)" -eq "$(wc -l < "$BATS_TEST_TMPDIR/all")" ]
	# -lv: the same functions, each with its parameters' declarations.
	"$SIDETRACE" -lv 'kprobe:*' > "$BATS_TEST_TMPDIR/allv"
	cmp "$BATS_TEST_TMPDIR/all" <(grep -v '^ ' "$BATS_TEST_TMPDIR/allv")
	grep -A2 -x 'kprobe:vfs_read' "$BATS_TEST_TMPDIR/allv" > "$BATS_TEST_TMPDIR/read"
	[ "$(cat "$BATS_TEST_TMPDIR/read")" = "kprobe:vfs_read
    struct file * file
    char * buf" ]
	# A probe of them all is capped.
	run -1 --separate-stderr "$SIDETRACE" -d -e 'kprobe:* { @ = count(); }'
	[[ "$stderr" == "program:1:8: error: more than 4096 kernel functions match *: name fewer"* ]]
}
