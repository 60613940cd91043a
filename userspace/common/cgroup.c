// SPDX-License-Identifier: MIT
/*
 * The cgroup builtin outside BPF: the collector's BEGIN, END and interval
 * clauses, and the in-process engine, which the runtime library holds.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/cgroup.h"

uint64_t st_self_cgroup_id(void)
{
	char line[4096], path[4200];
	struct stat st;
	uint64_t id = 0;
	FILE *f = fopen("/proc/self/cgroup", "re");

	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(path, sizeof(path), "/sys/fs/cgroup%s", line + 3);
		if (!stat(path, &st))
			id = st.st_ino;
	}
	if (f)
		fclose(f);
	return id;
}
