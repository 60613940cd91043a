// SPDX-License-Identifier: MIT
/*
 * uprobe_multi links by hand, and the kernel's waits around uprobe
 * registration kept off the user's path (uprobes.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpfload/noop_prog.h"
#include "bpfload/uprobes.h"
#include "util/thread.h"

/* BPF_LINK_CREATE's attributes for attach type BPF_TRACE_UPROBE_MULTI. */
struct st_uprobe_multi_attr {
	__u32 prog_fd;
	__u32 target_fd;
	__u32 attach_type;
	__u32 flags;
	__u64 path;
	__u64 offsets;
	__u64 ref_ctr_offsets;
	__u64 cookies;
	__u32 cnt;
	__u32 multi_flags;
	__u32 pid;
};

int st_uprobe_multi_link(int prog_fd, const char *path, const uint64_t *offsets,
			 const uint64_t *ref_ctr_offsets, const uint64_t *cookies, uint32_t cnt,
			 pid_t pid, bool ret)
{
	struct st_uprobe_multi_attr attr;
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.prog_fd = prog_fd;
	attr.attach_type = ST_BPF_TRACE_UPROBE_MULTI;
	attr.path = (uintptr_t)path;
	attr.offsets = (uintptr_t)offsets;
	attr.ref_ctr_offsets = (uintptr_t)ref_ctr_offsets;
	attr.cookies = (uintptr_t)cookies;
	attr.cnt = cnt;
	attr.pid = pid;
	attr.multi_flags = ret ? ST_BPF_F_UPROBE_MULTI_RETURN : 0;
	fd = syscall(__NR_bpf, BPF_LINK_CREATE, &attr, sizeof(attr));
	return fd < 0 ? -errno : fd;
}

/*
 * Probes for uprobe_multi links as libbpf does: a link on "/" fails with
 * EBADF where they exist, and one with the invalid pid -1 fails with
 * EINVAL only where their pid filter is the fixed, per-process one.
 */
bool st_uprobe_multi_supported(void)
{
	const uint64_t offset = 0;
	bool ok = false;
	int prog_fd, fd;

	if (getenv("SIDETRACE_NO_UPROBE_MULTI"))
		return false;
	prog_fd = st_noop_prog(ST_BPF_TRACE_UPROBE_MULTI);
	if (prog_fd < 0)
		return false;
	fd = st_uprobe_multi_link(prog_fd, "/", &offset, NULL, NULL, 1, 0, false);
	if (fd == -EBADF) {
		fd = st_uprobe_multi_link(prog_fd, "/", &offset, NULL, NULL, 1, -1, false);
		ok = fd == -EINVAL;
	}
	if (fd >= 0)
		close(fd);
	close(prog_fd);
	return ok;
}

#define UPROBE_PMU_TYPE "/sys/bus/event_source/devices/uprobe/type"

/* A uprobe at offset 0 of path by a uprobe_multi link: its fd, or -1. */
static int warm_up_multi(const char *path)
{
	const uint64_t offset = 0;
	int prog_fd, fd;

	prog_fd = st_noop_prog(ST_BPF_TRACE_UPROBE_MULTI);
	if (prog_fd < 0)
		return -1;
	fd = st_uprobe_multi_link(prog_fd, path, &offset, NULL, NULL, 1, 0, false);
	close(prog_fd);
	return fd < 0 ? -1 : fd;
}

/* The same with a perf-event uprobe (kernels before 6.6): its fd, or -1. */
static int warm_up_perf(const char *path)
{
	struct perf_event_attr attr;
	int type = -1, fd;
	FILE *f;

	f = fopen(UPROBE_PMU_TYPE, "r");
	if (!f)
		return -1;
	if (fscanf(f, "%d", &type) != 1)
		type = -1;
	fclose(f);
	if (type < 0)
		return -1;
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = type;
	attr.config1 = (uintptr_t)path; /* uprobe_path */
	attr.config2 = 0; /* probe_offset */
	fd = syscall(__NR_perf_event_open, &attr, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);
	return fd < 0 ? -1 : fd;
}

/*
 * Registering a uprobe takes the kernel's dup_mmap_sem for writing, which
 * waits for an RCU grace period (about 13 ms here) unless another writer
 * took it less than a grace period before. That wait does not need our
 * programs: this thread registers a uprobe that nothing can hit (offset 0
 * of an empty memfd, which no process maps) while the main thread loads
 * them, and the real attachment then finds the grace period passed. The
 * registration is kept until the session ends: unregistering waits for
 * the kernel too (20-90 ms), and a short session would wait for it.
 * Best effort: where this fails, attaching waits as it would have.
 */
static void *warm_up(void *arg)
{
	struct st_warm_up *w = arg;
	char path[64];
	int mfd;

	mfd = memfd_create("sidetrace-warm-up", MFD_CLOEXEC);
	if (mfd < 0)
		return NULL;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", mfd);
	w->fd = warm_up_multi(path);
	if (w->fd < 0)
		w->fd = warm_up_perf(path);
	w->held = w->fd >= 0;
	close(mfd);
	return NULL;
}

void st_warm_up_start(struct st_warm_up *w)
{
	w->held = false;
	w->running = st_thread_start(&w->thread, warm_up, w);
}

void st_warm_up_join(struct st_warm_up *w)
{
	if (w->running)
		pthread_join(w->thread, NULL);
	w->running = false;
}

/* What a session holds, taken one at a time by the workers. */
struct detach_work {
	struct bpf_link **links;
	uint32_t nr_links;
	const int *fds;
	uint32_t nr_fds;
	int warm_up_fd; /* -1: none */
	uint32_t next;
};

static void *detach_worker(void *arg)
{
	struct detach_work *w = arg;
	uint32_t i;

	while ((i = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED)) <= w->nr_links + w->nr_fds) {
		if (i < w->nr_links)
			bpf_link__destroy(w->links[i]);
		else if (i < w->nr_links + w->nr_fds)
			close(w->fds[i - w->nr_links]);
		else if (w->warm_up_fd >= 0)
			close(w->warm_up_fd);
	}
	return NULL;
}

void st_detach_all(struct bpf_link **links, uint32_t nr_links, const int *fds, uint32_t nr_fds,
		   struct st_warm_up *w)
{
	struct detach_work work = {links, nr_links, fds, nr_fds, -1, 0};
	pthread_t threads[ST_DETACH_THREADS];
	uint32_t n = 0, items;

	st_warm_up_join(w);
	if (w->held)
		work.warm_up_fd = w->fd;
	w->held = false;
	items = nr_links + nr_fds + (work.warm_up_fd >= 0);
	/* The calling thread is a worker too. */
	while (n + 1 < items && n < ST_DETACH_THREADS &&
	       st_thread_start(&threads[n], detach_worker, &work))
		n++;
	detach_worker(&work);
	while (n)
		pthread_join(threads[--n], NULL);
}
