// SPDX-License-Identifier: MIT
/*
 * A page of text given back by its file. A fresh private mapping of the
 * file is made elsewhere and moved over the page with mremap(), which
 * replaces the old page or, failing, leaves it: a MAP_FIXED mmap() that
 * fails after unmapping would leave a hole in the text.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "maps.h"
#include "text_reload.h"

/* x86-64's page: larger ones are left to the breakpoint written in place. */
#define SIDE_TEXT_PAGE_MAX 4096

/* The 5-byte nop over which a kernel writes its optimized call. */
static const uint8_t side_x86_nop5[] = {0x0f, 0x1f, 0x44, 0x00, 0x00};

struct side_text_mapping {
	uintptr_t page;
	struct side_mapping m;
	char path[4352];
};

static int find_mapping(const struct side_mapping *m, void *arg)
{
	struct side_text_mapping *t = arg;
	size_t len = strlen(m->path);

	if (t->page < m->lo || t->page >= m->hi)
		return 0;
	if (m->path[0] != '/' || len >= sizeof(t->path) || !m->inode)
		return -1;
	t->m = *m;
	memcpy(t->path, m->path, len + 1);
	t->m.path = t->path;
	return 1;
}

/* Whether mem differs from file only where uprobes write: an int3, or a call or int3 over a nop5.
 */
static bool only_uprobes(const uint8_t *mem, const uint8_t *file, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (mem[i] == file[i])
			continue;
		if ((mem[i] == SIDE_X86_INT3 || mem[i] == SIDE_X86_CALL_REL32) &&
		    i + sizeof(side_x86_nop5) <= len &&
		    !memcmp(file + i, side_x86_nop5, sizeof(side_x86_nop5)))
			i += sizeof(side_x86_nop5) - 1;
		else if (mem[i] != SIDE_X86_INT3)
			return false;
	}
	return true;
}

static int prot_of(const char perms[4])
{
	return (perms[0] == 'r' ? PROT_READ : 0) | (perms[1] == 'w' ? PROT_WRITE : 0) |
	       (perms[2] == 'x' ? PROT_EXEC : 0);
}

bool side_text_reload(uintptr_t page, long page_size)
{
	struct side_text_mapping t = {.page = page};
	uint8_t file[SIDE_TEXT_PAGE_MAX];
	bool done = false;
	struct stat st;
	void *fresh;
	off_t off;
	int fd;

	if (page_size > SIDE_TEXT_PAGE_MAX || side_maps_walk(find_mapping, &t) != 1 ||
	    t.m.perms[3] != 'p')
		return false;
	fd = open(t.path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	/* The file mapped, not one put in its place since (a deploy's rename). */
	if (fstat(fd, &st) || st.st_ino != t.m.inode || major(st.st_dev) != t.m.dev_major ||
	    minor(st.st_dev) != t.m.dev_minor)
		goto cleanup;
	off = (off_t)(t.m.offset + (page - t.m.lo));
	if (pread(fd, file, page_size, off) != page_size ||
	    !only_uprobes((const uint8_t *)page, file, page_size))
		goto cleanup;
	fresh = mmap(NULL, page_size, prot_of(t.m.perms), MAP_PRIVATE, fd, off);
	if (fresh == MAP_FAILED)
		goto cleanup;
	/*
	 * A failed move leaves the old page; the fresh one may have had
	 * breakpoints written, whose counts then stay raised in this process.
	 */
	done = mremap(fresh, page_size, page_size, MREMAP_MAYMOVE | MREMAP_FIXED, (void *)page) !=
	       MAP_FAILED;
	if (!done)
		munmap(fresh, page_size);
cleanup:
	close(fd);
	return done;
}
