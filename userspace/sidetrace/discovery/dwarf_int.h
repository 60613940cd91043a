/* SPDX-License-Identifier: MIT */
/* What dwarf.c and dwarf_types.c share; not for other files. */
#ifndef SIDETRACE_DISCOVERY_DWARF_INT_H
#define SIDETRACE_DISCOVERY_DWARF_INT_H

#include <elfutils/libdw.h>
#include <stdbool.h>

#include "discovery/events.h"

/* Pointers followed into a parameter's type (args.a->b->c). */
#define ST_DWARF_MAX_DEPTH 3

/* The type that typed's DW_AT_type names, past typedefs and qualifiers; false for void. */
bool st_dwarf_peel(Dwarf_Die *typed, Dwarf_Die *out);

/* typed's type as a SIDE type: NULL, or why its value cannot be read ("void" for none). */
const char *st_dwarf_type(Dwarf_Die *typed, struct st_type *t);

#endif /* SIDETRACE_DISCOVERY_DWARF_INT_H */
