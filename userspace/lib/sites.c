// SPDX-License-Identifier: MIT
/*
 * libside runtime: the probe sites of every loaded object, and what a
 * forked child does to them.
 *
 * A kernel that optimizes uprobes (6.18 here) turns a hit 5-byte nop site
 * into a call to a trampoline page it maps into the process. fork() copies
 * the patched text into the child but not the trampoline: the child's first
 * event jumps into an unmapped page and dies. So the child, before it runs
 * anything else, gives each such site the plain breakpoint the kernel wrote
 * before it optimized (int3, then the rest of the nop), which the kernel
 * handles in any process mapping the file, and then maps the site's page
 * again from its file (text_reload.c): the kernel writes the breakpoints of
 * the uprobes registered at that moment into any new mapping. The second
 * step matters while a tracer detaches: its removal may have walked the
 * child before the handler ran, found the call, which it does not undo,
 * and gone; the breakpoint alone would then stay with no uprobe behind it
 * and kill the child with SIGTRAP. The old page's breakpoints leave the
 * kernel's counts in the enable words with it. Where the page cannot be
 * mapped again (no file, replaced on disk), the breakpoint stays: right
 * unless the tracer is leaving at that very moment.
 *
 * Only sites of events with a kernel tracer attached can carry a call (the
 * kernel removes its breakpoints and lowers the enable word together), so
 * the child reads one word per site and touches no text while nobody
 * traces. A call whose target is mapped in the child is left alone: a
 * kernel that copies its trampoline needs nothing from us.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <side/probe.h>
#include "internal.h"
#include "text_reload.h"

struct side_probe_sites_handle {
	struct side_probe_sites_handle *next, **pprev;
	const struct side_probe_site *begin, *end;
};

/* The most sites on one page whose counts a reload gives back. */
#define SIDE_PAGE_SITES_MAX 256
/*
 * The most pages a child maps again (the sites of others keep the
 * breakpoint), and the most whose fallbacks a process disarms.
 */
#define SIDE_RELOAD_PAGES_MAX 64

/* Held across fork() so that the child inherits a whole list. */
static pthread_mutex_t side_sites_lock = PTHREAD_MUTEX_INITIALIZER;
static struct side_probe_sites_handle *side_sites;
static const uint8_t side_fallback_disarmed = SIDE_PROBE_FALLBACK_DISARMED;
/* Pages where this process disarmed fallbacks: a forked child maps them again. */
static uintptr_t side_disarmed_pages[SIDE_RELOAD_PAGES_MAX];
static size_t side_nr_disarmed_pages;

/* Through an integer: the result is no part of field, and the compiler must not think so. */
static const void *side_rel(const int32_t *field)
{
	return (const void *)((uintptr_t)field + *field);
}

static uintptr_t side_page_of(const void *addr, long page_size)
{
	return (uintptr_t)addr & ~((uintptr_t)page_size - 1);
}

/* The site's in-process fallback (side/probe.h), or NULL. */
static uint8_t *side_site_fallback(const uint8_t *insn)
{
	uint32_t d = side_probe_fallback_delta(insn);

	return d ? (uint8_t *)insn + d : NULL;
}

/* Whether addr is mapped in this process: mincore() fails with ENOMEM where nothing is. */
static bool side_mapped(const void *addr)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char vec;
	void *start = (void *)side_page_of(addr, page);

	return mincore(start, 1, &vec) == 0 || errno != ENOMEM;
}

/*
 * Writes through /proc/self/mem, which ignores the text's protection the
 * way a debugger's write does; where /proc is not mounted, the page is
 * made writable for the write. Only this thread runs in the child.
 */
static void side_text_write(int *mem, uint8_t *at, const uint8_t *bytes, size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t start = side_page_of(at, page);
	size_t span = (uintptr_t)at + len - start;

	if (*mem == -2)
		*mem = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
	if (*mem >= 0 && pwrite(*mem, bytes, len, (off_t)(uintptr_t)at) == (ssize_t)len)
		return;
	if (mprotect((void *)start, span, PROT_READ | PROT_WRITE | PROT_EXEC))
		return;
	memcpy(at, bytes, len);
	(void)mprotect((void *)start, span, PROT_READ | PROT_EXEC);
}

