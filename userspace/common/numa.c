// SPDX-License-Identifier: MIT
/* The calling thread's NUMA node (numa.h). */
#define _GNU_SOURCE
#include <sched.h>

#include "common/numa.h"

uint32_t st_numa_node(void)
{
	unsigned int cpu, node;

	return getcpu(&cpu, &node) ? 0 : node;
}
