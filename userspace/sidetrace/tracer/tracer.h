/* SPDX-License-Identifier: MIT */
/*
 * What runs a session's probes and what it keeps while they run: the BPF
 * object (bpfload/), the processes that run probes themselves (inproc/),
 * the names of the stacks taken and the traced files replaced on disk.
 * Readers (readout/), the session (session/) and the exporter (serve/)
 * take it whole; its end ends them all.
 */
#ifndef SIDETRACE_TRACER_TRACER_H
#define SIDETRACE_TRACER_TRACER_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "bpfload/loader.h"
#include "bpfload/replaced.h"
#include "bpfload/stacks.h"
#include "compile/compile.h"
#include "inproc/inproc.h"

struct st_tracer {
	struct st_loader bpf;
	struct st_inprocs inproc; /* --in-process */
	struct st_stacks *stacks; /* what names ustack and kstack */
	struct st_replaced *replaced; /* compiled.reattach: the files watched */
};

/*
 * Loads the BPF object for c (st_loader_load()) and sets up what the
 * session keeps beside it. 0, or a negative errno with a message in err.
 */
int st_tracer_load(struct st_tracer *t, const struct st_compiled *c, char *err, size_t errlen);

/*
 * Attaches c's probes (st_loader_attach()) and, where c asks for it,
 * starts watching the traced files for new builds. The number of probe
 * sites attached, or a negative errno with a message in err.
 */
int st_tracer_attach(struct st_tracer *t, const struct st_compiled *c, pid_t pid, char *err,
		     size_t errlen);

/*
 * The processes that run probes themselves, as one list for a whole read:
 * serve's session adds to it while its HTTP thread reads.
 */
static inline const struct st_inproc *st_tracer_inprocs(const struct st_tracer *t)
{
	return st_inprocs_list(&t->inproc);
}

/* True once a probe ran exit(), in the kernel or in a process. */
bool st_tracer_exit_requested(const struct st_tracer *t);

/* Stops counting and printing events everywhere (st_loader_stop()). */
void st_tracer_stop(const struct st_tracer *t, bool settle);
/*
 * BEGIN has run: the attached probes and the processes' engines count and
 * print from now on (st_loader_begin(), st_inprocs_begin()).
 */
void st_tracer_begin(struct st_tracer *t);

/*
 * Ends the in-process sessions, then detaches and unloads the BPF object
 * (st_loader_close()), and frees the rest; t may be partly set up.
 */
void st_tracer_close(struct st_tracer *t);

#endif /* SIDETRACE_TRACER_TRACER_H */
