/* SPDX-License-Identifier: MIT */
/*
 * Loading the embedded BPF program with a compiled configuration and
 * attaching it at the probe sites of the compiled events.
 */
#ifndef SIDETRACE_LOADER_H
#define SIDETRACE_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "compile/compile.h"
#include "runtime/ro_strings.h"
#include "runtime/uprobes.h"

struct sidetrace_bpf;
struct bpf_link;

struct st_loader {
	struct sidetrace_bpf *skel;
	bool multi; /* sites attached through uprobe_multi links */
	int *link_fds; /* uprobe_multi links */
	uint32_t nr_link_fds;
	struct bpf_link **links; /* perf-event uprobes, one per site */
	uint32_t nr_links;
	uint32_t *site_base; /* per probe: its first site (uprobe cookie) */
	uint32_t nr_sites;
	int aggr_fd; /* st_aggr: the aggregations with keys */
	int compact_fd; /* st_aggr_compact: the same, keys in compact form */
	int values_fd; /* st_values: the plain values */
	int flat_fd; /* st_flat: the maps without keys */
	int counters_fd; /* st_counters: decode errors and drops */
	int events_fd; /* st_events: the ring buffer of records */
	int ncpus; /* possible CPUs: per-CPU value count */
	bool fault_in; /* the sleepable fault-in program is loaded */
	bool *fault_in_on; /* per probe: fault-in attached */
	/*
	 * Per map without keys: its entry exists although its counts are 0
	 * (zero() keeps an entry, clear() removes it), as a hash key would.
	 */
	bool *flat_kept;
	pid_t pid; /* what the probes are attached to, -1: all */
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
 * Checks the environment (root, BTF), opens the embedded program, sizes its
 * maps for c, loads it and writes the probe configurations. Meanwhile a
 * thread pays the kernel's wait for a first uprobe registration (see
 * warm_up() in uprobes.c); st_loader_close() joins it. Returns 0,
 * or a negative errno with a message for a person in err.
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

/*
 * Reads entries 0 .. n-1 of an array map (of size bytes each; per-CPU
 * maps: the value of every possible CPU, 8-byte aligned) into vals, in one
 * system call where the kernel can. 0 or a negative errno.
 */
int st_map_lookup_all(int fd, void *vals, size_t size, uint32_t n);

/* True once a probe ran exit(). */
bool st_loader_exit_requested(const struct st_loader *l);

/*
 * Stops counting and printing events (st_stopped in the BPF program):
 * what the session prints at its end then agrees, events sent before it
 * all printed, those after it neither counted nor printed. With settle,
 * also waits until the programs that read the flag before it was set have
 * returned (an RCU grace period, some ms), so that their records are in
 * the ring buffer before the last read of it.
 */
void st_loader_stop(const struct st_loader *l, bool settle);

/* Detaches and unloads everything; l may be partly set up. */
void st_loader_close(struct st_loader *l);

/*
 * The same for a session whose output is complete: the uprobes are
 * unregistered by a child process after this returns (semaphores drop to
 * 0 some ms later), so that the caller can exit without waiting for the
 * kernel. Not for serve, which promises them detached when it exits.
 */
void st_loader_close_in_background(struct st_loader *l);

#endif /* SIDETRACE_LOADER_H */
