/* SPDX-License-Identifier: MIT */
/*
 * The kernel's memory read for the collector's own clauses (BEGIN, END,
 * interval): sidetrace_kread run once (bpf/user.bpf.h), in the calling
 * task, which is also what curtask is there; and their debugf(), which
 * only a BPF program prints.
 */
#ifndef SIDETRACE_BPFLOAD_KREAD_H
#define SIDETRACE_BPFLOAD_KREAD_H

#include <stdint.h>

struct st_loader;

/*
 * len bytes (1 to ST_KREAD_MAX; 0: none) at kernel address addr into buf,
 * and the calling task's task_struct into *task (NULL: not wanted). 0;
 * -EFAULT when the kernel could not read them (buf zeroed); -ENOTSUP
 * when the program is not loaded; a negative errno of the run.
 */
int st_kernel_read(const struct st_loader *l, uint64_t addr, void *buf, uint32_t len,
		   uint64_t *task);

/*
 * debugf() of the collector's own clauses: req printed by sidetrace_debugf
 * (bpf/user.bpf.h) with bpf_trace_printk(). 0; -ENOTSUP when the program
 * is not loaded; a negative errno of the run.
 */
struct st_debugf_req;
int st_kernel_debugf(const struct st_loader *l, const struct st_debugf_req *req);

#endif /* SIDETRACE_BPFLOAD_KREAD_H */
