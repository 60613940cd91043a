/* SPDX-License-Identifier: MIT */
/*
 * A process's mappings, /proc/PID/maps line by line, with only
 * async-signal-safe calls: the runtime reads its own in a fork() handler
 * (lib/sites.c) and under the in-process engine's reads
 * (lib/inproc/readable.c); the collector reads a traced process's to find
 * its objects (side/proc.c) and name its stacks (bpfload/stacks.c).
 */
#ifndef SIDETRACE_COMMON_PROC_MAPS_H
#define SIDETRACE_COMMON_PROC_MAPS_H

#include <stdint.h>

struct st_mapping {
	uintptr_t lo, hi;
	char perms[4]; /* "r-xp" */
	uint64_t offset;
	unsigned int dev_major, dev_minor;
	uint64_t inode;
	/* "" for anonymous memory, cut short past the walk's line; valid in the call only. */
	const char *path;
};

/*
 * Calls fn for every mapping of pid (0: this process), in address order,
 * until it returns nonzero: that value, 0 after the last, or a negative
 * errno (-ENOENT: no such process).
 */
int st_maps_walk(int pid, int (*fn)(const struct st_mapping *m, void *arg), void *arg);

#endif /* SIDETRACE_COMMON_PROC_MAPS_H */
