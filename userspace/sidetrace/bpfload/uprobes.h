/* SPDX-License-Identifier: MIT */
/*
 * What the kernel makes slow about uprobes, kept off the user's path:
 * uprobe_multi links (6.6+) made by hand (libbpf 1.1 has none), the
 * warm-up that pays the first registration's grace period while the
 * programs load, and the unregistrations at exit waited for together.
 */
#ifndef SIDETRACE_BPFLOAD_UPROBES_H
#define SIDETRACE_BPFLOAD_UPROBES_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A BPF_TRACE_UPROBE_MULTI link of prog_fd at cnt offsets of path, each
 * with its semaphore (ref_ctr_offsets, may be NULL) and cookie (may be
 * NULL), in process pid (0: all); ret: at the functions' returns (the
 * offsets are their entries). Returns the link's fd or a negative errno.
 */
int st_uprobe_multi_link(int prog_fd, const char *path, const uint64_t *offsets,
			 const uint64_t *ref_ctr_offsets, const uint64_t *cookies, uint32_t cnt,
			 pid_t pid, bool ret);

/* Whether this kernel has uprobe_multi links (and SIDETRACE_NO_UPROBE_MULTI is unset). */
bool st_uprobe_multi_supported(void);

/* The bpf_attach_type of uprobe_multi programs and links. */
#define ST_BPF_TRACE_UPROBE_MULTI 48
/* Its flag for return probes (BPF_F_UPROBE_MULTI_RETURN). */
#define ST_BPF_F_UPROBE_MULTI_RETURN 1U

/*
 * A uprobe that nothing can hit, registered by a thread while the programs
 * load (see warm_up() in uprobes.c); it stays registered until the session
 * ends, so that its unregistration is not waited for on the start-up path.
 */
struct st_warm_up {
	pthread_t thread;
	bool running; /* thread is to be joined */
	bool held; /* fd holds the registration (a link or a perf event) */
	int fd;
};

/* Starts the thread (best effort: nothing happens where it fails). */
void st_warm_up_start(struct st_warm_up *w);

/* Waits for the registration to be made; w->fd then holds it if w->held. */
void st_warm_up_join(struct st_warm_up *w);

/*
 * The most threads that unregister at once (st_detach_all()): one
 * perf-event uprobe per site (kernels without uprobe_multi) is a link
 * each, and their waits overlap only as far as threads wait together.
 */
#define ST_DETACH_THREADS 32

struct bpf_link;

/*
 * Destroys links[0..nr_links) (perf-event uprobes and other libbpf links),
 * closes fds[0..nr_fds) (uprobe_multi links) and w's registration, and
 * returns once the kernel has unregistered them all: no process is probed,
 * nor counted in an enable word, after the session ends. Each
 * unregistration waits for grace periods (10-40 ms here): up to
 * ST_DETACH_THREADS threads wait at once.
 */
void st_detach_all(struct bpf_link **links, uint32_t nr_links, const int *fds, uint32_t nr_fds,
		   struct st_warm_up *w);

#endif /* SIDETRACE_BPFLOAD_UPROBES_H */
