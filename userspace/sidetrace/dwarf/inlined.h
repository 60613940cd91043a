/* SPDX-License-Identifier: MIT */
/*
 * The copies of functions that the compiler inlined into their callers,
 * from DWARF (DW_TAG_inlined_subroutine, as perf probe finds them): where
 * each copy starts, the out-of-line function that holds it, and the
 * function's parameters where the copy's own locations put them at its
 * start. A copy is not called: no register holds its arguments by the
 * ABI, and it has no return.
 */
#ifndef SIDETRACE_DWARF_INLINED_H
#define SIDETRACE_DWARF_INLINED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dwarf/dwarf.h"

struct st_inlined {
	char *name; /* the function's, as the match showed it (a C++ signature) */
	char *caller; /* the out-of-line function holding the copy */
	struct st_dwarf_func df; /* df.probe_addr: where the copy starts */
};

struct st_inlined_list {
	struct st_inlined *v;
	size_t nr, cap;
};

/*
 * Whether a function's name (its linkage name when it has one) matches
 * glob; *shown: the name to show it by (malloc'ed), or NULL for name.
 */
typedef bool (*st_inlined_match)(const char *name, const char *glob, char **shown);

/*
 * Appends to out the inlined copies of the functions that match glob, at
 * most max in all. 0, -E2BIG past max, -ENOMEM.
 */
int st_inlined_find(struct st_dwarf *d, st_inlined_match match, const char *glob, size_t max,
		    struct st_inlined_list *out);
void st_inlined_free(struct st_inlined_list *l);

#endif /* SIDETRACE_DWARF_INLINED_H */
