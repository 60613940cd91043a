/* SPDX-License-Identifier: MIT */
/*
 * Kernel tracepoints as events (ST_AP_TRACEPOINT): provider is the
 * category, name the tracepoint, and the fields those of its record as
 * the running kernel's format file lays them out (common_* left out, as
 * bpftrace does). Their one "site" says where each field is in the
 * record (ST_LOC_TP*): the BPF side reads them as SDT arguments.
 */
#ifndef SIDETRACE_KERNEL_TRACEPOINTS_H
#define SIDETRACE_KERNEL_TRACEPOINTS_H

#include <stddef.h>

#include "events/events.h"

/*
 * Appends the tracepoints whose category and name match the globs to out.
 * 0 (none matching is no error), or a negative errno with the reason in
 * err (tracefs missing, unreadable).
 */
int st_discover_tracepoints(const char *category_glob, const char *name_glob,
			    struct st_event_list *out, char *err, size_t errlen);

#endif /* SIDETRACE_KERNEL_TRACEPOINTS_H */
