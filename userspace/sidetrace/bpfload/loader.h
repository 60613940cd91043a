/* SPDX-License-Identifier: MIT */
/*
 * Loading the embedded BPF program with a compiled configuration and
 * attaching it at the probe sites of the compiled events.
 */
#ifndef SIDETRACE_BPFLOAD_LOADER_H
#define SIDETRACE_BPFLOAD_LOADER_H

#include <stdbool.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "targets/targets.h"
#include "compile/compile.h"
#include "bpfload/fault_in.h"
#include "bpfload/ro_strings.h"
#include "bpfload/uprobes.h"

struct sidetrace_bpf;
struct bpf_link;

/*
 * Open files a session asks for besides two per probe site: the object's
 * maps and programs, the tracepoints that follow -c, BTF, the files read
 * (the soft limit is raised to it before the object opens).
 */
#define ST_FD_MARGIN 256

/*
 * Raises the soft limit on open files to want where it is lower, as far
 * as the hard limit allows. The soft limit then, RLIM_INFINITY for none.
 */
rlim_t st_loader_raise_fds(rlim_t want);

/* A watchpoint's hardware breakpoint (watch.h). */
struct st_watch_link {
	uint32_t probe;
	uint64_t addr;
	struct bpf_link *link;
};

/* Sets of files attached again after being replaced on disk, at most. */
#define ST_MAX_SITE_GENS 16
/* st_sites' room for sites that a new build has beyond the old one's. */
#define ST_REATTACH_SPARE_SITES 64

/*
 * The sites of a traced file replaced on disk and attached again
 * (bpfload/replaced.h): per probe its event in the new file (NULL: the
 * probe is not in it) and the index in st_sites of its first site there.
 * The session's own sites are the compiled events and site_base.
 */
struct st_site_gen {
	const struct st_event **events;
	uint32_t *site_base;
	struct st_target_set targets; /* holds the events */
};

/* What st_loader_open_early()'s thread does while the caller compiles. */
struct st_loader_prep {
	pthread_t open;
	bool started; /* st_loader_open_early() ran */
	bool opening; /* the thread to be joined */
	struct sidetrace_bpf *skel; /* the embedded object opened, or NULL: */
	int err; /* why not */
};

struct st_loader {
	struct st_loader_prep prep;
	struct sidetrace_bpf *skel;
	bool multi; /* sites attached through uprobe_multi links */
	bool kmulti; /* kprobes and kretprobes attached through kprobe_multi links (kprobes.h) */
	int *link_fds; /* uprobe_multi links */
	uint32_t nr_link_fds;
	struct bpf_link **links; /* perf-event uprobes, one per site */
	uint32_t nr_links;
	uint32_t *site_base; /* per probe: its first site (uprobe cookie) */
	uint32_t nr_sites; /* the session's own sites */
	/* st_sites' entries: nr_sites, and room for the sites of replaced files */
	uint32_t site_cap;
	uint32_t sites_used; /* of site_cap */
	struct st_site_gen gens[ST_MAX_SITE_GENS];
	uint32_t nr_gens;
	int aggr_fd; /* st_aggr: the aggregations with keys */
	int compact_fd; /* st_aggr_compact: the same, keys in compact form */
	int values_fd; /* st_values: the plain values */
	int flat_fd; /* st_flat: the maps without keys */
	int counters_fd; /* st_counters: decode errors and drops */
	int events_fd; /* st_events: the ring buffer of records */
	/* sidetrace_user and its request (bpf/user.bpf.h); -1: no BEGIN, END, interval aggregates
	 */
	int user_fd;
	int user_req_fd;
	/* sidetrace_kread and its request (bpf/user.bpf.h); -1: no clause of sidetrace's reads */
	int kread_fd;
	int kread_req_fd;
	/* sidetrace_debugf and its request (bpf/user.bpf.h); -1: no clause of sidetrace's calls it
	 */
	int debugf_fd;
	int debugf_req_fd;
	int ncpus; /* possible CPUs: per-CPU value count */
	struct st_fault_in fault; /* the sleepable fault-in program */
	bool *fault_in_on; /* per probe: fault-in attached */
	/*
	 * Per map without keys: its entry exists although its counts are 0
	 * (zero() keeps an entry, clear() removes it), as a hash key would.
	 */
	bool *flat_kept;
	pid_t pid; /* what the probes are attached to, -1: all */
	pid_t task; /* the -c command or -p process, -1: none (-c's pid is -1, followed) */
	/* iter: the iterator's output, read until its end (iters.h); iterating: it is open */
	int iter_fd;
	bool iterating;
	struct st_watch_link *watches; /* breakpoints set (watch.h) */
	size_t nr_watches, watches_cap;
	uint64_t *watched; /* per probe: the address of its last breakpoint, 0: none */
	/*
	 * --in-process of -p: the side: probes that a process's engine can
	 * serve are left to it, not attached in the kernel. (Of -c and every
	 * process they are, at their fallbacks: st_site_probe_delta().)
	 */
	bool leave_served;
	bool follow; /* -c: the command's descendants too (follow.h) */
	struct st_ro_strings ro; /* strings the programs key by address */
	struct st_warm_up warm_up; /* see warm_up() in uprobes.c */
};

