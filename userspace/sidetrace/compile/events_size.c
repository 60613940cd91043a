// SPDX-License-Identifier: MIT
/* The ring buffer's size (compile.h). */
#include <sys/sysinfo.h>

#include "compile/compile.h"

uint32_t st_events_cpu_pages_size(unsigned long long pages, uint32_t least)
{
	int cpus = get_nprocs_conf();
	unsigned long long bytes = pages * 4096 * (cpus > 0 ? cpus : 1);
	uint32_t size = least;

	while (size < bytes && size < ST_EVENTS_MAX_SIZE)
		size <<= 1;
	return size;
}

uint32_t st_compiled_events_size(const struct st_compiled *c)
{
	if (!st_compiled_streams(c))
		return ST_EVENTS_MIN_SIZE;
	if (c->events_size)
		return c->events_size;
	if (c->streams)
		return ST_EVENTS_WHOLE_SIZE;
	return st_events_cpu_pages_size(ST_EVENTS_CPU_PAGES, ST_EVENTS_PRINT_MIN);
}
