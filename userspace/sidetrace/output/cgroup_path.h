/* SPDX-License-Identifier: MIT */
/*
 * cgroup_path(): a cgroup's id as bpftrace prints it, its path in each
 * mounted hierarchy that has a cgroup of that id, "name:/path" joined by
 * commas: the v2 hierarchy first as "unified", then the v1 ones by their
 * controllers ("cpu", "name=systemd" as "systemd"), in name order.
 */
#ifndef SIDETRACE_OUTPUT_CGROUP_PATH_H
#define SIDETRACE_OUTPUT_CGROUP_PATH_H

#include <stddef.h>
#include <stdint.h>

/*
 * id's paths into buf ("" where no hierarchy has it), cut to size; in the
 * hierarchies whose names the glob filter matches (NULL: every one), as
 * bpftrace's cgroup_path(id, filter).
 */
void st_cgroup_path(uint64_t id, const char *filter, char *buf, size_t size);

#endif /* SIDETRACE_OUTPUT_CGROUP_PATH_H */
