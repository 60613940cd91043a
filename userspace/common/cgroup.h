/* SPDX-License-Identifier: MIT */
/* The calling process's cgroup, as BPF's bpf_get_current_cgroup_id() gives it. */
#ifndef SIDETRACE_COMMON_CGROUP_H
#define SIDETRACE_COMMON_CGROUP_H

#include <stdint.h>

/* Its cgroup v2 directory's inode; 0 when there is none (no cgroup v2 mounted). */
uint64_t st_self_cgroup_id(void);

#endif /* SIDETRACE_COMMON_CGROUP_H */
