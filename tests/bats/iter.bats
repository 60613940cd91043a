#!/usr/bin/env bats
# SPDX-License-Identifier: MIT
# iter:TARGET end to end on the running kernel: a process started here
# with known open files, found by the task and task_file iterators through
# ctx typed from BTF; every object's record printed however many there
# are; the session's end (END, the maps) once the iterator is read; -l and
# -lv as bpftrace lists them; the programs sidetrace refuses, and why.
# Where the kernel refuses iterator programs, the message says so.

load helpers
bats_require_minimum_version 1.5.0

setup() {
	D=$BATS_TEST_TMPDIR
	# A process of a name of its own, its files known: 0 /etc/hostname, 3 /etc/passwd.
	cp /bin/sleep "$D/itersleeper"
	"$D/itersleeper" 300 < /etc/hostname > /dev/null 2>&1 3< /etc/passwd &
	SLEEPER=$!
	run "$SIDETRACE" -e 'iter:task { @ = count(); }'
	ITER_OK=$status
	ITER_OUT=$output
}

teardown() {
	kill "$SLEEPER" 2> /dev/null || true
	wait "$SLEEPER" 2> /dev/null || true
}

# Where the kernel has no iterators: the refusal names the kind and what works instead.
refused() {
	[ "$ITER_OK" -ne 0 ]
	[[ "$ITER_OUT" == *"this kernel refuses iter programs"*"/proc lists the tasks"* ]]
}

@test "iter:task visits every task with its context typed from BTF: ctx->task->comm and ->pid" {
	[ "$ITER_OK" -eq 0 ] || refused || return 1
	[ "$ITER_OK" -eq 0 ] || return 0
	run -0 "$SIDETRACE" -e 'iter:task { printf("%s:%d:%d\n", ctx->task->comm, ctx->task->tgid, ctx->task->pid); }'
	[ "${lines[0]}" = "Attaching 1 probe..." ]
	[[ " ${lines[*]} " == *" itersleeper:$SLEEPER:$SLEEPER "* ]]
	# Its own task is visited as well: the collector reads the iterator.
	[[ "$output" == *"sidetrace:"* ]]
	# bpftrace's short name.
	run -0 "$SIDETRACE" -e "it:task /ctx->task->pid == $SLEEPER/ { printf(\"%s\\n\", ctx->task->comm); }"
	[ "${lines[1]}" = itersleeper ]
}

@test "iter:task_file visits a process's open files: ctx->fd and ctx->file" {
	[ "$ITER_OK" -eq 0 ] || refused || return 1
	[ "$ITER_OK" -eq 0 ] || return 0
	run -0 "$SIDETRACE" -e "iter:task_file /ctx->task->tgid == $SLEEPER/ { printf(\"%d %s\\n\", ctx->fd, str(ctx->file->f_path.dentry->d_name.name)); }"
	[ "${lines[0]}" = "Attaching 1 probe..." ]
	[[ " ${lines[*]} " == *" 0 hostname "* ]]
	[[ " ${lines[*]} " == *" 3 passwd "* ]]
	[ "$(printf '%s\n' "${lines[@]}" | grep -c '^[0-9]')" -eq "$(ls "/proc/$SLEEPER/fd" | wc -l)" ]
}

@test "path() names an iterator's file as the kernel does, bpftrace's iter:task_file example" {
	[ "$ITER_OK" -eq 0 ] || return 0
	run -0 "$SIDETRACE" -e "iter:task_file /ctx->task->tgid == $SLEEPER/ { printf(\"%s:%d %d:%s\\n\", ctx->task->comm, ctx->task->pid, ctx->fd, path(ctx->file->f_path)); }"
	[[ " ${lines[*]} " == *" itersleeper:$SLEEPER 0:/etc/hostname "* ]]
	[[ " ${lines[*]} " == *" itersleeper:$SLEEPER 3:/etc/passwd "* ]]
	# A map's key, and what /proc says of the same files.
	run -0 "$SIDETRACE" -e "iter:task_file /ctx->task->tgid == $SLEEPER/ { @[ctx->fd] = path(ctx->file->f_path); }"
	local fd
	for fd in 0 1 2 3; do
		[[ " ${lines[*]} " == *" @[$fd]: $(readlink "/proc/$SLEEPER/fd/$fd") "* ]]
	done
	run -1 "$SIDETRACE" -e 'tracepoint:syscalls:sys_enter_close { printf("%s\n", path(args->fd)); }'
	[[ "$output" == *"path() names a file's path where the kernel lets a program name one (bpf_d_path()): in iter:task_file, and in fentry: and fexit: of some functions"* ]]
	run -1 "$SIDETRACE" -e 'iter:task { printf("%s\n", path(ctx->file->f_path)); }'
	[[ "$output" == *"struct bpf_iter__task has no member file"* ]]
	run -1 "$SIDETRACE" -e 'iter:task_file { printf("%s\n", path(ctx->task)); }'
	[[ "$output" == *"path() names a struct path * or a struct file *'s f_path: path(args->filp->f_path) in fentry:filp_close, path(ctx->file->f_path) in iter:task_file; ctx->task is struct task_struct *"* ]]
}

