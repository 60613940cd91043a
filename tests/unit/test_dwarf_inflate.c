// SPDX-License-Identifier: MIT
/*
 * Compressed DWARF inflated for libdw (objfile/dwarf_inflate.c): a
 * binary built with gcc -gz gives an ELF whose DWARF libdw reads as it
 * reads the file's own (the same units, the same names); too little
 * compressed, nothing compressed and a header that claims more than zlib
 * can give are refused, each so.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdlib.h>
#include <unistd.h>

#include "objfile/dwarf_inflate.h"
#include "objfile/elf.h"
#include "unit.h"

#define FIXTURE "tests/fixtures/dwarf_app.c"

static char dir[] = "/tmp/st_inflate.XXXXXX";

/* Builds the fixture into dir/name with gcc's extra flags. */
static int build(const char *name, const char *flags, char *path, size_t len)
{
	char cmd[512];

	snprintf(path, len, "%s/%s", dir, name);
	snprintf(cmd, sizeof(cmd), "cc -O0 %s -o %s %s", flags, path, FIXTURE);
	return system(cmd);
}

/* The names of the units' top-level functions, in order, one string. */
static void unit_names(Elf *elf, char *out, size_t len)
{
	Dwarf *dw = dwarf_begin_elf(elf, DWARF_C_READ, NULL);
	Dwarf_Off off = 0, next;
	size_t hdr, used = 0;
	Dwarf_Die cu, die;

	out[0] = '\0';
	while (dw && !dwarf_nextcu(dw, off, &next, &hdr, NULL, NULL, NULL)) {
		if (dwarf_offdie(dw, off + hdr, &cu) && !dwarf_child(&cu, &die)) {
			do {
				if (dwarf_tag(&die) == DW_TAG_subprogram && dwarf_diename(&die))
					used += snprintf(out + used, used < len ? len - used : 0,
							 "%s ", dwarf_diename(&die));
			} while (!dwarf_siblingof(&die, &die));
		}
		off = next;
	}
	if (dw)
		dwarf_end(dw);
}

static void test_same_dwarf(const char *plain)
{
	static char want[4096], got[4096];
	struct st_inflated in;
	struct st_elf e, p;
	char path[256], err[256];

	if (build("gz", "-g -gz=zlib", path, sizeof(path)) ||
	    st_elf_open(path, &e, err, sizeof(err))) {
		ok(false, "inflate: builds and opens a -gz binary");
		return;
	}
	CHECK(st_dwarf_inflate(&e, ST_DWARF_INFLATE_MIN, &in) == -ENOENT && !in.elf);
	CHECK(st_dwarf_inflate(&e, 1, &in) == 0 && in.elf);
	if (!st_elf_open(plain, &p, err, sizeof(err))) {
		unit_names(p.elf, want, sizeof(want));
		unit_names(in.elf, got, sizeof(got));
		CHECK(strstr(want, "named "));
		CHECK_STR(got, want);
		/* Nothing compressed: nothing to do. */
		CHECK(st_dwarf_inflate(&p, 1, &in) == -ENOENT);
		st_elf_close(&p);
	}
	st_dwarf_inflated_free(&in);
	st_elf_close(&e);
}

/* .debug_info's header claims 2^40 bytes: refused, nothing allocated. */
static void test_corrupt(void)
{
	char path[256], bad[256], err[256];
	struct st_inflated in;
	uint64_t huge = 1ULL << 40;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	struct st_elf e;
	GElf_Shdr sh;
	int fd;

	snprintf(path, sizeof(path), "%s/gz", dir);
	snprintf(bad, sizeof(bad), "%s/bad", dir);
	if (st_elf_open(path, &e, err, sizeof(err)))
		return;
	elf_getshdrstrndx(e.elf, &shstrndx);
	while ((scn = elf_nextscn(e.elf, scn)))
		if (gelf_getshdr(scn, &sh) &&
		    !strcmp(elf_strptr(e.elf, shstrndx, sh.sh_name), ".debug_info"))
			break;
	fd = open(bad, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	CHECK(scn && fd >= 0 && write(fd, e.image, e.size) == (ssize_t)e.size &&
	      /* Elf64_Chdr: ch_type, ch_reserved, then ch_size. */
	      pwrite(fd, &huge, sizeof(huge), sh.sh_offset + 8) == sizeof(huge));
	if (fd >= 0)
		close(fd);
	st_elf_close(&e);
	if (st_elf_open(bad, &e, err, sizeof(err))) {
		ok(false, "inflate: opens the corrupt binary");
		return;
	}
	CHECK(st_dwarf_inflate(&e, 1, &in) == -EINVAL && !in.elf && !in.image);
	st_elf_close(&e);
}

int main(void)
{
	char plain[256], cmd[300];

	if (!mkdtemp(dir) || build("plain", "-g", plain, sizeof(plain))) {
		ok(false, "inflate: a temporary directory and the fixture");
		return unit_summary();
	}
	test_same_dwarf(plain);
	test_corrupt();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		ok(false, "inflate: removes its directory");
	return unit_summary();
}