/* The breakpoint the kernel put on a 5-byte nop before it optimized it into a call. */
static void side_site_write_swbp(int *mem, uint8_t *insn)
{
	uint8_t swbp[] = {SIDE_X86_NOP5_BYTES};

	swbp[0] = SIDE_X86_INT3;
	side_text_write(mem, insn, swbp, sizeof(swbp));
}

/* Lowers the kernel's count of breakpoints in an enable word by one, never below 0. */
static void side_kernel_count_drop(uintptr_t *enabled)
{
	uintptr_t v = __atomic_load_n(enabled, __ATOMIC_RELAXED);

	while ((v & SIDE_ENABLED_KERNEL_MASK) &&
	       !__atomic_compare_exchange_n(enabled, &v, v - 1, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

/* Whether the kernel's breakpoint is at insn: an int3, or the call it optimized it into. */
static bool side_armed(const uint8_t *insn)
{
	return insn[0] == SIDE_X86_INT3 || insn[0] == SIDE_X86_CALL_REL32;
}

/*
 * The page mapped again from its file; the enable words of the sites whose
 * breakpoints (on the probe instruction or the fallback) were on the old
 * page lose them.
 */
static void side_site_page_reload(uintptr_t page, long page_size)
{
	uintptr_t *counted[SIDE_PAGE_SITES_MAX];
	const struct side_probe_sites_handle *h;
	const struct side_probe_site *s;
	const uint8_t *at, *fb;
	size_t n = 0, i, k;

	for (h = side_sites; h; h = h->next) {
		for (s = h->begin; s < h->end; s++) {
			at = side_rel(&s->insn);
			if (side_page_of(at, page_size) != page)
				continue;
			fb = side_site_fallback(at);
			k = side_armed(at) + (fb && side_armed(fb));
			if (n + k > SIDE_PAGE_SITES_MAX)
				return;
			while (k--)
				counted[n++] = (uintptr_t *)side_rel(&s->enabled);
		}
	}
	if (!side_text_reload(page, page_size))
		return;
	for (i = 0; i < n; i++)
		side_kernel_count_drop(counted[i]);
}

/*
 * A site holding a call into a page the child lacks gets the breakpoint;
 * its page is added to pages (n of them) to be mapped again.
 */
static void side_site_repair(int *mem, uint8_t *insn, long page_size, uintptr_t *pages, size_t *n)
{
	uintptr_t page = side_page_of(insn, page_size);
	int32_t rel;

	if (insn[0] != SIDE_X86_CALL_REL32)
		return;
	memcpy(&rel, insn + 1, sizeof(rel));
	if (side_mapped(insn + 5 + rel))
		return;
	side_site_write_swbp(mem, insn);
	if (*n < SIDE_RELOAD_PAGES_MAX && (!*n || pages[*n - 1] != page))
		pages[(*n)++] = page;
}

static void side_sites_before_fork(void)
{
	pthread_mutex_lock(&side_sites_lock);
}

static void side_sites_after_fork_parent(void)
{
	pthread_mutex_unlock(&side_sites_lock);
}

/*
 * Every call first becomes the breakpoint: changing the mappings runs the
 * kernel's uprobe_mmap() on the pieces of a split mapping, which would
 * write (and count) a breakpoint over any call still there. Then the pages
 * are mapped again.
 */
static void side_sites_after_fork_child(void)
{
	long page_size = sysconf(_SC_PAGESIZE);
	uintptr_t pages[SIDE_RELOAD_PAGES_MAX];
	const struct side_probe_sites_handle *h;
	const struct side_probe_site *s;
	size_t n = 0, i;
	int mem = -2;

	for (h = side_sites; h; h = h->next) {
		for (s = h->begin; s < h->end; s++) {
			const uintptr_t *enabled = side_rel(&s->enabled);
			uint8_t *insn = (uint8_t *)side_rel(&s->insn), *fb;

			if (!(__atomic_load_n(enabled, __ATOMIC_RELAXED) &
			      SIDE_ENABLED_KERNEL_MASK))
				continue;
			fb = side_site_fallback(insn);
			side_site_repair(&mem, insn, page_size, pages, &n);
			if (fb)
				side_site_repair(&mem, fb, page_size, pages, &n);
		}
	}
	if (mem >= 0)
		close(mem);
	/* The child serves no session: the kernel arms its fallbacks again, for it. */
	for (i = 0; i < side_nr_disarmed_pages && n < SIDE_RELOAD_PAGES_MAX; i++)
		pages[n++] = side_disarmed_pages[i];
	side_nr_disarmed_pages = 0;
	for (i = 0; i < n; i++)
		side_site_page_reload(pages[i], page_size);
	pthread_mutex_unlock(&side_sites_lock);
}

static bool side_enabled_in(const uintptr_t *enabled, uintptr_t *const *served, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (served[i] == enabled)
			return true;
	return false;
}

/* Records fb's page among the disarmed ones; false when no room is left. */
static bool side_disarmed_page_add(const uint8_t *fb, long page_size)
{
	uintptr_t page = side_page_of(fb, page_size);
	size_t i;

	for (i = 0; i < side_nr_disarmed_pages; i++)
		if (side_disarmed_pages[i] == page)
			return true;
	if (side_nr_disarmed_pages == SIDE_RELOAD_PAGES_MAX)
		return false;
	side_disarmed_pages[side_nr_disarmed_pages++] = page;
	return true;
}

void side_sites_disarm_fallbacks(uintptr_t *const *served, size_t nr)
{
	long page_size = sysconf(_SC_PAGESIZE);
	const struct side_probe_sites_handle *h;
	const struct side_probe_site *s;
	uintptr_t *enabled;
	int mem = -2;
	uint8_t *fb;
	bool armed;

	pthread_mutex_lock(&side_sites_lock);
	for (h = side_sites; h; h = h->next) {
		for (s = h->begin; s < h->end; s++) {
			enabled = (uintptr_t *)side_rel(&s->enabled);
			if (!side_enabled_in(enabled, served, nr))
				continue;
			fb = side_site_fallback(side_rel(&s->insn));
			if (!fb || *fb == side_fallback_disarmed ||
			    !side_disarmed_page_add(fb, page_size))
				continue;
			/* One byte: a thread runs either the old instruction or the new. */
			armed = side_armed(fb);
			side_text_write(&mem, fb, &side_fallback_disarmed, 1);
			if (armed)
				side_kernel_count_drop(enabled);
		}
	}
	pthread_mutex_unlock(&side_sites_lock);
	if (mem >= 0)
		close(mem);
}

/*
 * From side_init(), before any other handler of the runtime: child
 * handlers run in the order they were registered, and this one must run
 * before anything in the child can reach a site.
 */
void side_sites_init(void)
{
	(void)pthread_atfork(side_sites_before_fork, side_sites_after_fork_parent,
			     side_sites_after_fork_child);
}

struct side_probe_sites_handle *side_probe_sites_register(const struct side_probe_site *begin,
							  const struct side_probe_site *end)
{
	struct side_probe_sites_handle *handle;

	if (!begin || end <= begin)
		return NULL;
	side_init();
	handle = calloc(1, sizeof(*handle));
	if (!handle)
		return NULL;
	handle->begin = begin;
	handle->end = end;
	pthread_mutex_lock(&side_sites_lock);
	side_list_append(side_sites, handle);
	pthread_mutex_unlock(&side_sites_lock);
	return handle;
}

void side_probe_sites_unregister(struct side_probe_sites_handle *handle)
{
	if (!handle)
		return;
	pthread_mutex_lock(&side_sites_lock);
	side_list_unlink(handle);
	pthread_mutex_unlock(&side_sites_lock);
	free(handle);
}
