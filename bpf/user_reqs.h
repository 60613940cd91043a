/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/*
 * The requests of sidetrace's own clauses (BEGIN, END, interval), which
 * run in the collector, to the programs it runs itself with
 * BPF_PROG_TEST_RUN (user.bpf.h): each written into its map, then the
 * program run once. Part of sidetrace.h, which includes it.
 */
#ifndef SIDETRACE_USER_REQS_H
#define SIDETRACE_USER_REQS_H

/*
 * An aggregation of a BEGIN, END or interval clause, which run in the
 * collector: it writes the map, value and full key (header and bucket
 * written by the program) into st_user_req and runs sidetrace_user
 * (user.bpf.h) once, which aggregates as a probe does.
 */
struct st_user_req {
	__u32 map_id;
	__u32 reserved;
	__s64 v;
	__u8 key[ST_KEY_MAX];
};

/*
 * A kernel read of a BEGIN, END or interval clause (curtask->comm), which
 * the collector cannot read itself: it writes addr and len into st_kread
 * and runs sidetrace_kread (user.bpf.h), which reads them in the
 * collector's own task, as bpftrace's BEGIN reads in bpftrace's, and
 * gives that task too (curtask).
 */
#define ST_KREAD_MAX 64 /* a scalar, or a char array read as a string */
struct st_kread_req {
	__u64 addr;
	__u32 len; /* 1 to ST_KREAD_MAX; 0: the task only */
	__u32 ok; /* the program's: 1 when buf holds the bytes */
	__u64 task; /* the program's: bpf_get_current_task() */
	__u8 buf[ST_KREAD_MAX];
};

/*
 * debugf() of a BEGIN, END or interval clause: its format, and its values
 * (a string's bytes in strs, its bit set in str_mask), which
 * sidetrace_debugf prints with bpf_trace_printk(), as a probe's debugf()
 * does: the line is the kernel's trace buffer's, with the collector's task.
 */
#define ST_DEBUGF_ARGS 3 /* bpf_trace_printk()'s */
struct st_debugf_req {
	char fmt[ST_STR_LEN];
	__u64 args[ST_DEBUGF_ARGS];
	char strs[ST_DEBUGF_ARGS][ST_STR_LEN];
	__u32 str_mask;
	__u32 reserved;
};

#endif /* SIDETRACE_USER_REQS_H */
