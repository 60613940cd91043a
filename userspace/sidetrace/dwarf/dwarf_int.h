/* SPDX-License-Identifier: MIT */
/* What dwarf.c, dwarf_types.c and inlined.c share; not for other files. */
#ifndef SIDETRACE_DWARF_DWARF_INT_H
#define SIDETRACE_DWARF_DWARF_INT_H

#include <elfutils/libdw.h>
#include <stdbool.h>

#include "dwarf/dwarf.h"
#include "events/events.h"

/* Pointers followed into a parameter's type (args.a->b->c). */
#define ST_DWARF_MAX_DEPTH 3

/* The type that typed's DW_AT_type names, past typedefs and qualifiers; false for void. */
bool st_dwarf_peel(Dwarf_Die *typed, Dwarf_Die *out);

/* typed's type as a SIDE type: NULL, or why its value cannot be read ("void" for none). */
const char *st_dwarf_type(Dwarf_Die *typed, struct st_type *t);

/* The C spelling of typed's type ("const char*", "struct sock*"), malloc'ed; NULL: out of memory.
 */
char *st_dwarf_c_name(Dwarf_Die *typed);

/* The libdw handle of d. */
Dwarf *st_dwarf_dw(struct st_dwarf *d);

/* The abstract root that die is a concrete copy of (DW_AT_abstract_origin); false if none. */
bool st_dwarf_origin(Dwarf_Die *die, Dwarf_Die *out);

/*
 * The parameters of function fn in its inlined copy (a
 * DW_TAG_inlined_subroutine) where they are at pc; frame is the
 * out-of-line function that holds the copy and its frame base. 0 or -ENOMEM.
 */
int st_dwarf_copy_params(struct st_dwarf *d, Dwarf_Die *frame, Dwarf_Die *fn, Dwarf_Die *copy,
			 uint64_t pc, struct st_dwarf_func *out);

#endif /* SIDETRACE_DWARF_DWARF_INT_H */
