/* SPDX-License-Identifier: MIT */
/*
 * A binary's compressed DWARF (SHF_COMPRESSED, zlib: Go compresses its
 * DWARF, so does gcc -gz) inflated by two threads into an in-memory ELF
 * of its debug sections alone, for libdw. libdw's dwarf_begin_elf()
 * inflates every debug section, one after another, whatever is asked
 * for: on a 15 MB Go binary that was 82% of the time to attach to one
 * of its functions (docs/PERFORMANCE.md, Part 9).
 */
#ifndef SIDETRACE_OBJFILE_DWARF_INFLATE_H
#define SIDETRACE_OBJFILE_DWARF_INFLATE_H

#include <stddef.h>

#include <libelf.h>

struct st_elf;

/* Below this much compressed DWARF, libdw's own inflating costs less than a thread. */
#define ST_DWARF_INFLATE_MIN (256 * 1024)

struct st_inflated {
	unsigned char *image; /* an ELF of the debug sections */
	size_t size;
	Elf *elf; /* over image */
};

/*
 * Inflates e's debug sections into out. 0; -ENOENT when fewer than min
 * bytes are compressed (ST_DWARF_INFLATE_MIN: not worth it), or the
 * compression is not zlib's; another negative errno when a section is
 * corrupt or memory is short. On any error out is empty and e->elf is
 * read as it is.
 */
int st_dwarf_inflate(const struct st_elf *e, size_t min, struct st_inflated *out);

void st_dwarf_inflated_free(struct st_inflated *in);

#endif /* SIDETRACE_OBJFILE_DWARF_INFLATE_H */
