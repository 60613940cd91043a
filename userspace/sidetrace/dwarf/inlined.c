// SPDX-License-Identifier: MIT
/*
 * Inlined copies of functions (inlined.h). First the abstract functions
 * whose names match (DW_AT_inline, at the top of a unit or in its
 * namespaces); then, only if some do, the code of the units that hold
 * one or import another unit (dwz's partial units, gcc's LTO), for the
 * copies whose origin is one of them.
 */
#define _GNU_SOURCE
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dwarf/dwarf_int.h"
#include "dwarf/inlined.h"
#include "util/grow.h"

/* A matching abstract function: where it is, its unit, the name to show. */
struct root {
	Dwarf_Off off;
	Dwarf_Off unit;
	char *name;
};

struct walk {
	struct st_dwarf *d;
	struct root *roots;
	size_t nr_roots, cap_roots;
	size_t max;
	struct st_inlined_list *out;
};

/* Takes name, freed on failure. */
static int add_root(struct walk *w, Dwarf_Die *fn, Dwarf_Die *unit, char *name)
{
	if (!name || st_grow(&w->roots, &w->cap_roots, w->nr_roots, sizeof(*w->roots), 8)) {
		free(name);
		return -ENOMEM;
	}
	w->roots[w->nr_roots++] = (struct root){dwarf_dieoffset(fn), dwarf_dieoffset(unit), name};
	return 0;
}

/* A function's name to match: its linkage name (C++), else its own. */
static const char *match_name(Dwarf_Die *fn)
{
	Dwarf_Attribute attr;
	const char *name = NULL;

	if (dwarf_attr_integrate(fn, DW_AT_linkage_name, &attr) ||
	    dwarf_attr_integrate(fn, DW_AT_MIPS_linkage_name, &attr))
		name = dwarf_formstring(&attr);
	return name ? name : dwarf_diename(fn);
}

/* The inlined functions among parent's children (and its namespaces') that match glob. */
static int find_roots(struct walk *w, Dwarf_Die *parent, Dwarf_Die *unit, st_inlined_match match,
		      const char *glob)
{
	const char *name;
	Dwarf_Die child;
	char *shown;
	int err = 0;

	if (dwarf_child(parent, &child))
		return 0;
	do {
		if (dwarf_tag(&child) == DW_TAG_namespace)
			err = find_roots(w, &child, unit, match, glob);
		else if (dwarf_tag(&child) == DW_TAG_subprogram && dwarf_func_inline(&child) == 1 &&
			 (name = match_name(&child)) && match(name, glob, &shown))
			err = add_root(w, &child, unit, shown ? shown : strdup(name));
	} while (!err && dwarf_siblingof(&child, &child) == 0);
	return err;
}

static const char *root_name(const struct walk *w, Dwarf_Die *fn)
{
	Dwarf_Off off = dwarf_dieoffset(fn);
	size_t i;

	for (i = 0; i < w->nr_roots; i++)
		if (w->roots[i].off == off)
			return w->roots[i].name;
	return NULL;
}

/* Whether a unit may hold copies: it holds a root, or imports a unit that may. */
static bool unit_wanted(const struct walk *w, Dwarf_Die *unit)
{
	Dwarf_Off off = dwarf_dieoffset(unit);
	Dwarf_Die child;
	size_t i;

	for (i = 0; i < w->nr_roots; i++)
		if (w->roots[i].unit == off)
			return true;
	if (dwarf_child(unit, &child))
		return false;
	do
		if (dwarf_tag(&child) == DW_TAG_imported_unit)
			return true;
	while (dwarf_siblingof(&child, &child) == 0);
	return false;
}

/* The copy of fn in frame, at its entry (else its first range); none without code. */
static int add_copy(struct walk *w, Dwarf_Die *frame, Dwarf_Die *fn, Dwarf_Die *copy,
		    const char *name)
{
	struct st_inlined_list *l = w->out;
	Dwarf_Addr pc = 0, base, end;
	struct st_inlined *in;
	size_t i;
	int err;

	/* Address 0: code the linker dropped. */
	if ((dwarf_entrypc(copy, &pc) && dwarf_ranges(copy, 0, &base, &pc, &end) <= 0) || !pc)
		return 0;
	for (i = 0; i < l->nr; i++)
		if (l->v[i].df.probe_addr == pc && !strcmp(l->v[i].name, name))
			return 0;
	if (l->nr == w->max)
		return -E2BIG;
	if (st_grow(&l->v, &l->cap, l->nr, sizeof(*l->v), 16))
		return -ENOMEM;
	in = &l->v[l->nr];
	memset(in, 0, sizeof(*in));
	err = st_dwarf_copy_params(w->d, frame, fn, copy, pc, &in->df);
	if (err)
		return err;
	l->nr++;
	in->name = strdup(name);
	in->caller = strdup(dwarf_diename(frame) ? dwarf_diename(frame) : "?");
	return in->name && in->caller ? 0 : -ENOMEM;
}

/* The copies in parent's code; frame: the out-of-line function it is in, or NULL. */
static int walk_code(struct walk *w, Dwarf_Die *parent, Dwarf_Die *frame)
{
	Dwarf_Die child, origin;
	const char *name;
	int err = 0;

	if (dwarf_child(parent, &child))
		return 0;
	do {
		switch (dwarf_tag(&child)) {
		case DW_TAG_subprogram:
			/* An abstract function has no code: its copies are elsewhere. */
			if (dwarf_hasattr(&child, DW_AT_low_pc) ||
			    dwarf_hasattr(&child, DW_AT_ranges))
				err = walk_code(w, &child, &child);
			break;
		case DW_TAG_inlined_subroutine:
			if (frame && st_dwarf_origin(&child, &origin) &&
			    (name = root_name(w, &origin)))
				err = add_copy(w, frame, &origin, &child, name);
			/* Copies inlined into this copy. */
			if (!err)
				err = walk_code(w, &child, frame);
			break;
		case DW_TAG_lexical_block:
		case DW_TAG_namespace:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
			err = walk_code(w, &child, frame);
			break;
		}
	} while (!err && dwarf_siblingof(&child, &child) == 0);
	return err;
}

int st_inlined_find(struct st_dwarf *d, st_inlined_match match, const char *glob, size_t max,
		    struct st_inlined_list *out)
{
	struct walk w = {.d = d, .max = max, .out = out};
	Dwarf *dw = st_dwarf_dw(d);
	Dwarf_CU *cu = NULL;
	Dwarf_Die unit;
	uint8_t type;
	size_t i;
	int err = 0;

	while (!err && !dwarf_get_units(dw, cu, &cu, NULL, &type, &unit, NULL))
		if (type == DW_UT_compile || type == DW_UT_partial)
			err = find_roots(&w, &unit, &unit, match, glob);
	cu = NULL;
	while (!err && w.nr_roots && !dwarf_get_units(dw, cu, &cu, NULL, &type, &unit, NULL))
		if (type == DW_UT_compile && unit_wanted(&w, &unit))
			err = walk_code(&w, &unit, NULL);
	for (i = 0; i < w.nr_roots; i++)
		free(w.roots[i].name);
	free(w.roots);
	return err;
}

void st_inlined_free(struct st_inlined_list *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++) {
		free(l->v[i].name);
		free(l->v[i].caller);
		st_dwarf_func_fini(&l->v[i].df);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}
