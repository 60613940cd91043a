// SPDX-License-Identifier: MIT
/*
 * A program that carries its own copy of the runtime (linked with
 * libside.a) registers its events with that copy: the console tracer,
 * preloaded, registers with libside.so and never sees them. Told apart
 * from the program's ELF file: it has events (a side_event_description_ptr
 * section) but neither imports side_events_register from a shared runtime
 * nor exports its own (which a preloaded libside.so would then use too).
 */
#include <elf.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "print.h"

struct elf_file {
	const unsigned char *base;
	size_t size;
	const Elf64_Shdr *sh;
	unsigned int shnum;
};

static const Elf64_Shdr *section(const struct elf_file *f, unsigned int i)
{
	const Elf64_Shdr *s = &f->sh[i];

	if (i >= f->shnum || s->sh_offset > f->size || s->sh_size > f->size - s->sh_offset)
		return NULL;
	return s;
}

static const char *name_at(const struct elf_file *f, const Elf64_Shdr *strtab, uint64_t off)
{
	if (!strtab || off >= strtab->sh_size)
		return "";
	/* Read at most to the table's end: a name is NUL-terminated inside it. */
	if (!memchr(f->base + strtab->sh_offset + off, 0, strtab->sh_size - off))
		return "";
	return (const char *)f->base + strtab->sh_offset + off;
}

/* 1: section found and not empty; the .dynsym entry for a name in *sym. */
static bool has_events(const struct elf_file *f, const Elf64_Shdr *shstr, const Elf64_Sym **sym)
{
	bool events = false;
	unsigned int i;
	uint64_t k;

	for (i = 0; i < f->shnum; i++) {
		const Elf64_Shdr *s = section(f, i), *str;

		if (!s)
			continue;
		if (!strcmp(name_at(f, shstr, s->sh_name), "side_event_description_ptr"))
			events = s->sh_size > 0;
		if (s->sh_type != SHT_DYNSYM || s->sh_entsize != sizeof(Elf64_Sym))
			continue;
		str = section(f, s->sh_link);
		for (k = 0; k < s->sh_size / sizeof(Elf64_Sym); k++) {
			const Elf64_Sym *e = (const Elf64_Sym *)(f->base + s->sh_offset) + k;

			if (!strcmp(name_at(f, str, e->st_name), "side_events_register"))
				*sym = e;
		}
	}
	return events;
}

static bool private_runtime(const struct elf_file *f)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f->base;
	const Elf64_Sym *sym = NULL;
	struct elf_file g = *f;

	if (f->size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff > f->size ||
	    (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > f->size - eh->e_shoff)
		return false;
	g.sh = (const Elf64_Shdr *)(f->base + eh->e_shoff);
	g.shnum = eh->e_shnum;
	return has_events(&g, section(&g, eh->e_shstrndx), &sym) && !sym;
}

void warn_private_runtime(void)
{
	struct elf_file f = {0};
	struct stat st;
	void *map;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (fstat(fd, &st) || st.st_size <= 0) {
		close(fd);
		return;
	}
	map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return;
	f.base = map;
	f.size = st.st_size;
	if (private_runtime(&f))
		fprintf(stderr,
			"libside-console-tracer: this program's events do not go through "
			"the shared libside.so (it was linked with its own copy, libside.a), "
			"so they are not printed: link it with -lside, or link the tracer "
			"into it (-Wl,--no-as-needed -lside-console-tracer)\n");
	munmap(map, st.st_size);
}
