/* SPDX-License-Identifier: MIT */
/*
 * Bounded, relocation-aware reads from an ELF object file, as the loader
 * would see its initialized data: virtual address in, bytes out.
 *
 * Every read is checked against the loadable segments and the file size, so
 * a hostile or truncated file yields a failed read, never a fault.
 */
#ifndef SIDETRACE_OBJFILE_ELF_H
#define SIDETRACE_OBJFILE_ELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <gelf.h>

/* One PT_LOAD segment. */
struct st_elf_seg {
	uint64_t vaddr;
	uint64_t memsz;
	uint64_t offset;
	uint64_t filesz;
	uint32_t flags; /* PF_X, PF_W, PF_R */
};

/* Link-time value of one pointer word that a dynamic relocation fills in. */
struct st_elf_reloc {
	uint64_t addr;
	uint64_t value;
	bool resolved; /* false: refers to a symbol of another object */
};

/*
 * The pointer-sized dynamic relocations, sorted by addr, read at the first
 * st_elf_read_ptr(): only SIDE descriptions are read through pointers,
 * and a large binary's relocations take milliseconds to sort.
 */
struct st_elf_relocs {
	bool loaded;
	struct st_elf_reloc *v;
	size_t nr, cap;
};

struct st_elf {
	int fd;
	Elf *elf;
	const unsigned char *image; /* the whole file, mapped read-only */
	size_t size;
	GElf_Ehdr ehdr;
	struct st_elf_seg *segs;
	size_t nr_segs;
	struct st_elf_relocs *relocs; /* filled on first use */
};

/*
 * Open an ET_EXEC or ET_DYN object. Returns 0, or a negative errno with a
 * message in err that does not repeat the path: the open error (-ENOENT,
 * -EACCES, -ELOOP, ...), -EISDIR, -ENODEV (a device file), -ENOEXEC (not
 * a regular file, not ELF, not supported), -EINVAL (corrupt headers).
 */
int st_elf_open(const char *path, struct st_elf *e, char *err, size_t errlen);
void st_elf_close(struct st_elf *e);

/* The PT_LOAD segment whose memory holds [vaddr, vaddr + len), or NULL. */
const struct st_elf_seg *st_elf_segment(const struct st_elf *e, uint64_t vaddr, uint64_t len);

/* Find a section by name; fills shdr. NULL if absent. */
Elf_Scn *st_elf_find_section(struct st_elf *e, const char *name, GElf_Shdr *shdr);

/*
 * Translate [vaddr, vaddr + len) to a file offset. Fails when the range is
 * not inside the file-backed part of one PT_LOAD segment; need_exec further
 * requires an executable segment (uprobe sites).
 */
bool st_elf_vaddr_to_offset(const struct st_elf *e, uint64_t vaddr, uint64_t len, bool need_exec,
			    uint64_t *off);

/*
 * Read len bytes at vaddr as initialized at load time (the zero-filled tail
 * of a segment reads as zeros). Relocations are not applied: use
 * st_elf_read_ptr for pointer words.
 */
bool st_elf_read(const struct st_elf *e, uint64_t vaddr, void *buf, size_t len);

/*
 * Read the 8-byte pointer at vaddr with the dynamic relocation for that
 * word applied, giving its link-time virtual address. A pointer to another
 * object (unresolved symbol) reads as 0.
 */
bool st_elf_read_ptr(const struct st_elf *e, uint64_t vaddr, uint64_t *val);

/*
 * Read a NUL-terminated string of unit_size-byte code units (1, 2 or 4) at
 * vaddr, converted to UTF-8, at most max_units units. Returns a malloc'ed
 * string, or NULL when the address is invalid or no terminator is found
 * within the limit.
 */
char *st_elf_read_str(const struct st_elf *e, uint64_t vaddr, unsigned int unit_size,
		      size_t max_units);

#endif /* SIDETRACE_OBJFILE_ELF_H */
