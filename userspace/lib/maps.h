/* SPDX-License-Identifier: MIT */
/*
 * The process's own mappings, /proc/self/maps line by line, with only
 * async-signal-safe calls: read in a fork() handler (sites.c) and under the
 * in-process engine's reads (inproc/readable.c).
 */
#ifndef SIDE_LIB_MAPS_H
#define SIDE_LIB_MAPS_H

#include <stdint.h>

struct side_mapping {
	uintptr_t lo, hi;
	char perms[4]; /* "r-xp" */
	uint64_t offset;
	unsigned int dev_major, dev_minor;
	uint64_t inode;
	/* "" for anonymous memory, cut short past the walk's line; valid in the call only. */
	const char *path;
};

/*
 * Calls fn for every mapping, in address order, until it returns nonzero:
 * that value, 0 after the last, or a negative errno.
 */
int side_maps_walk(int (*fn)(const struct side_mapping *m, void *arg), void *arg)
	__attribute__((visibility("hidden")));

#endif /* SIDE_LIB_MAPS_H */
