/* SPDX-License-Identifier: MIT */
/*
 * The functions a uprobe's pattern names, by an object's symbol tables
 * (its own, its debug file's, else its exported ones): by name glob, C++
 * signature, a gcc clone's source name, or by an address inside one.
 * functions.c makes their events.
 */
#ifndef SIDETRACE_DWARF_FUNC_SYMBOLS_H
#define SIDETRACE_DWARF_FUNC_SYMBOLS_H

#include <stdbool.h>
#include <stdint.h>

#include "dwarf/dwarf.h"
#include "events/events.h"
#include "objfile/elf.h"

/*
 * A symbol that matched: its name and address, once per address (of
 * aliases, the name of the highest st_sym_rank(): fopen, not fopen64).
 */
struct func {
	char *name;
	uint64_t addr;
	uint64_t size;
	uint16_t rank;
};

struct funcs {
	struct func *v;
	size_t nr, cap;
};

/*
 * Whether a symbol matches glob: its own name, a C function's clone by its
 * source name ("scale.constprop.0" as scale), or for C++ its demangled
 * signature or name. *shown is the name to name it by (malloc'ed), if not
 * the symbol's.
 */
bool st_func_symbol_matches(const char *name, const char *glob, char **shown);

/*
 * The functions glob matches (glob NULL: the one that holds *at), into fs;
 * *symtab: whether the object, or its separate debug file (debug, or
 * NULL), has a symbol table. 0, -E2BIG past ST_MAX_FUNCTIONS, or -ENOMEM.
 */
int st_func_symbols_find(struct st_elf *e, Elf *debug, const char *glob, const uint64_t *at,
			 struct funcs *fs, bool *symtab);

/* Why a stripped object names no function that matched, into out->why_none. 0 or -ENOMEM. */
int st_func_symbols_stripped(struct st_elf *e, struct st_event_list *out);

/* Whether glob is a number, an address in the object (uprobe:BIN:0x4a2b30): into *at. */
bool st_func_address(const char *glob, uint64_t *at);

/*
 * The function that holds address at, into fs, and at's offset into it
 * (kind's no_offset refuses one); none: why in out->why_none. 0, or a
 * negative errno with why in err.
 */
int st_func_symbols_at(struct st_elf *e, Elf *debug, uint64_t at, enum st_ap_kind kind,
		       struct funcs *fs, uint64_t *offset, struct st_event_list *out, char *err,
		       size_t errlen);

#endif /* SIDETRACE_DWARF_FUNC_SYMBOLS_H */
