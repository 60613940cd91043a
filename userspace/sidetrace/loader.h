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

#include "compile.h"

struct sidetrace_bpf;
struct bpf_link;

struct st_loader {
	struct sidetrace_bpf *skel;
	struct bpf_link **links;
	uint32_t nr_links;
	int aggr_fd;		/* st_aggr: the aggregations */
	int counters_fd;	/* st_counters: hits and decode errors */
	int ncpus;		/* possible CPUs: per-CPU value count */
	bool fault_in;		/* the sleepable fault-in program is loaded */
	bool *fault_in_on;	/* per probe: fault-in attached */
	pid_t pid;		/* what the probes are attached to, -1: all */
};

/*
 * Checks the environment (root, BTF), opens the embedded program, sizes its
 * maps for c, loads it and writes the probe configurations. Returns 0, or a
 * negative errno with a message for a person in err.
 */
int st_loader_load(struct st_loader *l, const struct st_compiled *c,
		   char *err, size_t errlen);

/*
 * Attaches at every site of every compiled probe, in process pid or in all
 * processes (pid -1). Returns the number of probe sites attached, or a
 * negative errno with a message in err.
 */
int st_loader_attach(struct st_loader *l, const struct st_compiled *c,
		     pid_t pid, char *err, size_t errlen);

/*
 * Strings in pages that the traced program never touched cannot be read
 * by the main program; it counts the failure and arms the sleepable
 * fault-in program for that probe, which this attaches (costing each
 * event of the probe about as much again, hence only once needed). Call
 * it periodically. Returns the number of probes newly covered, or a
 * negative errno with a message in err.
 */
int st_loader_poll_fault_in(struct st_loader *l, const struct st_compiled *c,
			    char *err, size_t errlen);

/* True once a probe ran exit(). */
bool st_loader_exit_requested(const struct st_loader *l);

/* Detaches and unloads everything; l may be partly set up. */
void st_loader_close(struct st_loader *l);

#endif /* SIDETRACE_LOADER_H */
