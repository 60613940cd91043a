/* SPDX-License-Identifier: MIT */
/*
 * The runtime's fork repair (userspace/lib/sites.c) on any kernel: the
 * test plays the kernel that optimized a site (a call written over the
 * probe instruction, the enable word's kernel count raised), forks, and
 * the child reports the bytes it finds at its site without running them,
 * and its enable word. No uprobe is registered: the kernel that walked
 * the child while its tracer detached, before the child's handler ran.
 * Run as "deleted" from a copy of itself that it removed, the page has no
 * file to come back from.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
#include <side/trace.h>
#include "unit.h"

side_static_event(ev_one, "fork", "one", SIDE_LOGLEVEL_INFO, side_field_list(side_field_u32("x")));

static __attribute__((noinline)) void emit(uint32_t x)
{
	side_event(ev_one, side_arg_list(side_arg_u32(x)));
}

static const uint8_t nop5[] = {SIDE_PROBE_INSN_BYTES};
static const uint8_t swbp[] = {0xcc, 0x1f, 0x44, 0x00, 0x00};

static uint8_t *site(void)
{
	const struct side_probe_site *s = __start_side_probe_sites;

	return (uint8_t *)&s->insn + s->insn;
}

static void poke(uint8_t *at, const uint8_t *bytes, size_t len)
{
	int fd = open("/proc/self/mem", O_RDWR);

	CHECK(fd >= 0 && pwrite(fd, bytes, len, (off_t)(uintptr_t)at) == (ssize_t)len);
	close(fd);
}

/* A call from the site to target, as the kernel writes it. */
static void call_to(uint8_t *target)
{
	uint8_t call[5] = {0xe8};
	int32_t rel = (int32_t)(target - (site() + 5));

	memcpy(call + 1, &rel, sizeof(rel));
	poke(site(), call, sizeof(call));
}

/* A page within a call's reach of the site (what the kernel's trampoline is). */
static uint8_t *page_near_site(long page)
{
	uintptr_t base = (uintptr_t)site() & ~((uintptr_t)page - 1);
	void *p;
	int k;

	for (k = 1; k < 64; k++) {
		p = mmap((void *)(base + ((uintptr_t)k << 24)), page, PROT_READ | PROT_EXEC,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p != MAP_FAILED)
			return p;
	}
	return NULL;
}

/* The 5 bytes at the site in a child made now, and its enable word. */
static void child_sees(uint8_t out[5], uintptr_t *enabled)
{
	int fds[2], status;
	pid_t pid;

	memset(out, 0, 5);
	if (pipe(fds))
		return;
	pid = fork();
	if (pid == 0) {
		bool sent = write(fds[1], site(), 5) == 5 &&
			    write(fds[1], &side_event_state__ev_one.enabled, sizeof(*enabled)) ==
				    sizeof(*enabled);

		_exit(sent ? 0 : 1);
	}
	close(fds[1]);
	CHECK(read(fds[0], out, 5) == 5 &&
	      read(fds[0], enabled, sizeof(*enabled)) == sizeof(*enabled));
	close(fds[0]);
	CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status));
}

/* A copy of this test that removes its own file and checks the fallback. */
static void run_deleted(void)
{
	char copy[] = "/tmp/test_api_fork.XXXXXX", cmd[200];
	int fd = mkstemp(copy), status;

	CHECK(fd >= 0);
	close(fd);
	snprintf(cmd, sizeof(cmd), "cp /proc/%d/exe %s && chmod 700 %s && %s deleted > /dev/null",
		 getpid(), copy, copy, copy);
	status = system(cmd);
	unlink(copy);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "a page whose file is gone: the breakpoint written in place");
}

int main(int argc, char **argv)
{
	uintptr_t *enabled = &side_event_state__ev_one.enabled, child_enabled;
	uint8_t got[5], saved[5], *gone, *mapped;
	long page = sysconf(_SC_PAGESIZE);
	bool deleted = argc == 2 && !strcmp(argv[1], "deleted");

	if (deleted) {
		char self[4096] = "";

		CHECK(readlink("/proc/self/exe", self, sizeof(self) - 1) > 0 && !unlink(self));
	}
	CHECK(__stop_side_probe_sites - __start_side_probe_sites == 1);
	CHECK(!memcmp(site(), nop5, sizeof(nop5)));
	emit(1);
	memcpy(saved, site(), 5);
	/* Near the site: a page mapped in no process any more, and one mapped. */
	gone = page_near_site(page);
	mapped = page_near_site(page);
	CHECK(gone && mapped);
	munmap(gone, page);

	__atomic_store_n(enabled, SIDE_ENABLED_USER_ONE | 1, __ATOMIC_RELAXED);
	call_to(gone);
	child_sees(got, &child_enabled);
	if (deleted) {
		CHECK(!memcmp(got, swbp, 5) && child_enabled == (SIDE_ENABLED_USER_ONE | 1));
		return unit_summary();
	}
	ok(!memcmp(got, nop5, 5),
	   "a call into a page the child lacks: the page comes back from its file");
	ok(child_enabled == SIDE_ENABLED_USER_ONE,
	   "the call's count leaves the kernel's part of the enable word, the rest stays");
	ok(site()[0] == 0xe8 && *enabled == (SIDE_ENABLED_USER_ONE | 1),
	   "the parent keeps its call");

	call_to(mapped);
	child_sees(got, &child_enabled);
	ok(got[0] == 0xe8 && child_enabled == (SIDE_ENABLED_USER_ONE | 1),
	   "a call whose target the child has is left alone");

	__atomic_store_n(enabled, SIDE_ENABLED_USER_ONE, __ATOMIC_RELAXED);
	call_to(gone);
	child_sees(got, &child_enabled);
	ok(got[0] == 0xe8, "no kernel tracer (in-process ones only): the site is not touched");

	poke(site(), saved, 5);
	__atomic_store_n(enabled, 0, __ATOMIC_RELAXED);
	child_sees(got, &child_enabled);
	ok(!memcmp(got, nop5, 5), "an untraced site stays the nop");
	run_deleted();
	return unit_summary();
}