@test "iter: every object's record is printed, however many: the reads are paced to the ring" {
	[ "$ITER_OK" -eq 0 ] || return 0
	run -0 "$SIDETRACE" -e 'iter:task_file { printf("f %d %s\n", ctx->fd, ctx->task->comm); @n = count(); }'
	local printed counted
	printed=$(printf '%s\n' "${lines[@]}" | grep -c '^f ')
	counted=$(printf '%s\n' "${lines[@]}" | sed -n 's/^@n: //p')
	[ "$printed" -gt 64 ]
	[ "$printed" -eq "$counted" ]
}

@test "iter: the session ends once the iterator is read: END runs, the maps print" {
	[ "$ITER_OK" -eq 0 ] || return 0
	run -0 "$SIDETRACE" -e "BEGIN { printf(\"begin\\n\"); } iter:task /ctx->task->pid == $SLEEPER/ { @[ctx->task->comm] = count(); } END { printf(\"end\\n\"); }"
	[ "${lines[0]}" = "Attaching 3 probes..." ]
	[ "${lines[1]}" = begin ]
	[ "${lines[2]}" = end ]
	[ "${lines[3]}" = "@[itersleeper]: 1" ]
}

@test "-l 'iter:*' lists the kernel's iterators, -lv their context as bpftrace does" {
	run -0 "$SIDETRACE" -l 'iter:*'
	[[ " ${lines[*]} " == *" iter:task iter:task_file "* ]]
	run -0 "$SIDETRACE" -lv 'iter:task_file'
	[ "${lines[0]}" = "iter:task_file" ]
	# bpftrace 0.17's form; the types are BTF's (bpftrace writes int fd).
	[ "${lines[1]}" = "    struct task_struct * task" ]
	[ "${lines[2]}" = "    u32 fd" ]
	[ "${lines[3]}" = "    struct file * file" ]
	run -0 "$SIDETRACE" -l 'iter:task*'
	[ "${#lines[@]}" -ge 2 ]
}

@test "iter: what sidetrace refuses, and why" {
	run -1 "$SIDETRACE" -e 'iter:task:list { @ = count(); }'
	[[ "$output" == *"sidetrace pins no iterator (iter:task:PIN)"* ]]
	run -1 "$SIDETRACE" -e 'iter:task* { @ = count(); }'
	[[ "$output" == *"iter:task* matches "*" iterators: a program reads one (iter:task, ...)"* ]]
	run -1 "$SIDETRACE" -e 'iter:task { @ = count(); } tracepoint:syscalls:sys_enter_getpid { @ = count(); }'
	[[ "$output" == *"an iter: probe runs alone, as in bpftrace"* ]]
	run -1 "$SIDETRACE" -e 'iter:nosuch { @ = count(); }'
	[[ "$output" == *"no iterator nosuch on this kernel (its BTF declares none so)"* ]]
	run -1 "$SIDETRACE" -e 'iter:task { printf("%d\n", args.pid); }'
	[[ "$output" == *"iter: probes have no args; ctx points to their context, struct bpf_iter__task"* ]]
	run -1 "$SIDETRACE" -e 'iter:task { printf("%d\n", ctx->tsk); }'
	[[ "$output" == *"struct bpf_iter__task has no member"* ]]
	# An iterator over one map's elements needs the map, which a probe cannot name.
	if "$SIDETRACE" -l 'iter:bpf_map_elem' > /dev/null 2>&1 && [ "$ITER_OK" -eq 0 ]; then
		run -1 "$SIDETRACE" -e 'iter:bpf_map_elem { @ = count(); }'
		[[ "$output" == *"cannot attach iter:bpf_map_elem: "*"(this iterator walks one map, socket map or cgroup, which an iter: probe cannot name)"* ]]
	fi
	# The exporter keeps probes on events; an iterator runs once.
	run -1 "$SIDETRACE" serve --listen 127.0.0.1:0 -e 'iter:task { @n = count(); }'
	[[ "$output" == *"has an iter: probe, which runs once, when sidetrace reads the iterator"* ]]
}
