/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * sidetrace_fork and sidetrace_exit keep st_followed (maps.bpf.h) for a -c
 * session: a task that a followed process makes (a child process or a
 * thread) is followed from its birth, before it can run, and leaves the
 * set when it exits, before its id can be given to another task.
 *
 * The tracepoints' records differ between kernels (6.18 stores the fork's
 * comms as __data_loc strings, 6.1 inline; group_dead came in 6.16): the
 * collector reads the fields' offsets from the tracepoints' formats.
 */
#ifndef SIDETRACE_FOLLOW_BPF_H
#define SIDETRACE_FOLLOW_BPF_H

/* Uses maps.bpf.h. */
#if !defined(SIDETRACE_MAPS_BPF_H)
#error "sidetrace.bpf.c includes the fragments in the order of their use"
#endif

const volatile __u32 st_fork_child_pid_off;
/* sched_process_exit's group_dead, where the kernel has it; else ST_NO_FIELD. */
const volatile __u32 st_exit_group_dead_off;

/* Tasks not followed because st_followed was full. */
__u64 st_follow_lost;

SEC("tracepoint/sched/sched_process_fork")
int sidetrace_fork(void *ctx)
{
	__u32 child;
	__u8 one = 1;

	if (!followed(bpf_get_current_pid_tgid() >> 32))
		return 0;
	if (bpf_probe_read_kernel(&child, sizeof(child), ctx + st_fork_child_pid_off))
		return 0;
	if ((int)bpf_map_update_elem(&st_followed, &child, &one, BPF_ANY))
		__sync_fetch_and_add(&st_follow_lost, 1);
	return 0;
}

/*
 * A thread's own entry goes with it, the process's with its last task.
 * Kernels whose record does not say which task is the last drop the
 * process with its leader: a leader that leaves its threads running ends
 * the following there.
 */
SEC("tracepoint/sched/sched_process_exit")
int sidetrace_exit(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = id, tgid = id >> 32;
	__u8 group_dead = tid == tgid;

	if (tid != tgid)
		bpf_map_delete_elem(&st_followed, &tid);
	if (st_exit_group_dead_off != ST_NO_FIELD &&
	    bpf_probe_read_kernel(&group_dead, sizeof(group_dead), ctx + st_exit_group_dead_off))
		return 0;
	if (group_dead)
		bpf_map_delete_elem(&st_followed, &tgid);
	return 0;
}

#endif /* SIDETRACE_FOLLOW_BPF_H */
