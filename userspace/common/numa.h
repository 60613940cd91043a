/* SPDX-License-Identifier: MIT */
/* The calling thread's NUMA node, as BPF's bpf_get_numa_node_id() gives it. */
#ifndef SIDETRACE_COMMON_NUMA_H
#define SIDETRACE_COMMON_NUMA_H

#include <stdint.h>

/* The node of the CPU the thread runs on; 0 when the kernel does not say. */
uint32_t st_numa_node(void);

#endif /* SIDETRACE_COMMON_NUMA_H */