/*
 * Whether BPF programs can be loaded here at all (root, BTF): 0, or a
 * negative errno with a message for a person in err.
 */
int st_loader_check_environment(char *err, size_t errlen);

/*
 * Starts what loading needs that no program changes, in threads, while
 * the caller reads the targets and compiles: the kernel's wait for a
 * first uprobe registration when files are probed (see warm_up() in
 * uprobes.c) and opening the embedded object (0.5-13 ms each). Call it
 * on a new loader, after st_loader_check_environment(); st_loader_load()
 * calls it where the caller has not.
 */
void st_loader_prepare(struct st_loader *l, bool files);

/*
 * The part of st_loader_prepare() that no program's text decides:
 * opening the embedded object, in a thread started before the program is
 * read (it takes about 0.5 ms, which the program's checks then
 * overlap). Call it on a new loader where no process is forked before the
 * load: a -c command is started with no thread running.
 */
void st_loader_open_early(struct st_loader *l);

/*
 * Checks the environment (root, BTF), opens the embedded program, sizes its
 * maps for c, loads it and writes the probe configurations; the threads
 * of st_loader_prepare() are joined here and by st_loader_close().
 * Returns 0, or a negative errno with a message for a person in err.
 */
int st_loader_load(struct st_loader *l, const struct st_compiled *c, char *err, size_t errlen);

/*
 * Attaches at every site of every compiled probe, in process pid or in all
 * processes (pid -1). Returns the number of probe sites attached, or a
 * negative errno with a message in err. Sites are attached by uprobe_multi
 * links where st_loader_load() found the kernel has them and
 * SIDETRACE_NO_UPROBE_MULTI is not set in the environment, else by one
 * perf-event uprobe per site (both ways are tested).
 */
int st_loader_attach(struct st_loader *l, const struct st_compiled *c, pid_t pid, char *err,
		     size_t errlen);

/*
 * Strings in pages that the traced program never touched cannot be read
 * by the main program; it counts the failure and arms the sleepable
 * fault-in program for that probe, which this attaches (costing each
 * event of the probe about as much again, hence only once needed). Call
 * it periodically. Returns the number of probes newly covered (a traced
 * process that is gone needs none), or a negative errno with a message in
 * err.
 */
int st_loader_poll_fault_in(struct st_loader *l, const struct st_compiled *c, char *err,
			    size_t errlen);

/* Probe i's event in gen, or the compiled one (gen NULL). */
static inline const struct st_event *st_loader_gen_event(const struct st_compiled *c,
							 const struct st_site_gen *gen, uint32_t i)
{
	return gen ? gen->events[i] : c->probes[i].event;
}

/*
 * Numbers gen's sites after those in use and writes their configurations
 * (loader.c). 0, or a negative errno with a message in err (-ENOSPC: no
 * room left in st_sites).
 */
int st_loader_write_gen(struct st_loader *l, const struct st_compiled *c, struct st_site_gen *gen,
			char *err, size_t errlen);

/*
 * Adds gen (its events set) as the next set of files (attach.c): writes
 * its sites (st_loader_write_gen()) and attaches every program its probes
 * have, the fault-in included where it is on. On success the loader owns
 * gen's contents. 0, or a negative errno with a message in err.
 */
int st_loader_add_gen(struct st_loader *l, const struct st_compiled *c, struct st_site_gen *gen,
		      char *err, size_t errlen);

/*
 * Reads entries 0 .. n-1 of an array map (of size bytes each; per-CPU
 * maps: the value of every possible CPU, 8-byte aligned) into vals, in one
 * system call where the kernel can. 0 or a negative errno.
 */
int st_map_lookup_all(int fd, void *vals, size_t size, uint32_t n);

/* True once a probe in the kernel ran exit(). */
bool st_loader_exit_requested(const struct st_loader *l);

/* The errno of the last insert the kernel refused to a map not full (ST_C_MAP_ERR), or 0. */
int st_loader_map_err(const struct st_loader *l);

/*
 * Starts counting and printing events once BEGIN has run: the probes
 * attached by st_loader_attach() ignore them until then, as bpftrace's
 * are not attached yet.
 */
void st_loader_begin(const struct st_loader *l);

/*
 * Stops counting and printing events (st_stopped in the BPF program):
 * what the session prints at its end then agrees, events sent before it
 * all printed, those after it neither counted nor printed. With settle,
 * also waits until the programs that read the flag before it was set have
 * returned (an RCU grace period, some ms), so that their records are in
 * the ring buffer before the last read of it.
 */
void st_loader_stop(const struct st_loader *l, bool settle);

/*
 * Detaches and unloads everything; l may be partly set up. Returns once
 * the kernel has unregistered every probe: no enable word counts the
 * session any more, in any process.
 */
void st_loader_close(struct st_loader *l);

#endif /* SIDETRACE_BPFLOAD_LOADER_H */
