// SPDX-License-Identifier: MIT
/*
 * A page of text given back by its file: a private mapping of the file
 * made over the page with MAP_FIXED. The kernel links the new mapping
 * before it writes into it the breakpoints of the uprobes registered at
 * that moment, so a tracer attaching or leaving then finds it either way.
 * Not mremap() of a mapping made elsewhere: the page would carry the
 * breakpoints written at its first address, and a tracer's removal that
 * listed the file's mappings while the page was between its two addresses
 * would miss it and leave a breakpoint with no uprobe (SIGTRAP; measured,
 * tests/bats/fork.bats). The price: an mmap() that fails after the kernel
 * took the old page away (out of memory) leaves a hole, where recent
 * kernels put the old page back.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <side/probe.h>
#include "common/proc_maps.h"
#include "text_reload.h"

/* x86-64's page: larger ones are left to the breakpoint written in place. */
#define SIDE_TEXT_PAGE_MAX 4096

/* The 5-byte nop over which a kernel writes its optimized call. */
static const uint8_t side_x86_nop5[] = {SIDE_X86_NOP5_BYTES};

struct side_text_mapping {
	uintptr_t page;
	struct st_mapping m;
	char path[4352];
};

static int find_mapping(const struct st_mapping *m, void *arg)
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

/*
 * Whether mem differs from file only where uprobes write, an int3 or a
 * call or int3 over a nop5, or where the runtime disarmed a site's
 * fallback (side/probe.h), over a nop5 too.
 */
static bool only_uprobes(const uint8_t *mem, const uint8_t *file, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (mem[i] == file[i])
			continue;
		if ((mem[i] == SIDE_X86_INT3 || mem[i] == SIDE_X86_CALL_REL32 ||
		     mem[i] == SIDE_PROBE_FALLBACK_DISARMED) &&
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
	off_t off;
	int fd;

	if (page_size > SIDE_TEXT_PAGE_MAX || st_maps_walk(0, find_mapping, &t) != 1 ||
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
	done = mmap((void *)page, page_size, prot_of(t.m.perms), MAP_PRIVATE | MAP_FIXED, fd,
		    off) != MAP_FAILED;
cleanup:
	close(fd);
	return done;
}
