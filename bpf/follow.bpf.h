/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * sidetrace_fork, sidetrace_exit and sidetrace_free keep st_followed
 * (maps.bpf.h) for a -c session: a task that a followed process makes (a
 * child process or a thread) is followed from its birth, before it can
 * run; it is marked exited when it exits, so that every program of its
 * exit's tracepoint still sees it whatever their order, and leaves the
 * set when its task is freed (a task's id goes back to the kernel a grace
 * period before that: one taken again at once by an unfollowed task is
 * followed for that long, a followed one's entry is kept).
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
const volatile __u32 st_free_pid_off;

/* Tasks not followed because st_followed was full. */
__u64 st_follow_lost;

SEC("tracepoint/sched/sched_process_fork")
int sidetrace_fork(void *ctx)
{
	__u8 live = ST_FOLLOWED;
	__u32 child;

	if (!followed(bpf_get_current_pid_tgid() >> 32))
		return 0;
	if (bpf_probe_read_kernel(&child, sizeof(child), ctx + st_fork_child_pid_off))
		return 0;
	if ((int)bpf_map_update_elem(&st_followed, &child, &live, BPF_ANY))
		__sync_fetch_and_add(&st_follow_lost, 1);
	return 0;
}

static __always_inline void mark_exited(__u32 tid)
{
	__u8 *v = bpf_map_lookup_elem(&st_followed, &tid);

	if (v)
		*v = ST_FOLLOWED_EXITED;
}

/*
 * A thread's own entry is marked with it, the process's with its last
 * task. Kernels whose record does not say which task is the last mark the
 * process with its leader, whose task is freed after its last thread's.
 */
SEC("tracepoint/sched/sched_process_exit")
int sidetrace_exit(void *ctx)
{
	__u64 id = bpf_get_current_pid_tgid();
	__u32 tid = id, tgid = id >> 32;
	__u8 group_dead = tid == tgid;

	if (tid != tgid)
		mark_exited(tid);
	if (st_exit_group_dead_off != ST_NO_FIELD &&
	    bpf_probe_read_kernel(&group_dead, sizeof(group_dead), ctx + st_exit_group_dead_off))
		return 0;
	if (group_dead)
		mark_exited(tgid);
	return 0;
}

/* A task freed: its entry goes, unless a followed task took its id since. */
SEC("tracepoint/sched/sched_process_free")
int sidetrace_free(void *ctx)
{
	__u32 tid;
	__u8 *v;

	if (bpf_probe_read_kernel(&tid, sizeof(tid), ctx + st_free_pid_off))
		return 0;
	v = bpf_map_lookup_elem(&st_followed, &tid);
	if (v && *v == ST_FOLLOWED_EXITED)
		bpf_map_delete_elem(&st_followed, &tid);
	return 0;
}

#endif /* SIDETRACE_FOLLOW_BPF_H */
