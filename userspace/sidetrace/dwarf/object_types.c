// SPDX-License-Identifier: MIT
/* A probed object's DWARF opened for its C types (dwarf.h st_dwarf_ctypes_ops). */
#include <stdlib.h>

#include "dwarf/dwarf.h"
#include "dwarf/dwarf_int.h"

/* The object's ELF stays open while libdw reads through it. */
struct object_dwarf {
	struct st_elf elf;
	struct st_dwarf *dwarf;
};

static void close_object(void *owner)
{
	struct object_dwarf *o = owner;

	st_dwarf_close(o->dwarf);
	st_elf_close(&o->elf);
	free(o);
}

static struct Dwarf *open_object(const char *path, void **owner)
{
	struct object_dwarf *o = calloc(1, sizeof(*o));
	char err[256];

	if (!o)
		return NULL;
	if (st_elf_open(path, &o->elf, err, sizeof(err))) {
		free(o);
		return NULL;
	}
	o->dwarf = st_dwarf_open(&o->elf, path);
	if (!o->dwarf) {
		st_elf_close(&o->elf);
		free(o);
		return NULL;
	}
	*owner = o;
	return st_dwarf_dw(o->dwarf);
}

const struct st_ctypes_dwarf_ops st_dwarf_ctypes_ops = {open_object, close_object};
