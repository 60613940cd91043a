/* SPDX-License-Identifier: MIT */
/*
 * The macros of the system and kernel headers bpftrace's programs include
 * for their constants: #defines, which BTF does not carry.
 */
#ifndef SIDETRACE_PREPROC_HEADER_MACROS_H
#define SIDETRACE_PREPROC_HEADER_MACROS_H

#include <stddef.h>

struct st_header_macro {
	const char *name;
	const char *value;
};

/* One group of macros, which several headers may define. */
struct st_header_macro_group {
	const struct st_header_macro *macros;
	size_t nr;
};

#define ST_HEADER_GROUPS 6

struct st_header {
	const char *name; /* as between <>: "sys/socket.h" */
	const struct st_header_macro_group *groups[ST_HEADER_GROUPS]; /* NULL-terminated */
};

/* The header named so, or NULL when the table does not know it. */
const struct st_header *st_header_find(const char *name);

#endif /* SIDETRACE_PREPROC_HEADER_MACROS_H */
