// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: C types from a probed object's DWARF (ctypes/
 * dwarf_ctypes.c through dwarf/object_types.c), on any bytes. The
 * structs, unions, enums and typedefs its units name are looked up as a
 * cast names them, and their members, pointees and elements walked, as
 * the checker reads them. The kernel's BTF is left out: the DWARF alone
 * answers. The input is written to a memfd opened by its /proc path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>

#include "ctypes/ctypes_int.h"
#include "dwarf/dwarf.h"
#include "objfile/elf.h"

#define MAX_NAMES 16
#define MAX_DEPTH 6

static int memfd = -1;
static char path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memfd = memfd_create("fuzz_dwarf_types", MFD_CLOEXEC);
	if (memfd < 0) {
		perror("fuzz_dwarf_types");
		exit(1);
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", memfd);
	return 0;
}

/* "struct NAME", "union NAME", "enum NAME" or a typedef's NAME of the units' top DIEs. */
static size_t type_names(char names[MAX_NAMES][128])
{
	static const struct {
		int tag;
		const char *prefix;
	} tags[] = {{DW_TAG_structure_type, "struct "},
		    {DW_TAG_union_type, "union "},
		    {DW_TAG_enumeration_type, "enum "},
		    {DW_TAG_typedef, ""}};
	Dwarf_Off off = 0, next;
	Dwarf_Die cu, die;
	const char *name;
	struct st_elf e;
	char err[256];
	size_t n = 0, hdr, i;
	Dwarf *dw;

	if (st_elf_open(path, &e, err, sizeof(err)))
		return 0;
	dw = dwarf_begin_elf(e.elf, DWARF_C_READ, NULL);
	while (dw && n < MAX_NAMES && !dwarf_nextcu(dw, off, &next, &hdr, NULL, NULL, NULL)) {
		if (dwarf_offdie(dw, off + hdr, &cu) && !dwarf_child(&cu, &die)) {
			do {
				name = dwarf_diename(&die);
				for (i = 0; name && i < sizeof(tags) / sizeof(tags[0]); i++)
					if (dwarf_tag(&die) == tags[i].tag && n < MAX_NAMES)
						snprintf(names[n++], 128, "%s%s", tags[i].prefix,
							 name);
			} while (n < MAX_NAMES && dwarf_siblingof(&die, &die) == 0);
		}
		off = next;
	}
	if (dw)
		dwarf_end(dw);
	st_elf_close(&e);
	return n;
}

/* Reads t as the checker does: its members, what it points to, its elements. */
static void walk(struct st_ctypes *r, struct st_ctype *t, int depth)
{
	char names[256];
	uint32_t i;

	if (!t || depth > MAX_DEPTH)
		return;
	if (t->kind == ST_CT_STRUCT || t->kind == ST_CT_UNION) {
		st_ctype_member_names(r, t, names, sizeof(names));
		for (i = 0; i < t->nr_members; i++)
			walk(r, t->members[i].type, depth + 1);
		return;
	}
	if (t->kind == ST_CT_PTR || t->kind == ST_CT_ARRAY) {
		st_ctype_align(r, t);
		walk(r, st_ctype_ref(r, t), depth + 1);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char names[MAX_NAMES][128], err[512];
	struct st_ctypes *r;
	struct st_ctype *t;
	size_t n, i;

	if (ftruncate(memfd, 0) || pwrite(memfd, data, size, 0) != (ssize_t)size)
		return 0;
	n = type_names(names);
	r = st_ctypes_new();
	if (!r)
		return 0;
	/* No kernel's BTF: every name is the object's. */
	r->btf_tried = true;
	r->btf_err = -ENOENT;
	if (!st_ctypes_add_object(r, path, &st_dwarf_ctypes_ops))
		for (i = 0; i < n; i++)
			if (!st_ctypes_named(r, names[i], &t, err, sizeof(err)))
				walk(r, t, 0);
	st_ctypes_free(r);
	return 0;
}
